import {
  api,
  emit,
  QUEUE_MAX,
  startAppListening,
  type AppDispatch,
  type AppStore,
  type EpisodeDetail,
  type ReplayRequest,
} from '@collectif/shared';
import { rememberedPosition, resumeKey } from '@collectif/shared/resume';
import {
  audioEnded,
  playRequested as playerPlayRequested,
  replaySelected,
  selectPlayer,
  sliderMoved,
  wantsSound,
  type StateWithPlayer,
} from '../player/playerSlice';
import {
  added,
  episodes,
  injectedQueue,
  noted,
  playRequested,
  previousRequested,
  restored,
  returned,
  taken,
  wentBack,
  type QueueState,
} from './queueSlice';
import { entryKey, type QueueEntry } from './select';
import { loadQueue, readAddRequest, saveQueue } from './storage';
import { QUEUE_KEY } from './wanted';

/*
 * What the queue does (docs/player.md, « The queue »): it reads the device's queue when its code
 * loads, keeps it there after each change, says it to the page (`queue-state`), plays the next item
 * at the end of a replay and on the system's `nexttrack`, goes back on `previoustrack`, and takes
 * the `queue-add` requests. Loaded when first used (wanted.ts).
 */

/** Within this many seconds of a replay's start, `previoustrack` goes to the replay before. */
export const PREVIOUS_GRACE_S = 5;

interface StateWithQueue extends StateWithPlayer {
  queue?: QueueState;
}

export const { selectQueue, selectNote } = injectedQueue.getSelectors((state: StateWithQueue) => state.queue);

/** A `queue-add` to take: the detail as the event carried it, checked by the listener. */
const addRequested = (detail: unknown) => ({ type: 'queue/addRequested', payload: detail });
const isAddRequest = (action: { type: string }): action is ReturnType<typeof addRequested> =>
  action.type === 'queue/addRequested';

/** « Artiste — Émission », as the queue names an episode. */
export function episodeName(episode: Pick<EpisodeDetail, 'artist' | 'show'>): string {
  return [episode.artist, episode.show].filter((part) => part.trim() !== '').join(' — ');
}

/**
 * What `replay-selected` would carry for an item: the episode the API gave, from the item's start,
 * else from where this browser left it (docs/episodes.md, « Resume »).
 */
export function replayOf(episode: EpisodeDetail, entry: QueueEntry): ReplayRequest {
  const { trackUrn, url, duration, artist, show, cover, slug } = episode;
  const start = entry.start ?? rememberedPosition(resumeKey(episode), duration) ?? undefined;
  return {
    ...(trackUrn === undefined ? {} : { trackUrn }),
    url,
    duration,
    artist,
    show,
    cover,
    slug,
    ...(start === undefined ? {} : { start }),
  };
}

type Resolved = { episode: EpisodeDetail } | 'gone' | 'failed';

/** The item's episode through the API (`GET /api/episodes/:slug`, RTK Query's cache first). */
async function resolve(dispatch: AppDispatch, slug: string): Promise<Resolved> {
  const result = await dispatch(api.endpoints.episode.initiate(slug, { subscribe: false }));
  if (result.data !== undefined) return { episode: result.data };
  const error = result.error as { status?: unknown } | undefined;
  return error?.status === 404 ? 'gone' : 'failed';
}

const GONE = (slug: string) => `L’épisode « ${slug} » n’est plus dans les archives : retiré de la file.`;
const FAILED = 'La file d’écoute ne peut pas lire l’épisode suivant pour le moment. Réessayez dans quelques instants.';

/** The replay that plays, as an item of the queue, when it has a page. */
function currentEntry(state: StateWithQueue): QueueEntry | undefined {
  const player = selectPlayer(state);
  const slug = player.mode === 'REPLAY' ? player.replay?.slug : undefined;
  return slug === undefined ? undefined : { slug };
}

/**
 * Nothing plays: the player closed, paused, or a replay heard to its end (no sound wanted). A
 * `queue-add` then plays its first item.
 */
export function quiet(state: StateWithQueue): boolean {
  const player = selectPlayer(state);
  return !player.open || !wantsSound(player);
}

type MediaHandlers = { next: boolean; previous: boolean };

function setAction(action: MediaSessionAction, handler: MediaSessionActionHandler | null): void {
  try {
    navigator.mediaSession.setActionHandler(action, handler);
  } catch {
    // A browser that does not know the action throws; the others still work.
  }
}

/**
 * The system's `nexttrack` while the queue has an item, `previoustrack` in a replay (docs/player.md,
 * « The queue »). The player's own media session sync leaves these two to the queue.
 */
function syncMediaHandlers(state: StateWithQueue, dispatch: AppDispatch, last: MediaHandlers): MediaHandlers {
  if (typeof navigator === 'undefined' || !('mediaSession' in navigator)) return last;
  const next = selectQueue(state).items.length > 0;
  const previous = selectPlayer(state).mode === 'REPLAY';
  if (next !== last.next) setAction('nexttrack', next ? () => dispatch(playRequested(0)) : null);
  if (previous !== last.previous) setAction('previoustrack', previous ? () => dispatch(previousRequested()) : null);
  return { next, previous };
}

const started = new WeakMap<AppStore, () => void>();

/**
 * Starts the queue of `store`'s player, once: its listeners, the device's queue read, the first
 * `queue-state`. Returns the undo (for tests and the embed's unmount).
 */
export function startQueue(store: AppStore): () => void {
  const known = started.get(store);
  if (known !== undefined) return known;
  const undo: (() => void)[] = [];
  const listen: typeof startAppListening = ((options: Parameters<typeof startAppListening>[0]) => {
    const unsubscribe = startAppListening(options);
    undo.push(() => {
      unsubscribe({ cancelActive: true });
    });
    return unsubscribe;
  }) as typeof startAppListening;
  // Only this store's actions: a test's other stores, or the partner's player, are not this queue.
  const mine = (state: unknown) => state === store.getState();

  let handlers: MediaHandlers = { next: false, previous: false };

  // Kept on the device and told to the page after every change of the items.
  listen({
    predicate: (_action, current, previous) =>
      mine(current) && selectQueue(current as StateWithQueue).items !== selectQueue(previous as StateWithQueue).items,
    effect: (_action, listener) => {
      const { items } = selectQueue(listener.getState());
      saveQueue(items);
      emit('queue-state', { items: items.map((entry) => ({ ...entry })) });
    },
  });

  listen({
    predicate: (_action, current, previous) =>
      mine(current) &&
      (selectQueue(current as StateWithQueue).items.length > 0 !==
        selectQueue(previous as StateWithQueue).items.length > 0 ||
        selectPlayer(current as StateWithQueue).mode !== selectPlayer(previous as StateWithQueue).mode),
    effect: (_action, listener) => {
      handlers = syncMediaHandlers(listener.getState(), listener.dispatch, handlers);
    },
  });

  // At the end of a replay, the next item.
  listen({
    actionCreator: audioEnded,
    effect: (_action, listener) => {
      const state = listener.getState() as StateWithQueue;
      if (!mine(state) || selectPlayer(state).mode !== 'REPLAY') return;
      if (selectQueue(state).items.length > 0) listener.dispatch(playRequested(0));
    },
  });

  // An item played: it leaves the queue, its episode is read, and it plays. One no longer in the
  // archives is dropped with a word and the next one is tried; a failure of the API leaves it first.
  listen({
    actionCreator: playRequested,
    effect: async (action, listener) => {
      const state = listener.getState() as StateWithQueue;
      if (!mine(state)) return;
      listener.cancelActiveListeners();
      let index = action.payload;
      let current = currentEntry(state);
      for (let tries = 0; tries < QUEUE_MAX; tries += 1) {
        const entry = selectQueue(listener.getState()).items[index];
        if (entry === undefined) return;
        listener.dispatch(taken({ index, ...(current === undefined ? {} : { current }) }));
        current = undefined;
        const resolved = await listener.pause(resolve(listener.dispatch, entry.slug));
        if (typeof resolved === 'object') {
          listener.dispatch(replaySelected(replayOf(resolved.episode, entry)));
          return;
        }
        if (resolved === 'failed') {
          listener.dispatch(returned(entry));
          listener.dispatch(noted(FAILED));
          return;
        }
        listener.dispatch(noted(GONE(entry.slug)));
        index = 0;
      }
    },
  });

  // `previoustrack`: the replay before when this one has just started, else this one from its start.
  listen({
    actionCreator: previousRequested,
    effect: async (_action, listener) => {
      const state = listener.getState() as StateWithQueue;
      if (!mine(state)) return;
      const player = selectPlayer(state);
      const before = selectQueue(state).previous.at(-1);
      if (player.mode !== 'REPLAY') return;
      if (before === undefined || player.currentTime > PREVIOUS_GRACE_S) {
        listener.dispatch(sliderMoved(0));
        if (!wantsSound(player)) listener.dispatch(playerPlayRequested());
        return;
      }
      listener.cancelActiveListeners();
      const current = currentEntry(state);
      listener.dispatch(wentBack(current === undefined ? {} : { current }));
      const resolved = await listener.pause(resolve(listener.dispatch, before.slug));
      if (typeof resolved === 'object') listener.dispatch(replaySelected(replayOf(resolved.episode, before)));
      else listener.dispatch(noted(resolved === 'gone' ? GONE(before.slug) : FAILED));
    },
  });

  // A `queue-add`: what fits is added, said, and played when there was nothing to hear.
  listen({
    predicate: (action, current) => isAddRequest(action) && mine(current),
    effect: async (action, listener) => {
      if (!isAddRequest(action)) return;
      const read = readAddRequest(action.payload);
      if (typeof read === 'string') {
        console.error(`Lecteur : ajout à la file ignoré, ${read}.`);
        return;
      }
      const state = listener.getState() as StateWithQueue;
      const before = selectQueue(state).items;
      const wasQuiet = quiet(state);
      listener.dispatch(added(read.items));
      const after = selectQueue(listener.getState()).items;
      const count = after.length - before.length;
      const full = after.length >= QUEUE_MAX && count < read.items.length;
      if (full) {
        listener.dispatch(
          noted(
            `La file est pleine (${String(QUEUE_MAX)}) : ${episodes(count)} ajouté${count > 1 ? 's' : ''} sur ${String(read.asked)}.`,
          ),
        );
      } else if (count === 0) {
        listener.dispatch(noted(read.asked === 0 ? 'Aucun épisode à ajouter.' : 'Déjà dans la file.'));
      } else if (count === 1 && read.asked === 1) {
        const entry = after.at(-1);
        if (entry === undefined) return;
        const resolved = await listener.pause(resolve(listener.dispatch, entry.slug));
        if (resolved === 'gone') {
          const index = selectQueue(listener.getState()).items.findIndex((item) => entryKey(item) === entryKey(entry));
          if (index >= 0) listener.dispatch(taken({ index }));
          listener.dispatch(noted(`Cet épisode n’est plus dans les archives : il n’est pas ajouté à la file.`));
          return;
        }
        listener.dispatch(
          noted(
            typeof resolved === 'object' ? `Ajouté à la file : ${episodeName(resolved.episode)}.` : 'Ajouté à la file.',
          ),
        );
      } else {
        listener.dispatch(
          noted(`${episodes(count)} ajoutés à la file${read.label === undefined ? '' : ` : ${read.label}`}.`),
        );
      }
      if (wasQuiet && count > 0 && quiet(listener.getState())) {
        listener.dispatch(playRequested(before.length));
      }
    },
  });

  store.dispatch(restored(loadQueue()));
  // Another tab's change (the same browser's queue): read again, checked as at the start.
  const onStorage = (event: StorageEvent) => {
    if (event.key === QUEUE_KEY || event.key === null) store.dispatch(restored(loadQueue()));
  };
  window.addEventListener('storage', onStorage);
  undo.push(() => {
    window.removeEventListener('storage', onStorage);
  });
  emit('queue-state', { items: selectQueue(store.getState() as StateWithQueue).items.map((entry) => ({ ...entry })) });
  handlers = syncMediaHandlers(store.getState(), store.dispatch, handlers);

  const stop = () => {
    if (started.get(store) !== stop) return;
    started.delete(store);
    for (const step of undo) step();
  };
  started.set(store, stop);
  return stop;
}

/** Takes a `queue-add` for `store`'s player, its queue started first. */
export function addToQueue(store: AppStore, detail: unknown): void {
  startQueue(store);
  store.dispatch(addRequested(detail));
}
