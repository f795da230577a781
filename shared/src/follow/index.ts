import { useSyncExternalStore } from 'react';
import { FOLLOW_CHANGED, FOLLOW_KEY, followStorage, subscribeFollowed } from './stored';

/*
 * The residences a visitor follows (docs/follow.md): kept in this browser's local storage, no
 * account and no cookie; the server only ever sees their ids in the address of a personal calendar.
 * A helper (its own path, bundled into each part that uses it): the radio part's « Suivre » buttons
 * and « Mes résidences » write the list, the player reads it to say who goes on air. Parts in the same
 * page hear each other's changes through a DOM event, other tabs through the `storage` event
 * (`./stored`, the player's own entry: what it asks on every page).
 */

export { FOLLOW_KEY, subscribeFollowed, useFollowStored } from './stored';

/** Residences followed at most (the collective has 56): the list, a shared link and a calendar's address. */
export const FOLLOW_MAX = 50;
/** The query of « Mes résidences » that offers a list to follow (« Copier mon lien »): `?suivre=a,b`. */
export const FOLLOW_PARAM = 'suivre';
/** A residence's id, as the content's schema allows it (`SLUG`, 60 characters at most). */
const ID_MAX = 60;
const ID = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;
/** The longest text worth reading: FOLLOW_MAX ids of ID_MAX characters, quoted, with their commas. */
const STORED_MAX = FOLLOW_MAX * (ID_MAX + 3) + 2;
const PARAM_MAX = FOLLOW_MAX * (ID_MAX + 1);
const NONE: readonly string[] = Object.freeze([]);

/** Whether `value` is a well-formed residence id (nothing says the residence exists). */
export function isResidenceId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= ID_MAX && ID.test(value);
}

/** The ids kept of a list: well formed, each once, the first FOLLOW_MAX; anything else dropped. */
export function keptIds(values: Iterable<unknown>): string[] {
  const kept: string[] = [];
  for (const value of values) {
    if (kept.length >= FOLLOW_MAX) break;
    if (isResidenceId(value) && !kept.includes(value)) kept.push(value);
  }
  return kept;
}

/**
 * The stored list, checked: a JSON array of ids, trimmed to what `keptIds` keeps. Anything else (not
 * JSON, not an array, a text longer than a full list can be) is no list.
 */
export function readStoredIds(text: string | null): string[] {
  if (text === null || text.length > STORED_MAX) return [];
  try {
    const data: unknown = JSON.parse(text);
    return Array.isArray(data) ? keptIds(data) : [];
  } catch {
    return [];
  }
}

/** The ids of a shared link's `?suivre=a,b`, trimmed as the stored list is; what follows a full list is not read. */
export function readFollowParam(text: string | null): string[] {
  if (text === null) return [];
  return keptIds(
    text
      .slice(0, PARAM_MAX)
      .split(',')
      .map((id) => id.trim()),
  );
}

/** The query that carries a list (« Copier mon lien »): `suivre=a,b`. */
export const followSearch = (ids: readonly string[]): Record<string, string> => ({
  [FOLLOW_PARAM]: keptIds(ids).join(','),
});

/** The last text read and its list, so that the same text gives the same array (useSyncExternalStore). */
let read: { text: string | null; ids: readonly string[] } = { text: null, ids: NONE };

/** The residences followed in this browser, in the order they were followed; none on the server. */
export function followedIds(): readonly string[] {
  const text = followStorage()?.getItem(FOLLOW_KEY) ?? null;
  if (text !== read.text) read = { text, ids: Object.freeze(readStoredIds(text)) };
  return read.ids;
}

/** What a change of the list came to: done, refused by the browser's storage, or the list is full. */
export type FollowResult = 'done' | 'refused' | 'full';

/** Keeps `ids` (checked and trimmed) as the list, and tells the page. */
export function setFollowedIds(ids: readonly string[]): FollowResult {
  const store = followStorage();
  if (store === null) return 'refused';
  const kept = keptIds(ids);
  try {
    if (kept.length === 0) store.removeItem(FOLLOW_KEY);
    else store.setItem(FOLLOW_KEY, JSON.stringify(kept));
  } catch {
    // Storage full, or refused (some private modes): nothing is followed then.
    return 'refused';
  }
  window.dispatchEvent(new Event(FOLLOW_CHANGED));
  return 'done';
}

/** Follows `id` (last in the list); a full list takes no more. */
export function follow(id: string): FollowResult {
  const ids = followedIds();
  if (ids.includes(id)) return 'done';
  if (ids.length >= FOLLOW_MAX) return 'full';
  return setFollowedIds([...ids, id]);
}

/**
 * Follows `offered` too, after those already followed; all of them or none: a list that would pass
 * FOLLOW_MAX is refused whole, rather than followed in part without a word.
 */
export function followAll(offered: readonly string[]): FollowResult {
  const ids = followedIds();
  const added = keptIds(offered).filter((id) => !ids.includes(id));
  if (added.length === 0) return 'done';
  if (ids.length + added.length > FOLLOW_MAX) return 'full';
  return setFollowedIds([...ids, ...added]);
}

export function unfollow(id: string): FollowResult {
  const ids = followedIds();
  return ids.includes(id) ? setFollowedIds(ids.filter((known) => known !== id)) : 'done';
}

const serverIds = () => NONE;
/**
 * The residences followed, for a component: none on the server and while the page hydrates (the
 * server's HTML is the same for every visitor), then this browser's, following every change.
 */
export function useFollowedIds(): readonly string[] {
  return useSyncExternalStore(subscribeFollowed, followedIds, serverIds);
}
