import { api } from '@collectif/shared';
import { playedArtistAnswer, playedArtistsPageAnswer, responseSchema } from '@collectif/shared/schemas/played-artists';
import type { PlayedArtist, PlayedArtistsPage } from '@collectif/shared';

/**
 * The played artists' queries (docs/artists.md), injected into the singleton's API slice by the
 * radio, the one part that asks for them (docs/contract.md, « 4.0.0 »): a page that never shows an
 * artist never downloads them. Each answer is read through its schema, as the slice's own.
 */
export const playedArtistsApi = api.injectEndpoints({
  endpoints: (build) => ({
    // A page of them A–Z (`page` from 1, left out for the first, so that both share one entry).
    playedArtists: build.query<PlayedArtistsPage, { page?: number; q?: string }>({
      query: ({ page, q }) => ({
        url: '/artists',
        params: {
          ...(page === undefined || page <= 1 ? {} : { page }),
          ...(q === undefined || q.trim() === '' ? {} : { q: q.trim() }),
        },
      }),
      responseSchema: responseSchema(playedArtistsPageAnswer),
    }),
    // One played artist, their plays, releases and residence; a merged-away slug answers the canonical one.
    playedArtist: build.query<PlayedArtist, string>({
      query: (slug) => `/artists/${encodeURIComponent(slug)}`,
      responseSchema: responseSchema(playedArtistAnswer),
    }),
  }),
});

export const { usePlayedArtistsQuery, usePlayedArtistQuery } = playedArtistsApi;
