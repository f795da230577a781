import * as v from 'valibot';
import { playedArtistSlug, playedArtistSummaryReading, playedArtistSummarySchema } from './played-artist-summary';
import { usableList } from './usable-list';

// The played artists' answers (docs/artists.md), the server's shapes and the client's readings. A
// module of its own, outside the singleton's reach: only the radio's artists' pages, the editor and
// the server read them (docs/contract.md, « 4.0.0 »). What the archive's search answer carries of
// them is in played-artist-summary.ts, which the episodes' answers read too.

/** GET /api/artists: a page of the played artists, A–Z by folded name (docs/artists.md). */
export const playedArtistsPageSchema = v.object({
  items: v.array(playedArtistSummarySchema),
  /** This page (from 1) and the number of pages (at least 1). */
  page: v.number(),
  pages: v.number(),
  /** Artists found in all. */
  total: v.number(),
});

/** One play of a played artist: an episode's tracklist row. */
export const playedArtistPlaySchema = v.object({
  /** The episode's slug: its page is /emissions/{episode}, the play at ?t={start}. */
  episode: v.string(),
  /** The episode's host (the residence's artist) and its show. */
  artist: v.string(),
  show: v.string(),
  /** The episode's date (ISO 8601), or '' when the feed gives none. */
  date: v.string(),
  /** Seconds from the replay's start. */
  start: v.number(),
  /** The track's title. */
  title: v.string(),
});

/** One of a played artist's releases on the label. */
export const playedArtistReleaseSchema = v.object({
  title: v.string(),
  /** The release's path as the label's content has it (/album/…). */
  href: v.string(),
  /** Its page on the label's shop (releaseUrl(href)). */
  url: v.string(),
  image: v.optional(v.string()),
});

/** GET /api/artists/:slug: a played artist, their plays, releases and residence (docs/artists.md). */
export const playedArtistSchema = v.object({
  /** The canonical slug: a merged-away one answers the artist it was merged into. */
  slug: v.string(),
  name: v.string(),
  /** Listed in the sitemap: a release, a residence, or at least two plays; else the page is noindex. */
  indexed: v.boolean(),
  /** Newest episode first, then by start. */
  plays: v.array(playedArtistPlaySchema),
  releases: v.array(playedArtistReleaseSchema),
  residence: v.optional(v.object({ id: v.string(), artist: v.string(), show: v.string() })),
  /** The artist's other pages (a release's shop, the residence's links), https only. */
  sameAs: v.array(v.string()),
});

/** A page of GET /api/artists as the client reads it: an artist it cannot link to is dropped. */
export const playedArtistsPageAnswer = v.object({
  items: usableList(playedArtistSummaryReading),
  page: v.pipe(v.number(), v.integer(), v.minValue(1)),
  pages: v.pipe(v.number(), v.integer(), v.minValue(1)),
  total: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/** GET /api/artists/:slug as the client reads it: a play or a release it cannot link to is dropped. */
export const playedArtistAnswer = v.object({
  slug: playedArtistSlug,
  name: v.pipe(v.string(), v.nonEmpty()),
  indexed: v.fallback(v.boolean(), false),
  plays: usableList(
    v.object({
      episode: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,120}$/)),
      artist: v.fallback(v.string(), ''),
      show: v.fallback(v.string(), ''),
      date: v.fallback(v.string(), ''),
      start: v.pipe(v.number(), v.integer(), v.minValue(0)),
      title: v.fallback(v.string(), ''),
    }),
  ),
  releases: usableList(
    v.object({
      title: v.pipe(v.string(), v.nonEmpty()),
      href: v.pipe(v.string(), v.regex(/^\/album\/[a-z0-9-]{1,200}$/)),
      url: v.pipe(v.string(), v.regex(/^https:\/\/[^\s"'<>]+$/)),
      image: v.fallback(v.optional(v.string()), undefined),
    }),
  ),
  residence: v.fallback(
    v.optional(v.object({ id: v.pipe(v.string(), v.nonEmpty()), artist: v.string(), show: v.string() })),
    undefined,
  ),
  sameAs: v.fallback(
    v.pipe(
      v.array(v.unknown()),
      v.transform((links) =>
        links.filter((link): link is string => typeof link === 'string' && /^https:\/\/[^\s"'<>]+$/.test(link)),
      ),
    ),
    [],
  ),
});

export { responseSchema } from './response-schema';
