// The player itself, fetched on the first intent to play (docs/embed.md, « The partner script »):
// the site's player with its store, reconnection and Media Session, on Preact's React layer.
import { emit, on, type ReplayRequest } from '@collectif/shared';
import { mountPlayer } from './mount';
import type { MountOptions } from './options';

/** How long the bar drawn before the player may stay once the player is mounted, at most. */
const SWAP_TIMEOUT_MS = 1_500;

export interface StartedPlayer {
  /** Plays an episode, or the live stream for null: the same requests a partner page sends. */
  play(request: ReplayRequest | null): void;
  unmount(): void;
}

/**
 * Mounts the player beside the bar drawn before it, hidden until it has opened on what was asked,
 * then calls `shown` (which removes the bar drawn before): the visitor sees one bar throughout.
 */
export function startPlayer(element: HTMLElement, options: MountOptions, shown: () => void): StartedPlayer {
  const mounted = mountPlayer(element, options);
  const hidden = mounted.container;
  hidden.hidden = true;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let revealed = false;
  const reveal = () => {
    if (revealed) return;
    revealed = true;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    hidden.hidden = false;
    shown();
  };
  // The request waits for the player to be connected (its first `player-state`), then for the end
  // of that task: a view mounted twice in a row (React's StrictMode in development) hears it on its
  // last connection. Before that it would be held until heard (the event contract's
  // `heldUntilHeard`) by a connection about to be undone.
  let connected = false;
  let ready = false;
  let pending: (() => void) | null = null;
  const off = on('player-state', (state) => {
    if (!connected) {
      connected = true;
      setTimeout(() => {
        ready = true;
        pending?.();
        pending = null;
      }, 0);
    }
    if (state.open) queueMicrotask(reveal);
  });
  timer = setTimeout(reveal, SWAP_TIMEOUT_MS);
  return {
    play(request) {
      const send = () => {
        if (request === null) emit('live-selected', {});
        else emit('replay-selected', request);
      };
      if (ready) send();
      else pending = send;
    },
    unmount() {
      if (timer !== null) clearTimeout(timer);
      pending = null;
      off();
      mounted.unmount();
    },
  };
}
