import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * Whether this browser lacks IntersectionObserver: false on the server and on the render that
 * hydrates its HTML, so that both match, then read from the browser.
 */
export function useWithoutObserver(): boolean {
  return useSyncExternalStore(
    never,
    () => typeof IntersectionObserver === 'undefined',
    () => false,
  );
}
