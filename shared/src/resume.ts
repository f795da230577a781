import { useSyncExternalStore } from 'react';
import type { ReplaySource } from './types';

/**
 * Where a listener stopped in each replay (docs/episodes.md, « Resume »): kept in this browser's
 * local storage, no account. The player writes it while a replay plays; episode pages and cards
 * offer « Reprendre à 23:14 ». Nothing here ever starts playing by itself.
 */

const STORAGE_KEY = 'collectif:reprise';
/** Replays remembered at most (the oldest are forgotten first). */
export const RESUME_MAX_ENTRIES = 50;
/** Under this many seconds in, there is nothing to resume. */
export const RESUME_MIN_SECONDS = 10;
/** Within this many seconds of the end (a tenth of a short replay), the replay counts as heard and is forgotten. */
export const RESUME_END_MARGIN = 30;
const endMargin = (duration: number) => Math.min(RESUME_END_MARGIN, duration / 10);
const CHANGED = 'collectif:reprise-changed';

type Positions = Record<string, { at: number; position: number }>;

/** The key of a replay: its track when it has one, else its audio address. */
export function resumeKey(source: Pick<ReplaySource, 'trackUrn' | 'url'>): string {
  return source.trackUrn ?? source.url;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function read(): Positions {
  const text = storage()?.getItem(STORAGE_KEY) ?? null;
  if (text === null) return {};
  try {
    const data: unknown = JSON.parse(text);
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Positions) : {};
  } catch {
    return {};
  }
}

/** Remembers `position` in the replay `key` (or forgets it, at the start or near the end). */
export function rememberPosition(key: string, position: number, duration: number): void {
  const store = storage();
  if (store === null || key === '') return;
  const { [key]: before, ...others } = read();
  const heard = duration > 0 && position >= duration - endMargin(duration);
  const forget = !Number.isFinite(position) || position < RESUME_MIN_SECONDS || heard;
  if (forget && before === undefined) return;
  const positions: Positions = forget
    ? others
    : { ...others, [key]: { at: Date.now(), position: Math.floor(position) } };
  const kept = Object.entries(positions)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, RESUME_MAX_ENTRIES);
  try {
    store.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // A full or refused storage only loses the memory of positions.
    return;
  }
  window.dispatchEvent(new Event(CHANGED));
}

/** The remembered position in the replay `key`, in whole seconds, or null. */
export function rememberedPosition(key: string, duration = 0): number | null {
  const entry = read()[key];
  const position = entry?.position;
  if (typeof position !== 'number' || !Number.isFinite(position) || position < RESUME_MIN_SECONDS) return null;
  if (duration > 0 && position >= duration - endMargin(duration)) return null;
  return Math.floor(position);
}

function subscribe(notify: () => void): () => void {
  window.addEventListener(CHANGED, notify);
  window.addEventListener('storage', notify);
  return () => {
    window.removeEventListener(CHANGED, notify);
    window.removeEventListener('storage', notify);
  };
}

/**
 * The remembered position of a replay, for a page: null on the server and in the first browser
 * render (the page hydrates as the server wrote it), then the stored one, following changes.
 */
export function useRememberedPosition(source: Pick<ReplaySource, 'trackUrn' | 'url' | 'duration'> | undefined) {
  const key = source === undefined ? '' : resumeKey(source);
  const duration = source?.duration ?? 0;
  return useSyncExternalStore(
    subscribe,
    () => (key === '' ? null : rememberedPosition(key, duration)),
    () => null,
  );
}
