import { useSyncExternalStore } from 'react';
import { followStorage } from './stored';

/** Where the choice is kept. */
export const PREVENIR_KEY = 'collectif:prevenir';

/*
 * « Me prévenir » (docs/follow.md, « Me prévenir »): for which followed residences this browser asked
 * for a push notification, and for what (a show starting, a new episode). Kept in local storage like
 * the list itself, checked when read, so that the page shows the choice the server was last told:
 * a JSON array of `{ id, live, replay }` under PREVENIR_KEY. Its own helper entry
 * (`@collectif/shared/follow/prevenir`): only « Me prévenir »'s own chunk and the player's announcer
 * read it.
 */

/** Told on `window` when this page changes the choice (other tabs hear the `storage` event). */
export const PREVENIR_CHANGED = 'collectif:prevenir-changed';
/** As many as can be followed: the server takes 1 to 50. */
export const PREVENIR_MAX = 50;
const ID_MAX = 60;
const ID = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;
/** The longest text worth reading: PREVENIR_MAX entries of the longest id, both choices true. */
const STORED_MAX = PREVENIR_MAX * (ID_MAX + 40) + 2;

/** One residence's choice: told when its show starts (`live`), when a new episode is out (`replay`). */
export interface PushChoice {
  id: string;
  live: boolean;
  replay: boolean;
}

const NONE: readonly PushChoice[] = Object.freeze([]);

/** The entries kept of a list: objects with a residence id and two booleans, one of them true, each id once, the first 50. */
export function keptChoices(values: Iterable<unknown>): PushChoice[] {
  const kept: PushChoice[] = [];
  for (const value of values) {
    if (kept.length >= PREVENIR_MAX) break;
    if (typeof value !== 'object' || value === null) continue;
    const { id, live, replay } = value as Record<string, unknown>;
    if (typeof id !== 'string' || id.length > ID_MAX || !ID.test(id)) continue;
    if (typeof live !== 'boolean' || typeof replay !== 'boolean' || (!live && !replay)) continue;
    if (kept.some((choice) => choice.id === id)) continue;
    kept.push({ id, live, replay });
  }
  return kept;
}

/** The stored choice, checked: anything but a JSON array of a bounded length is no choice. */
export function readStoredChoices(text: string | null): PushChoice[] {
  if (text === null || text.length > STORED_MAX) return [];
  try {
    const data: unknown = JSON.parse(text);
    return Array.isArray(data) ? keptChoices(data) : [];
  } catch {
    return [];
  }
}

let read: { text: string | null; choices: readonly PushChoice[] } = { text: null, choices: NONE };

/** The choice kept in this browser; none on the server. */
export function pushChoices(): readonly PushChoice[] {
  const text = followStorage()?.getItem(PREVENIR_KEY) ?? null;
  if (text !== read.text) read = { text, choices: Object.freeze(readStoredChoices(text)) };
  return read.choices;
}

/** Keeps `choices` (checked); false when the browser's storage refuses. */
export function setPushChoices(choices: readonly PushChoice[]): boolean {
  const store = followStorage();
  if (store === null) return false;
  const kept = keptChoices(choices);
  try {
    if (kept.length === 0) store.removeItem(PREVENIR_KEY);
    else store.setItem(PREVENIR_KEY, JSON.stringify(kept));
  } catch {
    return false;
  }
  window.dispatchEvent(new Event(PREVENIR_CHANGED));
  return true;
}

function subscribeChoices(notify: () => void): () => void {
  const stored = (event: StorageEvent) => {
    if (event.key === PREVENIR_KEY || event.key === null) notify();
  };
  window.addEventListener(PREVENIR_CHANGED, notify);
  window.addEventListener('storage', stored);
  return () => {
    window.removeEventListener(PREVENIR_CHANGED, notify);
    window.removeEventListener('storage', stored);
  };
}

const serverChoices = () => NONE;
/** The choice, for a component: none on the server and while the page hydrates, then this browser's. */
export function usePushChoices(): readonly PushChoice[] {
  return useSyncExternalStore(subscribeChoices, pushChoices, serverChoices);
}
