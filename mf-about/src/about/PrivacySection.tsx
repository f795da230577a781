import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';

/** Its own chunk, with its styles: never in About's document, nor among its first screen's requests. */
const Privacy = lazy(() => import(/* webpackChunkName: "confidentialite" */ './Privacy'));

const subscribe = () => () => undefined;

/** How far below the screen the section starts coming: well before a reader or the focus gets there. */
const AHEAD = '800px';

/**
 * « Confidentialité et mesure d’audience » (Privacy.tsx), drawn by the browser: nothing on the
 * server and while the page hydrates, so the two agree; then its code is asked for as the end of the
 * page nears the screen, or at once for its anchor (#confidentialite) or a browser without
 * IntersectionObserver. About's first screen asks for nothing more (docs/rendering.md, « The first
 * screen's budget »).
 */
export function PrivacySection() {
  const shown = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  const [near, setNear] = useState(
    () =>
      typeof window !== 'undefined' &&
      (typeof IntersectionObserver !== 'function' || window.location.hash === '#confidentialite'),
  );
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = end.current;
    if (near || element === null) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: `0px 0px ${AHEAD} 0px` },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [near, shown]);
  if (!shown) return null;
  return near ? (
    <Suspense fallback={null}>
      <Privacy />
    </Suspense>
  ) : (
    <div ref={end} />
  );
}
