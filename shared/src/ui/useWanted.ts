import { useEffect, useState, type RefObject } from 'react';
import { useWithoutObserver } from './withoutObserver';

/**
 * Whether what an element shows is wanted yet (docs/first-screen.md, « Work after the paint »): once
 * any part of it is in view, or the visitor has scrolled the page at all, and for good after that. A
 * block below the first screen asks for its data then, rather than as the page starts: a visitor who
 * reads only the first screen costs neither the request nor the render and layout of its answer, and
 * one who scrolls has it asked for at the first movement, before the block is reached.
 * Where IntersectionObserver is missing, it is wanted at once. Never on the server nor on the render
 * that hydrates its HTML, so that both match.
 */
export function useWanted(ref: RefObject<Element | null>): boolean {
  const [wanted, setWanted] = useState(false);
  const noObserver = useWithoutObserver();

  useEffect(() => {
    const element = ref.current;
    if (wanted || element === null || typeof IntersectionObserver === 'undefined') return undefined;
    const want = () => {
      setWanted(true);
    };
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) want();
    });
    observer.observe(element);
    window.addEventListener('scroll', want, { passive: true, once: true });
    return () => {
      observer.disconnect();
      window.removeEventListener('scroll', want);
    };
  }, [ref, wanted]);

  return wanted || noObserver;
}
