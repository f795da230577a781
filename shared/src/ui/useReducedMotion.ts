import { useSyncExternalStore } from 'react';
import { prefersReducedMotion } from './scroll';

const QUERY = '(prefers-reduced-motion: reduce)';

function subscribe(notify: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const list = window.matchMedia(QUERY);
  list.addEventListener('change', notify);
  return () => {
    list.removeEventListener('change', notify);
  };
}

/**
 * Whether the visitor prefers reduced motion. The server cannot know: it renders as if not, and
 * the first render in the browser does the same (React's server snapshot), so hydration matches.
 */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
}
