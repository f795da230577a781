import { makeStore, type ReplaySource } from '@collectif/shared';
import { DEFAULT_COVER } from '@collectif/shared/tokens';
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
  momentRequested,
  selectBehind,
  selectHeld,
  selectLiveWindow,
  selectMoment,
  timelineFailed,
  timelineHeld,
  windowLearned,
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

describe('the live’s timeline (docs/player.md, « The timeline »)', () => {
  // Wednesday 25 November 2026: four hours kept, from 15:30 to 19:30 UTC; the page's clock
  // (`performance.now()`, `seen`) at 1,000 s when the window was learned.
  const at = (time: string) => Date.parse(`2026-11-25T${time}Z`);
  const start = at('15:30:00');
  const edge = at('19:30:00');
  const seen = 1_000_000;
  const move = (instant: number, when = seen) => ({ type: momentRequested.type, payload: { at: instant, seen: when } });
  const played = [
    { at: at('18:58:00'), artist: 'La Brume', title: 'Matin sur la Garonne' },
    { at: at('19:02:00'), artist: 'Verglas', title: 'Froid Sec' },
  ];

  function live() {
    const { store, state } = setup();
    store.dispatch(toggled());
    store.dispatch(audioPlaying());
    store.dispatch(
      nowPlayingReceived({ artist: 'En direct', title: 'Titre du moment', cover: '/assets/images/c.webp' }),
    );
    store.dispatch(windowLearned({ start, edge, seen, closest: 30_000, played }));
    const timeline = () => ({
      moment: selectMoment(store.getState()),
      behind: selectBehind(store.getState()),
      window: selectLiveWindow(store.getState()),
      ...state(),
    });
    return { store, timeline };
  }

  it('at the edge: no moment, the now-playing lines and cover, nothing behind', () => {
    const { timeline } = live();
    expect(timeline()).toMatchObject({
      moment: null,
      behind: 0,
      artist: 'En direct',
      show: 'Titre du moment',
      cover: absolute('/assets/images/c.webp'),
      window: { start, edge, seen, closest: 30_000 },
    });
  });

  it('a move back plays from that instant, with what played then and the default cover', () => {
    const { store, timeline } = live();
    store.dispatch(move(at('19:00:00')));
    expect(timeline()).toMatchObject({
      moment: at('19:00:00'),
      behind: 1800,
      mode: 'LIVE',
      loading: true,
      artist: 'La Brume',
      show: 'Matin sur la Garonne',
      cover: absolute(DEFAULT_COVER),
    });
    // The element's position, mapped: the lines follow what played at the moment heard.
    store.dispatch(
      progressed({ currentTime: 240, duration: Number.NaN, moment: at('19:03:00'), seen: seen + 180_000 }),
    );
    expect(timeline()).toMatchObject({ moment: at('19:03:00'), artist: 'Verglas', show: 'Froid Sec', behind: 1800 });
    // Before the first row, nothing is known of what played.
    store.dispatch(move(at('16:00:00'), seen + 180_000));
    expect(timeline()).toMatchObject({ artist: UNKNOWN, show: UNKNOWN });
  });

  it('the edge moves on with the page’s clock; a late or cached answer never moves it back', () => {
    const { store, timeline } = live();
    store.dispatch(windowLearned({ start: start + 10_000, edge: edge - 20_000, seen: seen + 60_000 }));
    expect(timeline().window).toMatchObject({ start: start + 10_000, edge: edge + 60_000, seen: seen + 60_000 });
    store.dispatch(windowLearned({ start: start + 10_000, edge: edge + 70_000, seen: seen + 60_000 }));
    expect(timeline().window?.edge).toBe(edge + 70_000);
    // A window that ends before it starts is no window.
    store.dispatch(windowLearned({ start: edge, edge: start, seen: seen + 61_000 }));
    expect(timeline().window?.start).toBe(start + 10_000);
  });

  it('a move is bounded by the window: before its start is its start; near the edge is the edge', () => {
    const { store, timeline } = live();
    store.dispatch(move(at('12:00:00')));
    expect(timeline().moment).toBe(start);
    // From behind, nearer the edge than the timeline plays (three segments) is « Direct ».
    store.dispatch(move(edge - 20_000));
    expect(timeline()).toMatchObject({ moment: null, artist: 'En direct', loading: true });
    store.dispatch(audioPlaying());
    // From the edge, a step back goes at least that far: the nearest the timeline plays.
    store.dispatch(move(edge - 10_000));
    expect(timeline()).toMatchObject({ moment: edge - 30_000, behind: 30 });
    // Ten seconds later by the page's clock, the edge has moved on: the same instant is further behind.
    store.dispatch(progressed({ currentTime: 1, duration: Number.NaN, moment: edge - 30_000, seen: seen + 10_000 }));
    expect(timeline().behind).toBe(40);
    // Anything but an instant moves nothing.
    store.dispatch(move(Number.NaN));
    expect(timeline().moment).toBe(edge - 30_000);
  });

  it('asking for the edge while at it changes nothing; without a window nothing moves', () => {
    const { store, timeline } = live();
    store.dispatch(move(edge + 5_000));
    expect(timeline()).toMatchObject({ moment: null, loading: false, playing: true });
    const { store: other } = setup();
    other.dispatch(toggled());
    other.dispatch(move(at('19:00:00')));
    expect(selectMoment(other.getState())).toBeNull();
  });

  it('« Direct » and the live-selected event go back to the edge', () => {
    const { store, timeline } = live();
    store.dispatch(move(at('19:00:00')));
    store.dispatch(liveRequested());
    expect(timeline()).toMatchObject({ moment: null, artist: 'En direct', loading: true });
  });

  it('a failed timeline goes back to the edge and says so until the next request', () => {
    const { store, timeline } = live();
    store.dispatch(move(at('19:00:00')));
    store.dispatch(audioErrored());
    store.dispatch(timelineFailed());
    expect(timeline()).toMatchObject({ moment: null, loading: true, message: MESSAGES.timelineFailed });
    store.dispatch(audioPlaying());
    expect(timeline()).toMatchObject({ playing: true, message: MESSAGES.timelineFailed });
    store.dispatch(pauseRequested());
    store.dispatch(playRequested());
    expect(timeline().message).toBeNull();
  });

  it('the thumb is held while dragged, and the player is not toggled meanwhile', () => {
    const { store, timeline } = live();
    store.dispatch(timelineHeld(at('18:00:00')));
    expect(selectHeld(store.getState())).toBe(at('18:00:00'));
    store.dispatch(toggled());
    expect(timeline()).toMatchObject({ open: true, dragging: true });
    store.dispatch(timelineHeld(null));
    expect(timeline().dragging).toBe(false);
    // Held in a replay, the timeline's thumb does nothing.
    store.dispatch(replaySelected(replay));
    store.dispatch(timelineHeld(at('18:00:00')));
    expect(selectHeld(store.getState())).toBeNull();
  });

  it('a paused moment stays where it was; the public state says nothing of it', () => {
    const { store, timeline } = live();
    store.dispatch(move(at('19:00:00')));
    store.dispatch(pauseRequested());
    expect(timeline()).toMatchObject({ moment: at('19:00:00'), wantsSound: false });
    // A tick of a stream that is not the timeline's (no moment) changes nothing.
    store.dispatch(progressed({ currentTime: 3, duration: Number.NaN }));
    expect(timeline().moment).toBe(at('19:00:00'));
    expect(selectSnapshot(store.getState())).toMatchObject({
      mode: 'LIVE',
      currentTime: 0,
      duration: 0,
      artist: 'La Brume',
    });
  });
});
