import {
  createAction,
  createSlice,
  type PayloadAction,
  type WithSlice,
  rootReducer,
  type NowPlaying,
  type PlayerSnapshot,
  type ReplaySource,
  type RootState,
} from '@collectif/shared';

export type PlayerMode = 'LIVE' | 'REPLAY';

/** Whether the chat widget could be reached; the panel shows a French fallback when it could not. */
export type ChatStatus = 'loading' | 'ready' | 'failed';

/** The player state of SPEC section 3, plus what the screen needs to say about it. */
export interface PlayerState {
  mode: PlayerMode;
  open: boolean;
  chatOpen: boolean;
  chatStatus: ChatStatus;
  loading: boolean;
  /** The audio element is actually playing. */
  playing: boolean;
  /** The visitor asked for sound (opened, chose a replay, pressed Lecture); a live drop is reconnected only then. */
  wantsToPlay: boolean;
  artist: string;
  show: string;
  /** Cover image of what plays; null shows the default cover. */
  cover: string | null;
  /** Seconds. */
  duration: number;
  currentTime: number;
  remaining: number;
  /** 0 to 100. */
  slider: number;
  /** The visitor is dragging the slider: the progress tick leaves it alone and a click does not toggle. */
  dragging: boolean;
  /** A polite French sentence shown in the player, or null. */
  message: string | null;
  /** The replay being played, so that reopening can reload it if it never loaded. */
  replay: ReplaySource | null;
  /** Last now-playing of the live stream, shown again when coming back to live. */
  live: NowPlaying | null;
  /** Consecutive failed attempts to rejoin the live stream; 0 once it plays. */
  reconnectAttempt: number;
}

export const UNKNOWN = 'Inconnu';
export const SLIDER_MIN = 0;
export const SLIDER_MAX = 100;

export const MESSAGES = {
  streamUnavailable: 'Cette émission ne peut pas être lue pour le moment. Réessayez dans quelques instants.',
  audioError: 'La lecture s’est interrompue. Réessayez dans quelques instants.',
  reconnecting: 'Connexion au direct perdue, reconnexion ...',
  pressPlay: 'Appuyez sur Lecture pour lancer l’écoute.',
} as const;

export const initialPlayerState: PlayerState = {
  mode: 'LIVE',
  open: false,
  chatOpen: false,
  chatStatus: 'loading',
  loading: false,
  playing: false,
  wantsToPlay: false,
  artist: UNKNOWN,
  show: UNKNOWN,
  cover: null,
  duration: 0,
  currentTime: 0,
  remaining: 0,
  slider: 0,
  dragging: false,
  message: null,
  replay: null,
  live: null,
  reconnectAttempt: 0,
};

export function clampSlider(value: number): number {
  if (!Number.isFinite(value)) return SLIDER_MIN;
  return Math.min(SLIDER_MAX, Math.max(SLIDER_MIN, value));
}

function orUnknown(value: string | undefined): string {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? UNKNOWN : trimmed;
}

function setPosition(state: PlayerState, currentTime: number): void {
  const duration = state.duration;
  const time = Math.min(
    Math.max(0, Number.isFinite(currentTime) ? currentTime : 0),
    duration > 0 ? duration : Infinity,
  );
  state.currentTime = time;
  state.remaining = Math.max(0, duration - time);
  if (!state.dragging) state.slider = duration > 0 ? clampSlider((time / duration) * 100) : 0;
}

function showLive(state: PlayerState): void {
  state.artist = orUnknown(state.live?.artist);
  state.show = orUnknown(state.live?.title);
  state.cover = state.live?.cover ?? null;
}

/** A replay heard to the end starts again from 0 when the visitor asks for it again. */
function rewindIfEnded(state: PlayerState): void {
  if (state.mode === 'REPLAY' && state.slider >= SLIDER_MAX) {
    setPosition(state, 0);
    state.slider = 0;
  }
}

function startLoading(state: PlayerState): void {
  state.loading = true;
  state.wantsToPlay = true;
  state.message = null;
}

/**
 * The player's state machine (SPEC section 4). Actions are the events that happened; the listeners
 * in `listeners.ts` do the audio, network and system work that follows.
 */
export const playerSlice = createSlice({
  name: 'player',
  initialState: initialPlayerState,
  reducers: {
    /** A past show was chosen somewhere on the page (the `replay-selected` event). */
    replaySelected(state, action: PayloadAction<ReplaySource>) {
      const source = action.payload;
      state.mode = 'REPLAY';
      state.replay = source;
      state.artist = orUnknown(source.title);
      state.show = orUnknown(source.description);
      state.cover = source.cover === '' ? null : source.cover;
      state.duration = Number.isFinite(source.duration) && source.duration > 0 ? source.duration : 0;
      state.dragging = false;
      setPosition(state, 0);
      state.slider = 0;
      state.chatOpen = false;
      state.open = true;
      state.reconnectAttempt = 0;
      // What played before is silenced until the replay's stream starts (listeners.ts).
      state.playing = false;
      startLoading(state);
    },
    /** The 'direct' button, or the `live-selected` event. */
    liveRequested(state) {
      state.mode = 'LIVE';
      state.open = true;
      state.dragging = false;
      state.duration = 0;
      setPosition(state, 0);
      state.reconnectAttempt = 0;
      showLive(state);
      startLoading(state);
    },
    /** A click on the player: opens and plays, or closes and pauses; ignored while the slider is dragged. */
    toggled(state) {
      if (state.dragging) return;
      if (state.open) {
        state.open = false;
        state.chatOpen = false;
        state.loading = false;
        state.wantsToPlay = false;
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
      state.wantsToPlay = false;
      state.loading = false;
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
      if (state.mode === 'LIVE') showLive(state);
    },
    sliderGrabbed(state) {
      if (state.mode === 'REPLAY') state.dragging = true;
    },
    /** Drag, click or keys on the slider: the position follows at once, the audio seeks. */
    sliderMoved(state, action: PayloadAction<number>) {
      if (state.mode !== 'REPLAY') return;
      const value = clampSlider(action.payload);
      state.slider = value;
      state.currentTime = (value / 100) * state.duration;
      state.remaining = Math.max(0, state.duration - state.currentTime);
    },
    sliderReleased(state) {
      state.dragging = false;
    },
    /** The progress tick (about every 100 ms) and the audio element's time events. */
    progressed(state, action: PayloadAction<{ currentTime: number; duration: number }>) {
      if (state.mode !== 'REPLAY') return;
      const { currentTime, duration } = action.payload;
      if (Number.isFinite(duration) && duration > 0) state.duration = duration;
      setPosition(state, currentTime);
    },
    audioPlaying(state) {
      state.playing = true;
      // Sound the visitor hears is sound they want (a resume from the system controls, for instance).
      state.wantsToPlay = true;
      state.loading = false;
      state.reconnectAttempt = 0;
      state.message = null;
    },
    audioCanPlay(state) {
      state.loading = false;
    },
    /** The element paused: on request, or by the system (headphones unplugged, another app's sound). */
    audioPaused(state) {
      state.playing = false;
      state.wantsToPlay = false;
      state.loading = false;
    },
    audioEnded(state) {
      state.playing = false;
      if (state.mode === 'REPLAY') {
        state.wantsToPlay = false;
        setPosition(state, state.duration);
      }
    },
    audioErrored(state) {
      state.loading = false;
      state.playing = false;
      // A live stream is rejoined (see liveDropped); a replay waits for the visitor to press Lecture.
      if (state.mode === 'REPLAY') {
        state.message = MESSAGES.audioError;
        state.wantsToPlay = false;
      }
    },
    /** The live stream stalled, ended or failed while the visitor listens: a reconnection follows. */
    liveDropped(state) {
      state.reconnectAttempt += 1;
      state.loading = true;
      state.message = MESSAGES.reconnecting;
    },
    /** The browser refused to start sound without a gesture (partner pages driven by script). */
    playRefused(state) {
      state.loading = false;
      state.wantsToPlay = false;
      state.message = MESSAGES.pressPlay;
    },
    /** GET /api/track/{urn} failed or answered something unplayable. */
    streamUnavailable(state) {
      state.loading = false;
      state.wantsToPlay = false;
      state.message = MESSAGES.streamUnavailable;
    },
  },
  selectors: {
    selectPlayer: (state) => state,
    selectMode: (state) => state.mode,
    selectOpen: (state) => state.open,
    selectSnapshot: (state): PlayerSnapshot => ({
      mode: state.mode,
      open: state.open,
      playing: state.playing,
      loading: state.loading,
      artist: state.artist,
      show: state.show,
      currentTime: state.mode === 'LIVE' ? 0 : state.currentTime,
      duration: state.mode === 'LIVE' ? 0 : state.duration,
    }),
  },
});

/** The element waits for data (stalled or waiting); in live mode a watchdog decides whether to reconnect. */
export const audioStalled = createAction('player/audioStalled');

export const injectedPlayer = playerSlice.injectInto(rootReducer);

/**
 * The shared RootState cannot list this remote's slice (a remote loads later than shared is
 * compiled), so the selectors take the shared RootState and read it as the injected reducer's.
 */
type StateWithPlayer = RootState & Partial<WithSlice<typeof playerSlice>>;

const view = (state: RootState): StateWithPlayer => state;

export const selectPlayer = (state: RootState): PlayerState => injectedPlayer.selectors.selectPlayer(view(state));
export const selectMode = (state: RootState): PlayerMode => injectedPlayer.selectors.selectMode(view(state));
export const selectOpen = (state: RootState): boolean => injectedPlayer.selectors.selectOpen(view(state));
export const selectSnapshot = (state: RootState): PlayerSnapshot =>
  injectedPlayer.selectors.selectSnapshot(view(state));

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
} = playerSlice.actions;
