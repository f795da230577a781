import {
  emit,
  legacyReplayNames,
  on,
  readWith,
  replaySelection,
  startAppListening,
  type AppStore,
  type ReplayRequest,
} from '@collectif/shared';
import { wantQueue } from '../queue/wanted';
import { queueOffered } from './config';
import { registerPlayerListeners } from './listeners';
import { liveRequested, replaySelected, selectSnapshot } from './playerSlice';
import { createPlayerRuntime, type PlayerRuntime } from './runtime';

/**
 * Checks a `replay-selected` payload. Parts of the site send typed values, but a partner page's
 * script may send anything: the answer is either the source or a French sentence naming the field.
 */
export function parseReplaySource(detail: unknown): ReplayRequest | string {
  const read = readWith(replaySelection, detail);
  return 'value' in read ? read.value : read.error;
}

/** The runtime of each player store: a store and its runtime live and go together. */
const runtimes = new WeakMap<AppStore, PlayerRuntime>();

/** The runtime that drives the audio of `store`'s player, made on first use. */
export function playerRuntime(store: AppStore): PlayerRuntime {
  let runtime = runtimes.get(store);
  if (runtime === undefined) {
    runtime = createPlayerRuntime();
    runtimes.set(store, runtime);
  }
  return runtime;
}

/**
 * Connects the mounted player to its store: its listeners, audio element events, the page's event
 * bus (the same events a partner page sends as DOM events) and the first public snapshot. Returns
 * the undo; the audio element stays (the page's), and goes on playing if the player mounts again.
 */
export function connectPlayer(store: AppStore): () => void {
  const runtime = playerRuntime(store);
  const stopListening = registerPlayerListeners(startAppListening, runtime);
  const detachAudio = runtime.audio.attach(store.dispatch);
  const offReplay = on('replay-selected', (detail) => {
    // A partner's page may still send the names of version 1: ignored since version 3, with a word.
    const legacy = legacyReplayNames(detail);
    if (legacy !== null) console.warn(legacy);
    const source = parseReplaySource(detail);
    if (typeof source === 'string') {
      console.error(`Lecteur : épisode ignoré, ${source}.`);
      return;
    }
    store.dispatch(replaySelected(source));
  });
  const offLive = on('live-selected', () => {
    store.dispatch(liveRequested());
  });
  // The queue's requests (docs/player.md, « The queue »), held for the player until it listens: its
  // code comes with the first one, and takes them in the order they came. A partner's player takes
  // none unless it asked (docs/embed.md).
  const offQueue = queueOffered()
    ? on('queue-add', (detail) => {
        wantQueue();
        import(/* webpackChunkName: "file" */ '../queue/engine').then(
          (queue) => {
            queue.addToQueue(store, detail);
          },
          (error: unknown) => {
            console.error('Lecteur : la file d’écoute ne peut pas être chargée', error);
          },
        );
      })
    : () => undefined;
  emit('player-state', selectSnapshot(store.getState()));
  return () => {
    offReplay();
    offLive();
    offQueue();
    detachAudio();
    stopListening();
  };
}

/** Stops the player of `store` and removes the page's audio element (the embed's unmount). */
export function disposePlayer(store: AppStore): void {
  runtimes.get(store)?.audio.dispose();
  runtimes.delete(store);
}
