import {
  createAction,
  createSlice,
  type PayloadAction,
  rootReducer,
  type NowPlaying,
  type PlayerSnapshot,
  type ReplayRequest,
  type RootState,
} from '@collectif/shared';
import { resolveImageUrl } from './config';
import { DEFAULT_COVER } from '@collectif/shared/tokens';
import { resumeKey } from '@collectif/shared/resume';

export type PlayerMode = 'LIVE' | 'REPLAY';

/** A chosen replay as the player keeps it: what `replay-selected` carried but where to start. */
export type ReplayEpisode = Omit<ReplayRequest, 'start'>;

/** Whether the chat widget could be reached; the panel shows a French fallback when it could not. */
export type ChatStatus = 'loading' | 'ready' | 'failed';

/**
 * Where the sound stands (docs/player.md, « Status »). Every value but 'idle' means the visitor
 * wants to hear something.
 * - idle: no sound wanted (never started, paused, closed, a replay heard to the end, a failure
 *   that waits for Lecture);
 * - loading: sound asked for, the element has not started yet;
 * - ready: the element can play (canplay) but has not started;
 * - playing: the element plays;
 * - reconnecting: the live stream was lost while listened to and is being rejoined.
 */
export type PlaybackStatus = 'idle' | 'loading' | 'ready' | 'playing' | 'reconnecting';

/**
 * The hours of the live the site keeps, as the player last learned them (docs/player.md, « The
 * timeline »): instants in Unix ms. The edge moves on by itself: `edge` is where it was at `seen`
 * (the page's `performance.now()`), and it is that plus the time gone by since.
 */
export interface LiveWindow {
  start: number;
  edge: number;
  seen: number;
  /** The closest to the edge the timeline plays, in ms (three segments): nearer is « Direct ». */
  closest: number;
}

/** What the radio played, from when (GET /api/timeshift). */
export interface PlayedRow {
  at: number;
  artist: string;
  title: string;
}

/** What the player cannot compute; everything else (lines, cover, slider, remaining time) is a selector. */
export interface PlayerState {
  mode: PlayerMode;
  open: boolean;
  status: PlaybackStatus;
  chatOpen: boolean;
  chatStatus: ChatStatus;
  /** Seconds, learned from the replay then from the audio element; 0 in live mode. */
  duration: number;
  currentTime: number;
  /** The thumb's position (0 to 100) while the visitor holds the slider, else null: it then follows the time. */
  held: number | null;
  /** A polite French sentence shown in the player, or null. */
  message: string | null;
  /**
   * The replay being played, so that reopening can reload it if it never loaded; with its page's
   * slug when the page that chose it named one (its tracklist, tracklist.ts).
   */
  replay: ReplayEpisode | null;
  /** Last now-playing of the live stream, shown again when coming back to live. */
  live: NowPlaying | null;
  /** Consecutive failed attempts to rejoin the live stream; 0 once it plays. */
  reconnectAttempt: number;
  /**
   * Live, behind the edge: the instant heard (Unix ms), the element's position mapped through the
   * segments' program date-time; null at the edge (the MP3 stream).
   */
  moment: number | null;
  /** The hours kept, once the timeline has read them; null before, or with no timeline. */
  window: LiveWindow | null;
  /** What played in the window, oldest first. */
  played: PlayedRow[];
}

export const UNKNOWN = 'Inconnu';
export const SLIDER_MIN = 0;
export const SLIDER_MAX = 100;

/** The player's sentences (docs/player.md, « Messages »). */
export const MESSAGES = {
  streamUnavailable: 'Cette émission ne peut pas être lue pour le moment. Réessayez dans quelques instants.',
  audioError: 'La lecture s’est interrompue. Réessayez dans quelques instants.',
  reconnecting: 'Connexion au direct perdue, reconnexion ...',
  pressPlay: 'Appuyez sur Lecture pour lancer l’écoute.',
  timelineFailed: 'L’écoute en différé s’est interrompue : retour au direct.',
} as const;

export const initialPlayerState: PlayerState = {
  mode: 'LIVE',
  open: false,
  status: 'idle',
  chatOpen: false,
  chatStatus: 'loading',
  duration: 0,
  currentTime: 0,
  held: null,
  message: null,
  replay: null,
  live: null,
  reconnectAttempt: 0,
  moment: null,
  window: null,
  played: [],
};

export function clampSlider(value: number): number {
  if (!Number.isFinite(value)) return SLIDER_MIN;
  return Math.min(SLIDER_MAX, Math.max(SLIDER_MIN, value));
}

function orUnknown(value: string | undefined): string {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? UNKNOWN : trimmed;
}

/* Readings of the player's own state, shared by the reducers, the listeners and the selectors. */

/** The visitor wants sound: the main button offers Pause, a dropped live stream is rejoined. */
export function wantsSound(state: PlayerState): boolean {
  return state.status !== 'idle';
}

/** « chargement ... » is shown, and the public snapshot says `loading`. */
export function isLoading(state: PlayerState): boolean {
  return state.status === 'loading' || state.status === 'reconnecting';
}

/** The slider's position, 0 to 100: where the visitor holds it, else the elapsed share of the replay. */
export function sliderOf(state: PlayerState): number {
  if (state.held !== null) return state.held;
  return state.duration > 0 ? clampSlider((state.currentTime / state.duration) * 100) : 0;
}

export function remainingOf(state: PlayerState): number {
  return Math.max(0, state.duration - state.currentTime);
}

/** Behind the edge, what played at the moment heard: the last row at or before it. */
export function heardOf(state: PlayerState): PlayedRow | undefined {
  const { moment } = state;
  return moment === null ? undefined : state.played.findLast((row) => row.at <= moment);
}

/** The names live: what plays at the edge (now-playing), what played at the moment heard behind it. */
function liveNames(state: PlayerState): { artist?: string; title?: string } | null | undefined {
  return state.moment === null ? state.live : heardOf(state);
}

export function artistOf(state: PlayerState): string {
  return orUnknown(state.mode === 'REPLAY' ? state.replay?.artist : liveNames(state)?.artist);
}

export function showOf(state: PlayerState): string {
  return orUnknown(state.mode === 'REPLAY' ? state.replay?.show : liveNames(state)?.title);
}

/** Seconds behind the live edge (0 at it). */
export function behindOf(state: PlayerState): number {
  const { moment, window } = state;
  return moment === null || window === null ? 0 : Math.max(0, (window.edge - moment) / 1000);
}

/** The cover to show, as an absolute address: what plays, else the default cover. */
export function coverOf(state: PlayerState): string {
  // A past track's cover is not known: behind the edge, the default one.
  const own = state.mode === 'REPLAY' ? state.replay?.cover : state.moment === null ? state.live?.cover : undefined;
  return resolveImageUrl(own) ?? resolveImageUrl(DEFAULT_COVER) ?? DEFAULT_COVER;
}

export function snapshotOf(state: PlayerState): PlayerSnapshot {
  const live = state.mode === 'LIVE';
  return {
    mode: state.mode,
    open: state.open,
    playing: state.status === 'playing',
    loading: isLoading(state),
    artist: artistOf(state),
    show: showOf(state),
    currentTime: live ? 0 : state.currentTime,
    duration: live ? 0 : state.duration,
    ...(live || state.replay === null ? {} : { source: resumeKey(state.replay) }),
  };
}

function setTime(state: PlayerState, currentTime: number): void {
  const duration = state.duration;
  state.currentTime = Math.min(
    Math.max(0, Number.isFinite(currentTime) ? currentTime : 0),
    duration > 0 ? duration : Infinity,
  );
}

/** A replay heard to the end starts again from 0 when the visitor asks for it again. */
function rewindIfEnded(state: PlayerState): void {
  if (state.mode === 'REPLAY' && sliderOf(state) >= SLIDER_MAX) {
    state.held = null;
    setTime(state, 0);
  }
}

/** hls.js plays a live playlist this many segments from its end (`liveSyncDurationCount`). */
export const EDGE_SEGMENTS = 3;
/** Three segments of the default 10 s. */
const DEFAULT_CLOSEST_MS = EDGE_SEGMENTS * 10_000;

/** Where the edge is at `seen`: where it was, and the time gone by since. */
export function edgeAt(window: LiveWindow, seen: number): number {
  return window.edge + (seen - window.seen);
}

/** A request this close to the edge, or past it, is the edge. */
const AT_EDGE_MS = 1_000;

function startLoading(state: PlayerState): void {
  state.status = 'loading';
  state.message = null;
}

/**
 * The player's state machine (docs/player.md). Actions are the events that happened; the listeners
 * in `listeners.ts` do the audio, network and system work that follows.
 */
export const playerSlice = createSlice({
  name: 'player',
  initialState: initialPlayerState,
  reducers: {
    /** A past show was chosen somewhere on the page (the `replay-selected` event). */
    replaySelected(state, action: PayloadAction<ReplayRequest>) {
      const { start, ...source } = action.payload;
      state.mode = 'REPLAY';
      state.replay = source;
      state.duration = Number.isFinite(source.duration) && source.duration > 0 ? source.duration : 0;
      state.held = null;
      // A start outside the episode is no start (docs/episodes.md, « Start time »).
      const within = start !== undefined && start > 0 && (state.duration === 0 || start < state.duration);
      setTime(state, within ? start : 0);
      state.chatOpen = false;
      state.open = true;
      state.reconnectAttempt = 0;
      // What played before is silenced until the replay's stream starts (listeners.ts).
      startLoading(state);
    },
    /** The 'direct' button, or the `live-selected` event: the live at its edge. */
    liveRequested(state) {
      state.mode = 'LIVE';
      state.moment = null;
      state.open = true;
      state.held = null;
      state.duration = 0;
      setTime(state, 0);
      state.reconnectAttempt = 0;
      startLoading(state);
    },
    /** A click on the player: opens and plays, or closes and pauses; ignored while the slider is held. */
    toggled(state) {
      if (state.held !== null) return;
      if (state.open) {
        state.open = false;
        state.chatOpen = false;
        state.status = 'idle';
        state.message = null;
        return;
      }
      state.open = true;
      state.reconnectAttempt = 0;
      rewindIfEnded(state);
      startLoading(state);
    },
    playRequested(state) {
      state.open = true;
      state.reconnectAttempt = 0;
      rewindIfEnded(state);
      startLoading(state);
    },
    pauseRequested(state) {
      state.status = 'idle';
      state.message = null;
    },
    chatToggled(state) {
      state.chatOpen = !state.chatOpen;
      state.chatStatus = 'loading';
    },
    chatReached(state) {
      if (state.chatOpen) state.chatStatus = 'ready';
    },
    chatUnreachable(state) {
      if (state.chatOpen) state.chatStatus = 'failed';
    },
    nowPlayingReceived(state, action: PayloadAction<NowPlaying>) {
      state.live = {
        artist: orUnknown(action.payload.artist),
        title: orUnknown(action.payload.title),
        ...(action.payload.cover === undefined || action.payload.cover === '' ? {} : { cover: action.payload.cover }),
      };
    },
    sliderGrabbed(state) {
      if (state.mode === 'REPLAY') state.held = sliderOf(state);
    },
    /** Drag, click or keys on the slider: the position follows at once, the audio seeks. */
    sliderMoved(state, action: PayloadAction<number>) {
      if (state.mode !== 'REPLAY') return;
      const value = clampSlider(action.payload);
      if (state.held !== null) state.held = value;
      state.currentTime = (value / 100) * state.duration;
    },
    /** The thumb is let go where it was held: the time jumps there, and the audio seeks (listeners.ts). */
    sliderReleased(state) {
      if (state.held === null) return;
      state.currentTime = (state.held / 100) * state.duration;
      state.held = null;
    },
    /**
     * The progress tick (every 100 ms while playing) and the audio element's time events; behind
     * the live edge, with the instant heard and when (`performance.now()`).
     */
    progressed(
      state,
      action: PayloadAction<{ currentTime: number; duration: number; moment?: number | null; seen?: number }>,
    ) {
      const { currentTime, duration, moment, seen } = action.payload;
      if (state.mode === 'LIVE') {
        if (state.moment === null || typeof moment !== 'number' || seen === undefined) return;
        state.moment = moment;
        if (state.window !== null) {
          state.window.edge = edgeAt(state.window, seen);
          state.window.seen = seen;
        }
        return;
      }
      if (Number.isFinite(duration) && duration > 0) state.duration = duration;
      setTime(state, currentTime);
    },
    audioPlaying(state) {
      // Sound the visitor hears is sound they want (a resume from the system controls, for instance).
      state.status = 'playing';
      state.reconnectAttempt = 0;
      // Why the live is back at its edge stays said until the visitor's next request.
      if (state.message !== MESSAGES.timelineFailed) state.message = null;
    },
    audioCanPlay(state) {
      if (isLoading(state)) state.status = 'ready';
    },
    /** The element paused: on request, or by the system (headphones unplugged, another app's sound). */
    audioPaused(state) {
      state.status = 'idle';
    },
    audioEnded(state) {
      if (state.mode === 'REPLAY') {
        state.status = 'idle';
        setTime(state, state.duration);
      } else if (wantsSound(state)) {
        // A live stream has no end: the server closed it, and it is rejoined (liveDropped follows).
        state.status = 'reconnecting';
      }
    },
    audioErrored(state) {
      // A live stream is rejoined (see liveDropped); a replay waits for the visitor to press Lecture.
      if (state.mode === 'REPLAY') {
        state.status = 'idle';
        state.message = MESSAGES.audioError;
      } else if (wantsSound(state)) {
        state.status = 'reconnecting';
      }
    },
    /** The live stream stalled, ended or failed while the visitor listens: a reconnection follows. */
    liveDropped(state) {
      state.reconnectAttempt += 1;
      state.status = 'reconnecting';
      state.message = MESSAGES.reconnecting;
    },
    /** The browser refused to start sound without a gesture (partner pages driven by script). */
    playRefused(state) {
      state.status = 'idle';
      state.message = MESSAGES.pressPlay;
    },
    /**
     * The hours kept, learned from the API, window.json or the playlist hls.js reloads (times in
     * Unix ms, `seen` the page's `performance.now()` then, played rows when the API sent them). The
     * edge is the furthest of this one and the last one moved on since: a late or cached answer
     * never moves it back.
     */
    windowLearned(
      state,
      action: PayloadAction<{ start: number; edge: number; seen: number; closest?: number; played?: PlayedRow[] }>,
    ) {
      const { start, edge, seen, closest, played } = action.payload;
      if (!(start < edge) || !Number.isFinite(seen)) return;
      const known = state.window;
      if (known === null) state.window = { start, edge, seen, closest: closest ?? DEFAULT_CLOSEST_MS };
      else {
        known.edge = Math.max(edge, edgeAt(known, seen));
        known.seen = seen;
        known.start = start;
        if (closest !== undefined) known.closest = closest;
      }
      if (played !== undefined) state.played = played;
    },
    /**
     * A move within the hours kept (« Reprendre au début », the timeline, its keys, the system's
     * controls), to an instant in Unix ms; `seen` is the page's `performance.now()`. Nearer the edge
     * than the timeline plays is the edge itself; leaving the edge goes at least that far back.
     */
    momentRequested: {
      reducer(state, action: PayloadAction<{ at: number; seen: number }>) {
        const { window } = state;
        const { at, seen } = action.payload;
        if (window === null || !Number.isFinite(at)) return;
        const edge = edgeAt(window, seen);
        const nearest = edge - window.closest;
        const toEdge = at >= edge - AT_EDGE_MS || (state.moment !== null && at > nearest);
        // Already at the edge, and asked for it: the stream plays on.
        if (toEdge && state.moment === null && state.mode === 'LIVE' && wantsSound(state)) return;
        state.mode = 'LIVE';
        state.open = true;
        state.held = null;
        state.duration = 0;
        state.currentTime = 0;
        state.reconnectAttempt = 0;
        state.moment = toEdge ? null : Math.max(window.start, Math.min(at, nearest));
        window.edge = edge;
        window.seen = seen;
        startLoading(state);
      },
      prepare: (at: number) => ({ payload: { at, seen: performance.now() } }),
    },
    /** The timeline's thumb, held at an instant (Unix ms) while dragged, or let go (null). */
    timelineHeld(state, action: PayloadAction<number | null>) {
      if (state.mode === 'LIVE') state.held = action.payload;
    },
    /** The timeline's stream failed for good: back to the live's edge, saying so. */
    timelineFailed(state) {
      state.moment = null;
      if (state.mode !== 'LIVE' || !wantsSound(state)) return;
      startLoading(state);
      state.message = MESSAGES.timelineFailed;
    },
    /** GET /api/track/{urn} failed or answered something unplayable. */
    streamUnavailable(state) {
      state.status = 'idle';
      state.message = MESSAGES.streamUnavailable;
    },
  },
  /* Each reads the player's own state; the root-state versions are exported below. */
  selectors: {
    selectPlayer: (state) => state,
    selectMode: (state) => state.mode,
    selectOpen: (state) => state.open,
    selectStatus: (state) => state.status,
    selectWantsSound: wantsSound,
    selectLoading: isLoading,
    selectPlaying: (state) => state.status === 'playing',
    selectArtist: artistOf,
    selectShow: showOf,
    selectCover: coverOf,
    selectCurrentTime: (state) => state.currentTime,
    selectDuration: (state) => state.duration,
    selectRemaining: remainingOf,
    selectSlider: sliderOf,
    selectDragging: (state) => state.held !== null,
    selectMessage: (state) => state.message,
    selectChatOpen: (state) => state.chatOpen,
    selectChatStatus: (state) => state.chatStatus,
    selectReconnectAttempt: (state) => state.reconnectAttempt,
    selectMoment: (state) => state.moment,
    selectBehind: behindOf,
    selectLiveWindow: (state) => state.window,
    selectHeld: (state) => state.held,
    /** A new object on each call: for listeners and tests, not for `useAppSelector`. */
    selectSnapshot: snapshotOf,
  },
});

/** The element waits for data (stalled or waiting); in live mode a watchdog decides whether to reconnect. */
export const audioStalled = createAction('player/audioStalled');

export const injectedPlayer = playerSlice.injectInto(rootReducer);

/**
 * The shared RootState cannot list this remote's slice (a remote loads later than shared is
 * compiled), so the selectors take the shared RootState with the player's state as optional, which
 * any RootState is: the injected slice reads its initial state until the reducer has run.
 */
export interface StateWithPlayer extends RootState {
  player?: PlayerState;
}

export const {
  selectPlayer,
  selectMode,
  selectOpen,
  selectStatus,
  selectWantsSound,
  selectLoading,
  selectPlaying,
  selectArtist,
  selectShow,
  selectCover,
  selectCurrentTime,
  selectDuration,
  selectRemaining,
  selectSlider,
  selectDragging,
  selectMessage,
  selectChatOpen,
  selectChatStatus,
  selectReconnectAttempt,
  selectMoment,
  selectBehind,
  selectLiveWindow,
  selectHeld,
  selectSnapshot,
} = injectedPlayer.getSelectors((state: StateWithPlayer) => state.player);

export const {
  replaySelected,
  liveRequested,
  toggled,
  playRequested,
  pauseRequested,
  chatToggled,
  chatReached,
  chatUnreachable,
  nowPlayingReceived,
  sliderGrabbed,
  sliderMoved,
  sliderReleased,
  progressed,
  audioPlaying,
  audioCanPlay,
  audioPaused,
  audioEnded,
  audioErrored,
  liveDropped,
  playRefused,
  streamUnavailable,
  windowLearned,
  momentRequested,
  timelineHeld,
  timelineFailed,
} = playerSlice.actions;
