import { lazy, Suspense, useSyncExternalStore } from 'react';

/** Its own chunk, with its styles: asked for once the page is shown, never in About's document. */
const Privacy = lazy(() => import(/* webpackChunkName: "confidentialite" */ './Privacy'));

const subscribe = () => () => undefined;

/**
 * « Confidentialité et mesure d’audience » (Privacy.tsx), drawn by the browser once the page is
 * shown: nothing on the server and while the page hydrates, so the two agree.
 */
export function PrivacySection() {
  const shown = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  return shown ? (
    <Suspense fallback={null}>
      <Privacy />
    </Suspense>
  ) : null;
}
