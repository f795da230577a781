import { useSyncExternalStore } from 'react';

/*
 * « Ne pas être compté » (docs/figures.md, « In the browser »): a visitor who objects to the
 * audience figures says so on the legal section of About, and this browser keeps it. The player
 * then sends no beacon at all. Its own entry (`@collectif/shared/figures`), so that the player and
 * About carry this and nothing else of the figures.
 */

/** Where the choice is kept: exactly `NOT_COUNTED` when the visitor objects; anything else is no choice. */
export const NOT_COUNTED_KEY = 'collectif:ne-pas-compter';
/** The one value that means « Ne pas être compté ». */
export const NOT_COUNTED = 'oui';
/** Told on `window` when this page changes the choice (other tabs hear the `storage` event). */
const CHANGED = 'collectif:ne-pas-compter-changed';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Whether this browser asked not to be counted. Only the exact value counts: a stored value that is
 * anything else (another script's, a tampered one) reads as no choice, the site's default.
 */
export function notCounted(): boolean {
  try {
    return storage()?.getItem(NOT_COUNTED_KEY) === NOT_COUNTED;
  } catch {
    return false;
  }
}

/**
 * Keeps the visitor's choice on this device; true when it is kept. A storage that refuses (private
 * mode's quota, storage turned off) keeps nothing, and the page says so.
 */
export function chooseNotCounted(objects: boolean): boolean {
  const store = storage();
  if (store === null) return false;
  try {
    if (objects) store.setItem(NOT_COUNTED_KEY, NOT_COUNTED);
    else store.removeItem(NOT_COUNTED_KEY);
  } catch {
    return false;
  }
  window.dispatchEvent(new Event(CHANGED));
  return notCounted() === objects;
}

function subscribe(notify: () => void): () => void {
  const stored = (event: StorageEvent) => {
    if (event.key === NOT_COUNTED_KEY || event.key === null) notify();
  };
  window.addEventListener(CHANGED, notify);
  window.addEventListener('storage', stored);
  return () => {
    window.removeEventListener(CHANGED, notify);
    window.removeEventListener('storage', stored);
  };
}

/** The choice as a component reads it: false on the server and while the page hydrates. */
export function useNotCounted(): boolean {
  return useSyncExternalStore(subscribe, notCounted, () => false);
}
