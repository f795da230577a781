import { makeStore, type ReplaySource } from '@collectif/shared';
import {
  audioCanPlay,
  audioEnded,
  audioErrored,
  audioPaused,
  audioPlaying,
  chatReached,
  chatToggled,
  chatUnreachable,
  liveDropped,
  liveRequested,
  MESSAGES,
  nowPlayingReceived,
  pauseRequested,
  playRefused,
  playRequested,
  progressed,
  replaySelected,
  selectArtist,
  selectChatOpen,
  selectChatStatus,
  selectCover,
  selectCurrentTime,
  selectDragging,
  selectDuration,
  selectLoading,
  selectMessage,
  selectMode,
  selectOpen,
  selectPlayer,
  selectPlaying,
  selectReconnectAttempt,
  selectRemaining,
  selectShow,
  selectSlider,
  selectSnapshot,
  selectStatus,
  selectWantsSound,
  sliderGrabbed,
  sliderMoved,
  sliderReleased,
  streamUnavailable,
  toggled,
  UNKNOWN,
} from './playerSlice';

const replay: ReplaySource = {
  trackUrn: 'soundcloud:tracks:42',
  url: '/api/demo/replays/a.mp3',
  duration: 3600,
  artist: 'Artiste A',
  show: 'Émission A',
  cover: '/assets/images/a.webp',
};

// The slice's reducer alone: the store is real, the listeners of the player are not registered here.
// `state()` reads the player the way the screen does, through the selectors.
function setup() {
  const store = makeStore();
  const state = () => {
    const root = store.getState();
    return {
      mode: selectMode(root),
      open: selectOpen(root),
      status: selectStatus(root),
      wantsSound: selectWantsSound(root),
      loading: selectLoading(root),
      playing: selectPlaying(root),
      artist: selectArtist(root),
      show: selectShow(root),
      cover: selectCover(root),
      duration: selectDuration(root),
      currentTime: selectCurrentTime(root),
      remaining: selectRemaining(root),
      slider: selectSlider(root),
      dragging: selectDragging(root),
      chatOpen: selectChatOpen(root),
      chatStatus: selectChatStatus(root),
      message: selectMessage(root),
      reconnectAttempt: selectReconnectAttempt(root),
      live: selectPlayer(root).live,
    };
  };
  return { store, state };
}

const absolute = (path: string) => new URL(path, window.location.href).href;

describe('player slice (docs/player.md)', () => {
  it('starts closed, in live mode, with Inconnu lines and the slider at 0', () => {
    const { store, state } = setup();
    expect(selectMode(store.getState())).toBe('LIVE');
    expect(selectOpen(store.getState())).toBe(false);
    expect(state()).toMatchObject({ artist: UNKNOWN, show: UNKNOWN, slider: 0, loading: false, chatOpen: false });
  });

  it('a published replay switches to REPLAY, updates the info, resets the slider, closes the chat and opens', () => {
    const { store, state } = setup();
    store.dispatch(toggled());
    store.dispatch(chatToggled());
    store.dispatch(replaySelected({ ...replay, artist: 'Autre' }));
    store.dispatch(progressed({ currentTime: 900, duration: 3600 }));
    expect(state().slider).toBe(25);
    store.dispatch(replaySelected(replay));
    expect(state()).toMatchObject({
      mode: 'REPLAY',
      open: true,
      chatOpen: false,
      loading: true,
      wantsSound: true,
      artist: 'Artiste A',
      show: 'Émission A',
      cover: absolute('/assets/images/a.webp'),
      duration: 3600,
      currentTime: 0,
      remaining: 3600,
      slider: 0,
    });
  });

  it('a replay asked to start later starts there, and only within the episode', () => {
    const { store, state } = setup();
    store.dispatch(replaySelected({ ...replay, start: 754 }));
    expect(state()).toMatchObject({ currentTime: 754, remaining: 3600 - 754 });
    expect(selectSnapshot(store.getState())).toMatchObject({ currentTime: 754, source: replay.trackUrn });
    for (const start of [3600, 99_999, -5, Number.NaN]) {
      store.dispatch(replaySelected({ ...replay, start }));
      expect(state().currentTime).toBe(0);
    }
  });

  it('missing artist or show lines read Inconnu', () => {
    const { store, state } = setup();
    store.dispatch(replaySelected({ ...replay, artist: ' ', show: '' }));
    expect(state()).toMatchObject({ artist: UNKNOWN, show: UNKNOWN });
    store.dispatch(liveRequested());
    store.dispatch(nowPlayingReceived({ artist: '', title: 'Titre' }));
    expect(state()).toMatchObject({ artist: UNKNOWN, show: 'Titre' });
  });

  it('direct returns to LIVE with the last live info and no replay position', () => {
    const { store, state } = setup();
    store.dispatch(nowPlayingReceived({ artist: 'DJ Direct', title: 'Matinale' }));
    store.dispatch(replaySelected(replay));
    expect(state().artist).toBe('Artiste A');
    store.dispatch(progressed({ currentTime: 60, duration: 3600 }));
    store.dispatch(liveRequested());
    expect(state()).toMatchObject({
      mode: 'LIVE',
      open: true,
      loading: true,
      artist: 'DJ Direct',
      show: 'Matinale',
      currentTime: 0,
      duration: 0,
      slider: 0,
    });
    expect(selectSnapshot(store.getState())).toMatchObject({ mode: 'LIVE', currentTime: 0, duration: 0 });
  });

  it('now playing updates the lines in live mode only', () => {
    const { store, state } = setup();
    store.dispatch(replaySelected(replay));
    store.dispatch(nowPlayingReceived({ artist: 'DJ', title: 'Direct' }));
    expect(state().artist).toBe('Artiste A');
    expect(state().live).toEqual({ artist: 'DJ', title: 'Direct' });
  });

  it('a click toggles open and closed; closing stops loading and closes the chat', () => {
    const { store, state } = setup();
    store.dispatch(toggled());
    expect(state()).toMatchObject({ open: true, loading: true, wantsSound: true });
    store.dispatch(chatToggled());
    expect(state().chatOpen).toBe(true);
    store.dispatch(toggled());
    expect(state()).toMatchObject({ open: false, loading: false, wantsSound: false, chatOpen: false });
  });

  it('a click while the slider is dragged does not toggle', () => {
    const { store, state } = setup();
    store.dispatch(replaySelected(replay));
    store.dispatch(sliderGrabbed());
    store.dispatch(toggled());
    expect(state().open).toBe(true);
    store.dispatch(sliderReleased());
    store.dispatch(toggled());
    expect(state().open).toBe(false);
  });

  it('the slider value is clamped to 0–100 and moves the position with it', () => {
    const { store, state } = setup();
    store.dispatch(replaySelected(replay));
    store.dispatch(sliderMoved(150));
    expect(state()).toMatchObject({ slider: 100, currentTime: 3600, remaining: 0 });
    store.dispatch(sliderMoved(-3));
    expect(state()).toMatchObject({ slider: 0, currentTime: 0, remaining: 3600 });
    store.dispatch(sliderMoved(50));
    expect(state()).toMatchObject({ slider: 50, currentTime: 1800, remaining: 1800 });
    store.dispatch(sliderMoved(Number.NaN));
    expect(state().slider).toBe(0);
  });

  it('the slider does nothing in live mode', () => {
    const { store, state } = setup();
    store.dispatch(toggled());
    store.dispatch(sliderMoved(40));
    store.dispatch(progressed({ currentTime: 12, duration: Number.POSITIVE_INFINITY }));
    expect(state()).toMatchObject({ slider: 0, currentTime: 0 });
  });

  it('progress moves the slider, except while it is dragged, and learns the real duration', () => {
    const { store, state } = setup();
    store.dispatch(replaySelected({ ...replay, duration: 0 }));
    store.dispatch(progressed({ currentTime: 30, duration: 120 }));
    expect(state()).toMatchObject({ duration: 120, currentTime: 30, remaining: 90, slider: 25 });
    store.dispatch(sliderGrabbed());
    store.dispatch(sliderMoved(80));
    store.dispatch(progressed({ currentTime: 31, duration: 120 }));
    expect(state()).toMatchObject({ slider: 80, currentTime: 31 });
    store.dispatch(progressed({ currentTime: 40, duration: Number.NaN }));
    expect(state().duration).toBe(120);
  });

  it('loading ends on play, canplay or error; an audio error in replay leaves a polite message', () => {
    const { store, state } = setup();
    store.dispatch(toggled());
    store.dispatch(audioPlaying());
    expect(state()).toMatchObject({ loading: false, playing: true });
    store.dispatch(replaySelected(replay));
    store.dispatch(audioCanPlay());
    expect(state().loading).toBe(false);
    store.dispatch(replaySelected(replay));
    store.dispatch(audioErrored());
    expect(state()).toMatchObject({ loading: false, playing: false, message: MESSAGES.audioError });
  });

  it('after an audio error a replay waits for Lecture, while the live stream still wants to play', () => {
    const { store, state } = setup();
    store.dispatch(replaySelected(replay));
    store.dispatch(audioErrored());
    expect(state().wantsSound).toBe(false);
    store.dispatch(liveRequested());
    store.dispatch(audioErrored());
    // The reconnection that follows needs it (listeners.ts).
    expect(state().wantsSound).toBe(true);
  });

  it('pause keeps the player open; play again reopens loading', () => {
    const { store, state } = setup();
    store.dispatch(toggled());
    store.dispatch(audioPlaying());
    store.dispatch(pauseRequested());
    store.dispatch(audioPaused());
    expect(state()).toMatchObject({ open: true, wantsSound: false, playing: false });
    store.dispatch(audioPlaying());
    expect(state()).toMatchObject({ wantsSound: true, playing: true });
    store.dispatch(audioPaused());
    store.dispatch(playRequested());
    expect(state()).toMatchObject({ open: true, wantsSound: true, loading: true });
  });

  it('a replay heard to the end starts again from 0 when played again', () => {
    const { store, state } = setup();
    store.dispatch(replaySelected(replay));
    store.dispatch(audioEnded());
    expect(state()).toMatchObject({ slider: 100, wantsSound: false, playing: false });
    store.dispatch(playRequested());
    expect(state()).toMatchObject({ slider: 0, currentTime: 0 });
  });

  it('reopening a replay keeps the slider where it was', () => {
    const { store, state } = setup();
    store.dispatch(replaySelected(replay));
    store.dispatch(sliderMoved(30));
    store.dispatch(toggled());
    store.dispatch(toggled());
    expect(state()).toMatchObject({ open: true, slider: 30, mode: 'REPLAY' });
  });

  it('a failed stream, a refused autoplay and a live drop each say so in French', () => {
    const { store, state } = setup();
    store.dispatch(replaySelected(replay));
    store.dispatch(streamUnavailable());
    expect(state()).toMatchObject({ loading: false, wantsSound: false, message: MESSAGES.streamUnavailable });
    store.dispatch(liveRequested());
    store.dispatch(playRefused());
    expect(state()).toMatchObject({ loading: false, wantsSound: false, message: MESSAGES.pressPlay });
    store.dispatch(playRequested());
    store.dispatch(liveDropped());
    store.dispatch(liveDropped());
    expect(state()).toMatchObject({ loading: true, reconnectAttempt: 2, message: MESSAGES.reconnecting });
    store.dispatch(audioPlaying());
    expect(state()).toMatchObject({ reconnectAttempt: 0, message: null });
  });

  it('the chat status follows the probe only while the chat is open', () => {
    const { store, state } = setup();
    store.dispatch(toggled());
    store.dispatch(chatToggled());
    expect(state()).toMatchObject({ chatOpen: true, chatStatus: 'loading' });
    store.dispatch(chatUnreachable());
    expect(state().chatStatus).toBe('failed');
    store.dispatch(chatToggled());
    store.dispatch(chatReached());
    expect(state()).toMatchObject({ chatOpen: false, chatStatus: 'loading' });
  });
});
