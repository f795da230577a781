import { createSlice } from '@reduxjs/toolkit';
import { emit } from '../events/bus';
import { ssrHydrated } from '../ssr';
import { api } from './api';

export interface FeedState {
  loaded: boolean;
}

const initialState: FeedState = { loaded: false };

/** Whether the radio feed has arrived once on this page (README, « Event contract », `feed-loaded`). */
export const feedSlice = createSlice({
  name: 'feed',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder.addCase(ssrHydrated, (state, action) => {
      if (action.payload.feed?.loaded === true) state.loaded = true;
    });
    builder.addMatcher(api.endpoints.podcasts.matchFulfilled, (state) => {
      state.loaded = true;
    });
  },
  selectors: {
    selectFeedLoaded: (state) => state.loaded,
  },
});

export const { selectFeedLoaded } = feedSlice.selectors;

/** The feed arrives in the browser, or came with a page the server rendered with it. */
const podcastsArrived = (action: unknown): boolean =>
  api.endpoints.podcasts.matchFulfilled(action) || (ssrHydrated.match(action) && action.payload.feed?.loaded === true);

/**
 * Emits `feed-loaded` (once per page: the bus ignores later emissions). It carries nothing: the
 * first answer is any part's query (8 items for home, one artist's for a residence), not the feed.
 */
function announceFeedLoaded(): void {
  emit('feed-loaded', {});
}

/** What registering needs of `startAppListening` (store.ts), named here so that feed.ts does not import the store. */
type StartListening = (options: { predicate: typeof podcastsArrived; effect: () => void }) => unknown;

/**
 * The feed's side effect. The effect is one function for the page, so registering it again with
 * the same `startListening` registers nothing more (the listener middleware keeps one entry).
 */
export function registerFeedListeners(startListening: StartListening): void {
  startListening({ predicate: podcastsArrived, effect: announceFeedLoaded });
}
