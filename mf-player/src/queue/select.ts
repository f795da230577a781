import type { QueueItemRequest, RootState } from '@collectif/shared';

/** One item of the queue: an episode page's slug, and where to start it when a time was chosen. */
export type QueueEntry = QueueItemRequest;

const NONE: readonly QueueEntry[] = [];

/**
 * The queue's items, what comes next first; none before the queue's code has loaded (its slice is
 * injected then, queueSlice.ts). Here so that the bar reads them without carrying that code.
 */
export function selectQueueItems(state: RootState): readonly QueueEntry[] {
  return (state as { queue?: { items: readonly QueueEntry[] } }).queue?.items ?? NONE;
}

/** The same item: the same episode from the same start. */
export function sameEntry(a: QueueEntry, b: QueueEntry): boolean {
  return a.slug === b.slug && a.start === b.start;
}

/** A key for lists and focus: an item is in the queue at most once. */
export function entryKey(entry: QueueEntry): string {
  return entry.start === undefined ? entry.slug : `${entry.slug}@${String(entry.start)}`;
}
