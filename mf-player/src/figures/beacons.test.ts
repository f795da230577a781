import { makeStore, startAppListening, type AppStore, type Beacon } from '@collectif/shared';
import { chooseNotCounted } from '@collectif/shared/figures';
import {
  audioEnded,
  audioPaused,
  audioPlaying,
  liveRequested,
  pauseRequested,
  playRequested,
  progressed,
  replaySelected,
  sliderMoved,
} from '../player/playerSlice';
import { registerBeacons } from './beacons';

// The player's audience beacons (docs/player.md, « Figures »): what a store's player sends, as the
// page's beacon API would get it, through a real store and its listeners.

const EPISODE = { url: '/api/demo/replays/a.mp3', duration: 100, artist: 'Axonberg', show: 'Synapses', cover: '' };

let store: AppStore;
let sent: Beacon[];
let stop: () => void;

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  window.localStorage.clear();
  store = makeStore();
  sent = [];
  stop = registerBeacons(startAppListening, store, (beacon) => sent.push(beacon));
});

afterEach(() => {
  stop();
  jest.useRealTimers();
});

/** Plays the replay on to `second`, a tick of 1 s at a time, as the progress tick would. */
function playTo(from: number, second: number): void {
  for (let at = from + 1; at <= second; at += 1) store.dispatch(progressed({ currentTime: at, duration: 100 }));
}

describe('the live', () => {
  it('is counted when it really plays, then every two minutes while it plays on', async () => {
    store.dispatch(liveRequested());
    expect(sent).toEqual([]);
    store.dispatch(audioPlaying());
    expect(sent).toEqual([{ kind: 'live' }]);
    await jest.advanceTimersByTimeAsync(119_000);
    expect(sent).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(sent).toEqual([{ kind: 'live' }, { kind: 'live' }]);
  });

  it('is not counted while paused, and a quick pause does not count it again', async () => {
    store.dispatch(liveRequested());
    store.dispatch(audioPlaying());
    store.dispatch(pauseRequested());
    await jest.advanceTimersByTimeAsync(600_000);
    expect(sent).toHaveLength(1);
    store.dispatch(playRequested());
    store.dispatch(audioPlaying());
    expect(sent).toHaveLength(2);
    store.dispatch(audioPaused());
    store.dispatch(playRequested());
    store.dispatch(audioPlaying());
    expect(sent).toHaveLength(2);
  });

  it('counts what played before the beacons came (the bar after the sound)', () => {
    const late = makeStore();
    const own: Beacon[] = [];
    late.dispatch(liveRequested());
    late.dispatch(audioPlaying());
    const undo = registerBeacons(startAppListening, late, (beacon) => own.push(beacon));
    expect(own).toEqual([{ kind: 'live' }]);
    undo();
  });
});

describe('a replay', () => {
  it('is counted when it starts, at the second it starts from, then at each milestone heard', () => {
    store.dispatch(replaySelected({ ...EPISODE, slug: 'axonberg-synapses-11', start: 22 }));
    expect(sent).toEqual([]);
    // The element's first reading, before it got to the start.
    store.dispatch(progressed({ currentTime: 0, duration: 100 }));
    store.dispatch(audioPlaying());
    expect(sent).toEqual([{ kind: 'replay', episode: 'axonberg-synapses-11', second: 22 }]);
    playTo(22, 99);
    store.dispatch(audioEnded());
    expect(sent.slice(1)).toEqual([
      { kind: 'progress', episode: 'axonberg-synapses-11', percent: 25 },
      { kind: 'progress', episode: 'axonberg-synapses-11', percent: 50 },
      { kind: 'progress', episode: 'axonberg-synapses-11', percent: 75 },
      { kind: 'progress', episode: 'axonberg-synapses-11', percent: 100 },
    ]);
  });

  it('counts no milestone skipped by a seek, and each one once', () => {
    store.dispatch(replaySelected({ ...EPISODE, slug: 'axonberg-synapses-11' }));
    store.dispatch(audioPlaying());
    store.dispatch(sliderMoved(60));
    playTo(60, 70);
    expect(sent.map((beacon) => ('percent' in beacon ? beacon.percent : beacon.kind))).toEqual(['replay']);
    playTo(70, 80);
    store.dispatch(sliderMoved(70));
    playTo(70, 80);
    store.dispatch(pauseRequested());
    store.dispatch(playRequested());
    store.dispatch(audioPlaying());
    expect(sent.map((beacon) => ('percent' in beacon ? beacon.percent : beacon.kind))).toEqual(['replay', 75]);
  });

  it('names no episode it has no slug for, nor a slug it cannot be', () => {
    store.dispatch(replaySelected(EPISODE));
    store.dispatch(audioPlaying());
    store.dispatch(replaySelected({ ...EPISODE, slug: '../../admin' }));
    store.dispatch(audioPlaying());
    playTo(0, 30);
    expect(sent).toEqual([]);
  });
});

it('sends nothing while this device chose « Ne pas être compté », and again once it no longer does', () => {
  chooseNotCounted(true);
  store.dispatch(liveRequested());
  store.dispatch(audioPlaying());
  store.dispatch(replaySelected({ ...EPISODE, slug: 'axonberg-synapses-11' }));
  store.dispatch(audioPlaying());
  playTo(0, 30);
  expect(sent).toEqual([]);
  chooseNotCounted(false);
  playTo(30, 55);
  expect(sent).toEqual([{ kind: 'progress', episode: 'axonberg-synapses-11', percent: 50 }]);
});
