import { createAction, createSlice, rootReducer, QUEUE_MAX, type PayloadAction } from '@collectif/shared';
import { sameEntry, type QueueEntry } from './select';

/** The queue (docs/player.md, « The queue »): what comes next, first first. */
export interface QueueState {
  items: QueueEntry[];
  /**
   * The replays the queue moved on from, the last one last (`previoustrack`): kept for the page's
   * life only, bounded like the queue.
   */
  previous: QueueEntry[];
  /** The last thing the queue did, said in a polite live region. */
  note: string | null;
}

const initialState: QueueState = { items: [], previous: [], note: null };

/** The French for a count of episodes. */
export function episodes(count: number): string {
  return `${String(count)} épisode${count > 1 ? 's' : ''}`;
}

export const queueSlice = createSlice({
  name: 'queue',
  initialState,
  reducers: {
    /** The queue kept on the device, read when the queue's code loads. */
    restored(state, action: PayloadAction<QueueEntry[]>) {
      state.items = action.payload.slice(0, QUEUE_MAX);
    },
    /**
     * Items put at the end, in order: one already in the queue is not added twice, and past
     * `QUEUE_MAX` what does not fit is left out. The note is the listener's (it may name the episode).
     */
    added(state, action: PayloadAction<QueueEntry[]>) {
      for (const entry of action.payload) {
        if (state.items.length >= QUEUE_MAX) break;
        if (!state.items.some((item) => sameEntry(item, entry))) state.items.push(entry);
      }
    },
    /** An item moved by `by` places (« Monter » -1, « Descendre » +1), within the queue. */
    moved(state, action: PayloadAction<{ index: number; by: number }>) {
      const { index, by } = action.payload;
      const to = Math.max(0, Math.min(state.items.length - 1, index + by));
      const [entry] = state.items.splice(index, 1);
      if (entry === undefined) return;
      state.items.splice(to, 0, entry);
      state.note = `Déplacé en position ${String(to + 1)} sur ${String(state.items.length)}.`;
    },
    removed(state, action: PayloadAction<number>) {
      if (state.items.splice(action.payload, 1).length > 0) state.note = 'Retiré de la file.';
    },
    cleared(state) {
      state.items = [];
      state.note = 'La file d’écoute est vide.';
    },
    /**
     * The item at `index` leaves the queue to be played; `current`, the replay it follows when it
     * has a page, is remembered for `previoustrack`.
     */
    taken(state, action: PayloadAction<{ index: number; current?: QueueEntry }>) {
      const { index, current } = action.payload;
      state.items.splice(index, 1);
      if (current !== undefined) state.previous = [...state.previous, current].slice(-QUEUE_MAX);
    },
    /**
     * Back to the replay before (`previoustrack`): it leaves `previous`, and `current` goes back to
     * the queue's head, the queue's last item left out when it is full.
     */
    wentBack(state, action: PayloadAction<{ current?: QueueEntry }>) {
      const { current } = action.payload;
      state.previous.pop();
      if (current === undefined || state.items.some((item) => sameEntry(item, current))) return;
      state.items.unshift(current);
      state.items.splice(QUEUE_MAX);
    },
    /** An item that could not be played now goes back to the queue's head. */
    returned(state, action: PayloadAction<QueueEntry>) {
      if (state.items.some((item) => sameEntry(item, action.payload))) return;
      state.items.unshift(action.payload);
      state.items.splice(QUEUE_MAX);
    },
    noted(state, action: PayloadAction<string>) {
      state.note = action.payload;
    },
  },
  selectors: {
    selectQueue: (state) => state,
    selectNote: (state) => state.note,
  },
});

export const injectedQueue = queueSlice.injectInto(rootReducer);

export const { restored, added, moved, removed, cleared, taken, wentBack, returned, noted } = queueSlice.actions;

/** Plays the queue's item at `index` now (the panel's « Écouter », `nexttrack`, the end of a replay). */
export const playRequested = createAction<number>('queue/playRequested');
/** `previoustrack`: back to the replay before, or to the start of this one. */
export const previousRequested = createAction('queue/previousRequested');
