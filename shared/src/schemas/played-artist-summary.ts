import * as v from 'valibot';

// A played artist as lists name them (docs/artists.md): the archive's search answer carries them, so
// the episodes' answers read them; the artists' own pages (played-artists.ts) read the rest.

/** A played artist's page address: lower-case ascii words and hyphens, at most 80 characters (docs/artists.md). */
export const PLAYED_ARTIST_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** How long a played artist's slug may be. */
export const PLAYED_ARTIST_SLUG_MAX = 80;
/** How many played artists a page of GET /api/artists lists. */
export const PLAYED_ARTISTS_PAGE_SIZE = 50;

/** One played artist of GET /api/artists: a name the radio's tracklists or the label named. */
export const playedArtistSummarySchema = v.object({
  slug: v.string(),
  name: v.string(),
  /** How many tracklist rows played them, over every episode. */
  plays: v.number(),
  /** How many releases of the label are theirs. */
  releases: v.number(),
  /** The id of the residence they hold, when they are a resident. */
  residence: v.optional(v.string()),
});

/** A played artist's slug as the client reads it: one that cannot make an address is none. */
export const playedArtistSlug = v.pipe(v.string(), v.maxLength(PLAYED_ARTIST_SLUG_MAX), v.regex(PLAYED_ARTIST_SLUG));

/** A played artist of a list as the client reads it. */
export const playedArtistSummaryReading = v.object({
  slug: playedArtistSlug,
  name: v.pipe(v.string(), v.nonEmpty()),
  plays: v.fallback(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  releases: v.fallback(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  residence: v.fallback(v.optional(v.pipe(v.string(), v.nonEmpty())), undefined),
});
