import {
  combineSlices,
  configureStore,
  createListenerMiddleware,
  type Action,
  type ThunkAction,
} from '@reduxjs/toolkit';
import { api } from './api';
import { announceFeedLoaded, feedSlice } from './feed';

/**
 * Slices every part may read. Remotes add their own slices when they load with
 * `slice.injectInto(rootReducer)`, which also gives them typed selectors.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- remotes extend it by injection
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(api, feedSlice).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;

/**
 * Side effects live in listeners (redux listener middleware), registered by the part that owns
 * them with `startAppListening`. One middleware instance serves every store made here.
 */
export const listenerMiddleware = createListenerMiddleware();

export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware().prepend(listenerMiddleware.middleware).concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
export type AppThunk<R = void> = ThunkAction<R, RootState, unknown, Action>;

export const startAppListening = listenerMiddleware.startListening.withTypes<RootState, AppDispatch>();

startAppListening({
  matcher: api.endpoints.podcasts.matchFulfilled,
  effect: (action) => {
    announceFeedLoaded(Array.isArray(action.payload) ? action.payload.length : 0);
  },
});
