import { QUEUE_MAX } from '@collectif/shared';
import { isSlug } from '@collectif/shared/addresses';
import { sameEntry, type QueueEntry } from './select';
import { QUEUE_KEY } from './wanted';

/*
 * The queue kept on the device (docs/player.md, « The queue »), read as input: any part's script,
 * or the visitor, can write local storage. Checked as the followed residences are: a text no longer
 * than a full queue can be, a JSON array, each item a slug and a start in seconds, each once, the
 * first QUEUE_MAX; anything else is dropped. Never an address: a tampered queue can name nothing
 * but the radio's own episodes, which the player then asks the API for.
 */

/** The furthest start worth keeping: a day, longer than any replay. */
const START_MAX = 86_400;
/** Longest label a `queue-add` may carry into an announcement. */
export const LABEL_MAX = 120;
/** The longest stored text worth reading: QUEUE_MAX items of a 120-character slug and a start. */
const STORED_MAX = QUEUE_MAX * 160 + 2;

/** `value` as an item of the queue, or null when it is not one. */
export function entryOf(value: unknown): QueueEntry | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { slug, start } = value as { slug?: unknown; start?: unknown };
  if (typeof slug !== 'string' || !isSlug(slug)) return null;
  if (start === undefined) return { slug };
  if (typeof start !== 'number' || !Number.isFinite(start) || start < 0 || start > START_MAX) return null;
  return { slug, start: Math.floor(start) };
}

/** The items kept of a list: well formed, each once, the first `max`; anything else dropped. */
export function keptEntries(values: readonly unknown[], max = QUEUE_MAX): QueueEntry[] {
  const kept: QueueEntry[] = [];
  for (const value of values) {
    if (kept.length >= max) break;
    const entry = entryOf(value);
    if (entry !== null && !kept.some((item) => sameEntry(item, entry))) kept.push(entry);
  }
  return kept;
}

/** The stored text, checked; anything that is not a JSON array no longer than a full queue is none. */
export function readStoredQueue(text: string | null): QueueEntry[] {
  if (text === null || text.length > STORED_MAX) return [];
  try {
    const data: unknown = JSON.parse(text);
    return Array.isArray(data) ? keptEntries(data) : [];
  } catch {
    return [];
  }
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function loadQueue(): QueueEntry[] {
  return readStoredQueue(storage()?.getItem(QUEUE_KEY) ?? null);
}

/** Keeps `items`; an empty queue leaves no key, so that the next page loads none of the queue's code. */
export function saveQueue(items: readonly QueueEntry[]): void {
  const store = storage();
  if (store === null) return;
  try {
    if (items.length === 0) store.removeItem(QUEUE_KEY);
    else store.setItem(QUEUE_KEY, JSON.stringify(items));
  } catch {
    // A full or refused storage only loses the queue at the next reload.
  }
}

/**
 * A `queue-add`'s detail, checked (a partner page's script may send anything): its items as the
 * stored ones are (the first QUEUE_MAX requested, bad ones counted as refused) and its label, or a
 * French sentence when it is no request at all.
 */
export function readAddRequest(detail: unknown): { items: QueueEntry[]; asked: number; label?: string } | string {
  if (typeof detail !== 'object' || detail === null) return 'un objet est attendu dans « detail »';
  const { items, label } = detail as { items?: unknown; label?: unknown };
  if (!Array.isArray(items)) return '« items » doit être une liste d’épisodes';
  const kept = keptEntries(items.slice(0, QUEUE_MAX * 4), QUEUE_MAX * 4);
  const named =
    typeof label === 'string'
      ? label
          .replace(/\p{Cc}/gu, ' ')
          .trim()
          .slice(0, LABEL_MAX)
      : '';
  return { items: kept, asked: items.length, ...(named === '' ? {} : { label: named }) };
}
