import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { siteConfig } from '../config';
import { withXsrf } from '../http';
import type { LiveStatus, NowPlaying, PodcastItem, Release } from '../types';

let apiBase = siteConfig.radio.apiBase;

/** Where /api lives; the embeddable player points it at the collective's server. */
export function configureApiBase(base: string): void {
  apiBase = base.replace(/\/$/, '');
}

export function apiUrl(path: string): string {
  return `${apiBase}${path}`;
}

const REQUEST_TIMEOUT_MS = 10_000;

const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = (args, api, extra) =>
  fetchBaseQuery({
    baseUrl: apiBase,
    timeout: REQUEST_TIMEOUT_MS,
    fetchFn: (input) => fetch(withXsrf(input as Request)),
  })(args, api, extra);

export interface PodcastQuery {
  limit?: number;
  q?: string;
}

/** One RTK Query API for every /api call of the site (SPEC section 7). */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  keepUnusedDataFor: 300,
  endpoints: (build) => ({
    podcasts: build.query<PodcastItem[], PodcastQuery>({
      query: ({ limit, q }) => ({
        url: '/podcasts',
        params: { ...(limit === undefined ? {} : { limit }), ...(q === undefined ? {} : { q }) },
      }),
    }),
    releases: build.query<Release[], { limit?: number }>({
      query: ({ limit }) => ({ url: '/releases', params: limit === undefined ? {} : { limit } }),
    }),
    liveStatus: build.query<LiveStatus, undefined>({
      // 'Rafraîchir' must reach the server (which revalidates with its ETag), not the browser's HTTP cache.
      query: () => ({ url: '/islive', cache: 'no-cache' }),
      keepUnusedDataFor: 0,
    }),
    nowPlaying: build.query<NowPlaying, undefined>({
      query: () => '/nowplaying',
      keepUnusedDataFor: 0,
    }),
    trackStream: build.query<string, string>({
      query: (trackUrn) => ({ url: `/track/${encodeURIComponent(trackUrn)}`, responseHandler: 'text' }),
    }),
  }),
});

export const { usePodcastsQuery, useReleasesQuery, useLiveStatusQuery, useLazyLiveStatusQuery, useNowPlayingQuery } =
  api;
