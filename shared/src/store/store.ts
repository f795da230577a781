import { combineSlices, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { api, type ApiAccess } from './api';
import { feedSlice, registerFeedListeners } from './feed';

/**
 * Slices every part may read. Remotes add their own slices when they load with
 * `slice.injectInto(rootReducer)`, which also gives them typed selectors.
 */
export const rootReducer = combineSlices(api, feedSlice);

export type RootState = ReturnType<typeof rootReducer>;

/**
 * Side effects live in listeners (redux listener middleware). Every feature registers its own the
 * same way: it exports `registerXListeners(startAppListening)`, which the code that sets the
 * feature up calls (the store for the feed, a remote's component for its slice), and which
 * registers nothing twice. One middleware instance serves every store made here; each effect works
 * on the store that dispatched.
 */
export const listenerMiddleware = createListenerMiddleware();

/** What a store's thunks and queries get besides the state: how this store reaches /api. */
export interface StoreExtra {
  api?: ApiAccess;
}

/**
 * When the store tells its subscribers of the API's bookkeeping (RTK's auto-batched actions: a
 * component subscribing to a query, a query's timers): in a task of its own, right after the one
 * that dispatched them (docs/first-screen.md, « Work after the paint »). RTK's default waits for
 * the next frame and tells them inside it: after hydration, the subscribers' checks and the renders
 * they start ran in one task with that frame's styles, layout and paint, the home page's longest
 * after hydration on a phone.
 */
const NOTIFY_IN_A_TASK = { type: 'timer', timeout: 0 } as const;

function configure(preloadedState?: Partial<RootState>, extra: StoreExtra = {}) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({ thunk: { extraArgument: extra } })
        .prepend(listenerMiddleware.middleware)
        .concat(api.middleware),
    enhancers: (getDefaultEnhancers) => getDefaultEnhancers({ autoBatch: NOTIFY_IN_A_TASK }),
  });
}

export type AppStore = ReturnType<typeof configure>;
export type AppDispatch = AppStore['dispatch'];

export const startAppListening = listenerMiddleware.startListening.withTypes<RootState, AppDispatch>();

export function makeStore(preloadedState?: Partial<RootState>, extra?: StoreExtra): AppStore {
  registerFeedListeners(startAppListening);
  return configure(preloadedState, extra);
}
