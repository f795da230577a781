import { useEffect, useRef, useState } from 'react';
import { useWithoutObserver } from './withoutObserver';

/**
 * Reveal on scroll: active while the element's top edge is at least `offset` px above the
 * viewport bottom and the element is still in view; inactive again once it leaves.
 * Where IntersectionObserver is missing, the element is simply shown. Inactive on the server and on
 * the render that hydrates its HTML, so that both match; the content stays visible until the shell's
 * script marks the page as run by JavaScript (`html.js`, see base.css).
 */
export function useReveal<T extends Element>(offset: number) {
  const ref = useRef<T>(null);
  const [active, setActive] = useState(false);
  const noObserver = useWithoutObserver();

  useEffect(() => {
    const element = ref.current;
    if (element === null || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) setActive(entry.isIntersecting);
      },
      { rootMargin: `0px 0px -${String(offset)}px 0px` },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [offset]);

  return [ref, active || noObserver] as const;
}
