import { useSyncExternalStore } from 'react';

const subscribeNever = () => () => undefined;

/**
 * True once the page is hydrated in a browser, false on the server and during hydration: a control
 * that can do nothing without the page's script (a grid's « Suivre », « Ajouter à la file ») is
 * left out of the document the server sends, which a phone gets in its first round trip
 * (docs/first-screen.md, « The first screen's budget »).
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
