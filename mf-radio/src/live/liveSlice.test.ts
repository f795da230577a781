import { api as sharedApi, makeStore, startAppListening } from '@collectif/shared';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import {
  LIVE_CHECK_DELAY_MS,
  refreshRequested,
  registerLiveListeners,
  selectLive,
  selectRefreshing,
} from './liveSlice';

let api: FakeApi;

beforeEach(async () => {
  registerLiveListeners(startAppListening);
  api = await startFakeApi({ '/islive': () => ({ body: { live: true } }) });
});

afterEach(async () => {
  jest.useRealTimers();
  await api.close();
});

/** Waits on the real event loop (the fake clock stays where the test put it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('live slice', () => {
  it('starts not live and not refreshing', () => {
    const store = makeStore();
    expect(selectLive(store.getState())).toBe(false);
    expect(selectRefreshing(store.getState())).toBe(false);
  });

  it('uses the answer of /api/islive only after the 400 ms delay', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const store = makeStore();
    store.dispatch(refreshRequested());
    expect(selectRefreshing(store.getState())).toBe(true);
    await until(() => sharedApi.endpoints.liveStatus.select(undefined)(store.getState()).data !== undefined);

    await jest.advanceTimersByTimeAsync(LIVE_CHECK_DELAY_MS - 1);
    expect(selectLive(store.getState())).toBe(false);
    expect(selectRefreshing(store.getState())).toBe(true);

    await jest.advanceTimersByTimeAsync(1);
    expect(selectLive(store.getState())).toBe(true);
    expect(selectRefreshing(store.getState())).toBe(false);
  });

  it('shares one request between checks that overlap (a page mounted twice in development)', async () => {
    const store = makeStore();
    store.dispatch(refreshRequested());
    store.dispatch(refreshRequested());
    await until(() => !selectRefreshing(store.getState()));
    expect(selectLive(store.getState())).toBe(true);
    expect(api.requests).toEqual(['/islive']);
  });
});
