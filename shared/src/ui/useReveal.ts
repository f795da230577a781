import { useEffect, useRef, useState } from 'react';

/**
 * Reveal on scroll: active while the element's top edge is at least `offset` px above the
 * viewport bottom and the element is still in view; inactive again once it leaves.
 * Where IntersectionObserver is missing, the element is simply shown.
 */
export function useReveal<T extends Element>(offset: number) {
  const ref = useRef<T>(null);
  const [active, setActive] = useState(() => typeof IntersectionObserver === 'undefined');

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

  return [ref, active] as const;
}
