import { useSyncExternalStore } from 'react';

/*
 * Whether this browser keeps a list of residences it follows (docs/follow.md, « Weight »): its key,
 * how a change is told, and nothing that reads the list. Its own entry
 * (`@collectif/shared/follow/stored`), so that the player, which asks this on every page before it
 * loads what says a residence going on air, carries no more than this.
 */

/** Where the list is kept: a JSON array of residence ids. */
export const FOLLOW_KEY = 'collectif:suivi';
/** Told on `window` when this page changes the list (other tabs hear the `storage` event). */
export const FOLLOW_CHANGED = 'collectif:suivi-changed';

export function followStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** Calls `notify` when the list changes, in this page or in another tab. */
export function subscribeFollowed(notify: () => void): () => void {
  const stored = (event: StorageEvent) => {
    if (event.key === FOLLOW_KEY || event.key === null) notify();
  };
  window.addEventListener(FOLLOW_CHANGED, notify);
  window.addEventListener('storage', stored);
  return () => {
    window.removeEventListener(FOLLOW_CHANGED, notify);
    window.removeEventListener('storage', stored);
  };
}

const anyStored = () => (followStorage()?.getItem(FOLLOW_KEY) ?? null) !== null;
const serverNone = () => false;

/**
 * Whether this browser keeps a list at all, unread: false on the server and while the page
 * hydrates. A list tampered with into nothing still says true: what loads then reads it, and does
 * nothing.
 */
export function useFollowStored(): boolean {
  return useSyncExternalStore(subscribeFollowed, anyStored, serverNone);
}
