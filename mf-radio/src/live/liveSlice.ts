import {
  createSlice,
  TaskAbortError,
  type PayloadAction,
  type WithSlice,
  api,
  rootReducer,
  type startAppListening,
  type RootState,
} from '@collectif/shared';

/** The live status is used 400 ms after it arrives (docs/site.md, « Home », live block). */
export const LIVE_CHECK_DELAY_MS = 400;

export interface LiveState {
  live: boolean;
  /** True from a check's start until it completes, successfully or not. */
  refreshing: boolean;
}

const initialState: LiveState = { live: false, refreshing: false };

/** The studio's live status as the home page's live block shows it (docs/site.md, « Home »). */
export const liveSlice = createSlice({
  name: 'live',
  initialState,
  reducers: {
    refreshRequested: (state) => {
      state.refreshing = true;
    },
    statusReceived: (state, action: PayloadAction<boolean>) => {
      state.live = action.payload;
      state.refreshing = false;
    },
    checkFailed: (state) => {
      state.refreshing = false;
    },
  },
  selectors: {
    selectLive: (state) => state.live,
    selectRefreshing: (state) => state.refreshing,
  },
});

export const { refreshRequested, statusReceived, checkFailed } = liveSlice.actions;

export const injectedLive = liveSlice.injectInto(rootReducer);

/**
 * The shared RootState cannot list a remote's slices (an interface re-exported by the shared package
 * cannot be augmented from here), so the selectors take RootState and view it with the live slice,
 * which the injected selectors read as their initial state until the first action reaches it.
 */
type StateWithLive = RootState & Partial<WithSlice<typeof liveSlice>>;

export const selectLive = (state: RootState): boolean => injectedLive.selectors.selectLive(state as StateWithLive);

export const selectRefreshing = (state: RootState): boolean =>
  injectedLive.selectors.selectRefreshing(state as StateWithLive);

type ListenerEffect = Parameters<typeof startAppListening>[0]['effect'];

/**
 * Each refresh asks /api/islive (through the shared RTK Query endpoint, never cached), waits the
 * 400 ms of the spec, then records the answer. A newer refresh cancels an older one, so the block
 * never shows a stale answer. A failure is logged as the spec says and ends the refresh, so the
 * button never stays stuck on 'Chargement ...'.
 */
const checkLiveStatus: ListenerEffect = async (_action, listenerApi) => {
  listenerApi.cancelActiveListeners();
  const request = listenerApi.dispatch(
    api.endpoints.liveStatus.initiate(undefined, { subscribe: false, forceRefetch: true }),
  );
  try {
    // The endpoint's schema makes an answer that says neither yes nor no a failed check, not « live ».
    const { live } = await listenerApi.pause(request.unwrap());
    await listenerApi.delay(LIVE_CHECK_DELAY_MS);
    listenerApi.dispatch(statusReceived(live));
  } catch (error) {
    if (error instanceof TaskAbortError) return;
    console.error('Erreur lors du refresh:', error);
    listenerApi.dispatch(checkFailed());
  }
};

/**
 * Registers the live block's side effect. Called by the block before its first check; registering
 * again registers nothing more (the listener middleware keeps one entry per effect).
 */
export function registerLiveListeners(startListening: typeof startAppListening): void {
  startListening({ actionCreator: refreshRequested, effect: checkLiveStatus });
}
