import {
  apiUrl,
  createAction,
  FIGURES_LIVE_BEACON_S,
  FIGURES_MILESTONES,
  type AppStore,
  type Beacon,
  type startAppListening,
} from '@collectif/shared';
import { notCounted } from '@collectif/shared/figures';
import { audioEnded, progressed, selectPlayer, type PlayerState, type ReplayEpisode } from '../player/playerSlice';

/*
 * The player's beacons for the audience figures (docs/player.md, « Figures »; docs/figures.md, « In
 * the browser »): the live while it really plays at its edge, a replay when it starts (with its
 * second) and when it reaches 25, 50, 75 and 100 % of its length. Nothing when this device chose
 * « Ne pas être compté ». Their code comes with the open bar (PlayerBar.tsx), never with a first visit.
 */

/** Where the beacons go (docs/figures.md, « For the parts »). */
export const BEACON_PATH = '/figures/beacon';
const LIVE_EVERY_MS = FIGURES_LIVE_BEACON_S * 1_000;
/** A move of the position larger than this between two readings is a seek, not listening. */
const HEARD_STEP_S = 5;
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const SLUG_MAX = 120;
const SECOND_MAX = 86_400;

/** Sends one beacon; the site's is navigator.sendBeacon, a test's records it. */
export type SendBeacon = (beacon: Beacon) => void;

/**
 * The smallest body the endpoint accepts, as text (sendBeacon's text/plain: no preflight, no custom
 * header), sent with the page's own beacon API. A browser without one sends nothing.
 */
export function sendBeacon(beacon: Beacon): void {
  if (typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return;
  try {
    navigator.sendBeacon(apiUrl(BEACON_PATH), JSON.stringify(beacon));
  } catch {
    // A refused beacon (a blocked address, a full queue) loses one count, never the sound.
  }
}

/** Plays counted as the partners' embeds' (docs/figures.md): set once by the embed's build. */
let fromEmbed = false;
export function countPlaysAsEmbed(): void {
  fromEmbed = true;
}

/** What the beacons of one player remember across the bar's mounts: once per replay chosen. */
interface Memory {
  /** The page's monotonic time of the last live beacon. */
  liveSentAt: number;
  replay: ReplayEpisode | null;
  /** The second the replay was asked to start from, as the state said when it was chosen. */
  from: number;
  started: boolean;
  reached: Set<number>;
}
const memories = new WeakMap<AppStore, Memory>();
function memoryOf(store: AppStore): Memory {
  let memory = memories.get(store);
  if (memory === undefined) {
    memory = { liveSentAt: Number.NEGATIVE_INFINITY, replay: null, from: 0, started: false, reached: new Set() };
    memories.set(store, memory);
  }
  return memory;
}

/** Really playing the live at its edge: not paused, not loading, not behind it (the timeline counts its own). */
export function playsLiveEdge(state: PlayerState): boolean {
  return state.mode === 'LIVE' && state.status === 'playing' && state.moment === null;
}

/** The episode a replay beacon names: its page's slug, when the page that chose it gave one. */
function episodeOf(replay: ReplayEpisode | null): string | null {
  const slug = replay?.slug;
  return slug !== undefined && slug.length <= SLUG_MAX && SLUG.test(slug) ? slug : null;
}

const percentOf = (state: PlayerState): number =>
  state.duration > 0 ? (Math.min(state.currentTime, state.duration) / state.duration) * 100 : 0;

/** Told by the bar when it mounts: the beacons look at what plays already (the bar may come after the sound). */
export const beaconsStarted = createAction('player/figures/beaconsStarted');

/**
 * Registers the beacons of `store`'s player; returns the undo. `send` is the page's beacon API
 * (tests pass their own); it is not called while this device chose « Ne pas être compté ».
 */
export function registerBeacons(
  startListening: typeof startAppListening,
  store: AppStore,
  send: SendBeacon = sendBeacon,
): () => void {
  const memory = memoryOf(store);
  const post = (beacon: Beacon) => {
    if (notCounted()) return;
    send(fromEmbed ? { ...beacon, embed: true } : beacon);
  };

  // The live: one beacon when the edge starts playing (unless one went less than the interval
  // ago), then one each interval while it plays on.
  const stopLive = startListening({
    predicate: (action, current, previous) =>
      beaconsStarted.match(action) || playsLiveEdge(selectPlayer(current)) !== playsLiveEdge(selectPlayer(previous)),
    effect: async (_action, listener) => {
      listener.cancelActiveListeners();
      for (;;) {
        if (!playsLiveEdge(selectPlayer(listener.getState()))) return;
        const wait = memory.liveSentAt + LIVE_EVERY_MS - performance.now();
        if (wait > 0) {
          await listener.delay(wait);
          continue;
        }
        memory.liveSentAt = performance.now();
        post({ kind: 'live' });
      }
    },
  });

  // A replay: started once it plays, at the second it plays from; each milestone once, when the
  // listening itself reaches it (a seek past one does not count it).
  const stopReplay = startListening({
    predicate: (action, current, previous) =>
      beaconsStarted.match(action) || selectPlayer(current) !== selectPlayer(previous),
    effect: (action, listener) => {
      const state = selectPlayer(listener.getState());
      if (state.mode !== 'REPLAY' || state.replay === null) return;
      if (memory.replay !== state.replay) {
        memory.replay = state.replay;
        // Its start (`?t=`) as chosen: the element's first readings may say 0 before it gets there.
        memory.from = Math.min(SECOND_MAX, Math.max(0, Math.floor(state.currentTime)));
        memory.started = false;
        memory.reached = new Set();
      }
      const episode = episodeOf(state.replay);
      if (episode === null) return;
      if (!memory.started) {
        if (state.status !== 'playing') return;
        memory.started = true;
        post({ kind: 'replay', episode, second: memory.from });
      }
      if (!progressed.match(action) && !audioEnded.match(action)) return;
      const before = selectPlayer(listener.getOriginalState());
      const step = state.currentTime - before.currentTime;
      if (before.replay !== state.replay || step < 0 || step > HEARD_STEP_S) return;
      const from = percentOf(before);
      const to = percentOf(state);
      for (const percent of FIGURES_MILESTONES) {
        if (from < percent && percent <= to && !memory.reached.has(percent)) {
          memory.reached.add(percent);
          post({ kind: 'progress', episode, percent });
        }
      }
    },
  });

  store.dispatch(beaconsStarted());
  return () => {
    stopLive({ cancelActive: true });
    stopReplay({ cancelActive: true });
  };
}
