import { useSyncExternalStore } from 'react';

/*
 * Whether this page needs the queue's code (docs/player.md, « The queue »): this browser keeps a
 * queue, or something asked to add to it. Nothing here reads the queue: the player, on every page,
 * carries no more than this, and the rest comes when first used.
 */

/** Where the queue is kept on the device: a JSON array of `{ slug, start? }`. */
export const QUEUE_KEY = 'collectif:file';

let asked = false;
const askedListeners = new Set<() => void>();

/** Something asked for the queue (a `queue-add`): its code loads, and stays for the page's life. */
export function wantQueue(): void {
  if (asked) return;
  asked = true;
  for (const notify of askedListeners) notify();
}

function storedQueue(): boolean {
  try {
    return typeof window !== 'undefined' && window.localStorage.getItem(QUEUE_KEY) !== null;
  } catch {
    return false;
  }
}

function subscribe(notify: () => void): () => void {
  askedListeners.add(notify);
  return () => {
    askedListeners.delete(notify);
  };
}

/**
 * Whether the queue's code is wanted: false on the server and while the page hydrates (the server's
 * HTML is the same for every visitor), and for a player that does not take the queue (`offered`).
 */
export function useQueueWanted(offered: boolean): boolean {
  const wanted = useSyncExternalStore(
    subscribe,
    () => asked || storedQueue(),
    () => false,
  );
  return offered && wanted;
}
