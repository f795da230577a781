import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { siteConfig } from '../config';
import { XSRF_PATH, sendWithXsrf } from '../http';
import { responseSchema } from '../schemas/response-schema';
import {
  episodeAnswer,
  episodesPageAnswer,
  eventAnswer,
  eventsAnswer,
  liveStatusAnswer,
  nowPlayingAnswer,
  podcastsAnswer,
  releasesAnswer,
  residencesAnswer,
  residenceAnswer,
  residenceSummariesAnswer,
  slidesAnswer,
  teamAnswer,
  aboutAnswer,
  type AboutTexts,
  type Slide,
  type TeamMember,
  scheduleAnswer,
  stylesAnswer,
} from '../schemas/answers';
import type {
  EpisodeDetail,
  EpisodesPage,
  EventItem,
  Events,
  LiveStatus,
  NowPlaying,
  PodcastItem,
  Release,
  Residence,
  ResidenceSummary,
  Schedule,
  StyleCount,
} from '../types';
import { ssrHydrated } from '../ssr';

let apiBase = siteConfig.radio.apiBase;

/** Where /api lives; the embeddable player points it at the collective's server. */
export function configureApiBase(base: string): void {
  apiBase = base.replace(/\/$/, '');
}

export function apiUrl(path: string): string {
  return `${apiBase}${path}`;
}

const REQUEST_TIMEOUT_MS = 10_000;

type Transport = (request: Request) => Promise<Response>;

/**
 * How one store reaches /api, given to `makeStore` (the thunks' extra argument). The browser has
 * none and uses fetch at `configureApiBase`'s address; the site's server, rendering a page, gives
 * each request's store its own: an absolute base and an in-process transport (docs/rendering.md,
 * « State per request »).
 */
export interface ApiAccess {
  base: string;
  transport: Transport;
}

const browserTransport: Transport = (request) => sendWithXsrf(request, apiUrl(XSRF_PATH));

function accessOf(extra: unknown): ApiAccess | null {
  const candidate = (extra as { api?: Partial<ApiAccess> } | undefined)?.api;
  return typeof candidate?.base === 'string' && typeof candidate.transport === 'function'
    ? (candidate as ApiAccess)
    : null;
}

const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = (args, api, extra) => {
  const access = accessOf(api.extra);
  const send = access?.transport ?? browserTransport;
  return fetchBaseQuery({
    baseUrl: access?.base.replace(/\/$/, '') ?? apiBase,
    timeout: REQUEST_TIMEOUT_MS,
    fetchFn: (input) => send(input as Request),
  })(args, api, extra);
};

/** A search of the archive (docs/episodes.md); empty texts are left out of the request. */
export interface EpisodesQuery {
  q?: string;
  style?: string;
  residence?: string;
  page?: number;
}

/** The request parameters of a search: only what is set, so that equal searches share one cache entry. */
export function episodesParams({ q, style, residence, page }: EpisodesQuery): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  if (q !== undefined && q.trim() !== '') params.q = q.trim();
  if (style !== undefined && style !== '') params.style = style;
  if (residence !== undefined && residence !== '') params.residence = residence;
  if (page !== undefined && page > 1) params.page = page;
  return params;
}

export interface PodcastQuery {
  limit?: number;
  q?: string;
}

/**
 * One RTK Query API for every /api call of the site. Every JSON answer is read through its schema
 * (docs/api.md): an answer that does not fit is the query's error, like a failed request, so a
 * block shows its French error state; list answers keep their usable items.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  keepUnusedDataFor: 300,
  // The answers the server rendered the page with (shared/src/ssr.ts).
  // The server's answers were written as this slice's state; the server checked them (docs/rendering.md).
  extractRehydrationInfo: (action) => (ssrHydrated.match(action) ? (action.payload.api as never) : undefined),
  catchSchemaFailure: (error) => ({ status: 'CUSTOM_ERROR' as const, error: error.message, data: error.value }),
  endpoints: (build) => ({
    podcasts: build.query<PodcastItem[], PodcastQuery>({
      query: ({ limit, q }) => ({
        url: '/podcasts',
        params: { ...(limit === undefined ? {} : { limit }), ...(q === undefined ? {} : { q }) },
      }),
      responseSchema: responseSchema(podcastsAnswer),
    }),
    episodes: build.query<EpisodesPage, EpisodesQuery>({
      query: (search) => ({ url: '/episodes', params: episodesParams(search) }),
      responseSchema: responseSchema(episodesPageAnswer),
    }),
    episode: build.query<EpisodeDetail, string>({
      query: (slug) => `/episodes/${encodeURIComponent(slug)}`,
      responseSchema: responseSchema(episodeAnswer),
    }),
    styles: build.query<StyleCount[], undefined>({
      query: () => '/styles',
      responseSchema: responseSchema(stylesAnswer),
    }),
    releases: build.query<Release[], { limit?: number }>({
      query: ({ limit }) => ({ url: '/releases', params: limit === undefined ? {} : { limit } }),
      responseSchema: responseSchema(releasesAnswer),
    }),
    // The content volunteers edit (docs/content.md): read at run time, so that a saved change shows
    // on the next page with no rebuild. The server revalidates each (its ETag is the version).
    residences: build.query<Residence[], undefined>({
      query: () => '/content/residences',
      responseSchema: responseSchema(residencesAnswer),
    }),
    // What pages that list the residences show of them, and one residence for its own page: a page
    // carries in its state only what it shows (docs/first-screen.md, « The first screen's budget »).
    residenceSummaries: build.query<ResidenceSummary[], undefined>({
      query: () => ({ url: '/content/residences', params: { view: 'summary' } }),
      responseSchema: responseSchema(residenceSummariesAnswer),
    }),
    // null: no residence has that id.
    residence: build.query<Residence | null, string>({
      query: (id) => ({ url: '/content/residences', params: { id } }),
      // The answer is a list of one, or none.
      transformResponse: (list: unknown) =>
        (Array.isArray(list) ? ((list[0] as unknown) ?? null) : list) as Residence | null,
      responseSchema: responseSchema(residenceAnswer),
    }),
    slides: build.query<Slide[], undefined>({
      query: () => '/content/slides',
      responseSchema: responseSchema(slidesAnswer),
    }),
    team: build.query<TeamMember[], undefined>({
      query: () => '/content/team',
      responseSchema: responseSchema(teamAnswer),
    }),
    aboutTexts: build.query<AboutTexts, undefined>({
      query: () => '/content/about',
      responseSchema: responseSchema(aboutAnswer),
    }),
    liveStatus: build.query<LiveStatus, undefined>({
      // 'Rafraîchir' must reach the server (which revalidates with its ETag), not the browser's HTTP cache.
      query: () => ({ url: '/islive', cache: 'no-cache' }),
      responseSchema: responseSchema(liveStatusAnswer),
      keepUnusedDataFor: 0,
    }),
    nowPlaying: build.query<NowPlaying, undefined>({
      query: () => '/nowplaying',
      responseSchema: responseSchema(nowPlayingAnswer),
      // Kept a little while unused: the answer a page came with must still be there when the live
      // block hydrates (with 0 it was dropped first, and « Titres précédents » differed).
      keepUnusedDataFor: 30,
    }),
    // The shows between two instants (docs/schedule.md); `from` and `to` are ISO 8601 instants.
    schedule: build.query<Schedule, { from: string; to: string; residence?: string }>({
      query: ({ from, to, residence }) => ({
        url: '/schedule',
        params: residence === undefined ? { from, to } : { from, to, residence },
      }),
      responseSchema: responseSchema(scheduleAnswer),
    }),
    // The collective's events (docs/events.md): the coming ones and the past ones, or one residence's.
    // `coming` and `past`: how many of each at most, for a page that shows fewer (or none: the About
    // page reads only the year's figure).
    events: build.query<Events, { residence?: string; coming?: number; past?: number }>({
      query: (args) => ({ url: '/events', params: args }),
      responseSchema: responseSchema(eventsAnswer),
    }),
    event: build.query<EventItem, string>({
      query: (slug) => `/events/${encodeURIComponent(slug)}`,
      responseSchema: responseSchema(eventAnswer),
    }),
    trackStream: build.query<string, string>({
      query: (trackUrn) => ({ url: `/track/${encodeURIComponent(trackUrn)}`, responseHandler: 'text' }),
    }),
  }),
});

export const {
  usePodcastsQuery,
  useReleasesQuery,
  useResidencesQuery,
  useResidenceSummariesQuery,
  useResidenceQuery,
  useSlidesQuery,
  useTeamQuery,
  useAboutTextsQuery,
  useEpisodesQuery,
  useEpisodeQuery,
  useStylesQuery,
  useScheduleQuery,
  useEventsQuery,
  useEventQuery,
} = api;
