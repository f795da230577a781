import { createSlice } from '@reduxjs/toolkit';
import { emit } from '../events/bus';
import { api } from './api';

export interface FeedState {
  loaded: boolean;
  count: number;
}

const initialState: FeedState = { loaded: false, count: 0 };

/** Whether the radio feed has been reported loaded (SPEC section 4, "Radio feed"). */
export const feedSlice = createSlice({
  name: 'feed',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder.addMatcher(api.endpoints.podcasts.matchFulfilled, (state, action) => {
      state.loaded = true;
      // The answer is checked where it is used; a broken one must not make the count NaN.
      if (Array.isArray(action.payload)) state.count = Math.max(state.count, action.payload.length);
    });
  },
  selectors: {
    selectFeedLoaded: (state) => state.loaded,
  },
});

export const { selectFeedLoaded } = feedSlice.selectors;

/** The `feed-loaded` event, emitted once the first time any part gets the feed. */
export function announceFeedLoaded(count: number): void {
  emit('feed-loaded', { count });
}
