import * as v from 'valibot';
import { releaseUrl } from '../config';
import { isSlug } from '../episodeAddress';
import { aboutSchema, slidesSchema, teamSchema } from './content.mjs';
import { usableList } from './usable-list';
import { playedArtistSlug, playedArtistSummaryReading, playedArtistSummarySchema } from './played-artist-summary';

export * from './played-artist-summary';

/*
 * The one definition of each /api answer (docs/api.md). The server validates and serialises with
 * the strict schemas (converted to JSON Schema); the client reads every answer with the `…Answer`
 * schemas, built from the same entries: a proxy error page, a half-deployed server or a broken
 * upstream can answer anything, and a block must then show its French error state, or drop the
 * items it cannot use, instead of taking the whole page down.
 */

/** What the player plays: an episode of the feed, or a partner's replay-selected payload. */
export const replaySourceSchema = v.object({
  /** `soundcloud:tracks:{id}` when the feed guid names a track. */
  trackUrn: v.optional(v.string()),
  /** Direct audio URL from the feed enclosure. */
  url: v.string(),
  /** Duration in seconds. */
  duration: v.number(),
  /** Who plays: the residence's artist, or the feed item's title before its « - ». */
  artist: v.string(),
  /** The show: its name and number, or what follows the « - » in the feed item's title. */
  show: v.string(),
  cover: v.string(),
});

/** One episode of GET /api/podcasts. */
export const podcastItemSchema = v.object({
  ...replaySourceSchema.entries,
  /** Show page, unique per item (used to de-duplicate). */
  link: v.string(),
  pubDate: v.nullable(v.string()),
  /** Its page: /emissions/{slug} (docs/episodes.md). */
  slug: v.optional(v.string()),
});

/** One episode of GET /api/episodes and GET /api/episodes/:slug (docs/episodes.md). */
export const episodeSchema = v.object({
  ...podcastItemSchema.entries,
  /** The feed item's own description (HTML or text, sanitised where shown), when it has one. */
  summary: v.optional(v.string()),
  /** Its address: /emissions/{slug}. */
  slug: v.string(),
  /** Ids of the residences it belongs to. */
  residences: v.array(v.string()),
  /** The styles of those residences. */
  styles: v.array(v.string()),
});

/** Another episode that played a track's artist (docs/tracklists.md, « Also played in »). */
export const alsoPlayedSchema = v.object({ slug: v.string(), artist: v.string(), show: v.string() });

/** One row of an episode's tracklist as GET /api/episodes/:slug gives it (docs/tracklists.md). */
export const tracklistRowSchema = v.object({
  /** Seconds from the replay's start. */
  start: v.number(),
  artist: v.string(),
  title: v.string(),
  /** A release of the label (its path, /album/…), linked to its page with releaseUrl. */
  release: v.optional(v.string()),
  /** Up to three other episodes that played this artist, newest first. */
  also: v.array(alsoPlayedSchema),
  /** The played artist's page, /artistes/{artistSlug}, when the index has one (docs/artists.md). */
  artistSlug: v.optional(v.string()),
});

/** GET /api/episodes/:slug: an episode, with its tracklist when it has one. */
export const episodeDetailSchema = v.object({
  ...episodeSchema.entries,
  tracks: v.optional(v.array(tracklistRowSchema)),
});

/**
 * GET /api/episodes/:slug/chapters.json: the Podcast Index JSON chapters format (version 1.2.0),
 * one chapter per track, its title « Artiste — Titre ».
 */
export const chaptersSchema = v.object({
  version: v.literal('1.2.0'),
  /** The episode's artist, and its « artist · show ». */
  author: v.string(),
  title: v.string(),
  chapters: v.array(
    v.object({
      startTime: v.number(),
      title: v.string(),
      url: v.optional(v.string()),
    }),
  ),
});

/** GET /api/episodes: one page of the archive, for a search and filters. */
export const episodesPageSchema = v.object({
  items: v.array(episodeSchema),
  /** Episodes found in all. */
  total: v.number(),
  /** This page (from 1) and the number of pages (at least 1). */
  page: v.number(),
  pages: v.number(),
  pageSize: v.number(),
  /** A search's first page: the played artists whose name holds it, up to five (docs/artists.md). */
  artists: v.optional(v.array(playedArtistSummarySchema)),
});

/** GET /api/styles: the residences' styles and how many episodes have each, by name. */
export const stylesSchema = v.array(v.object({ name: v.string(), count: v.number() }));

/** One release of GET /api/releases (the label's content file has its stricter schema). */
export const releaseSchema = v.object({
  href: v.string(),
  image: v.string(),
  title: v.string(),
  artist: v.string(),
  /** Its artist's page, /artistes/{artistSlug}, when the played artists' index has one (docs/artists.md). */
  artistSlug: v.optional(v.string()),
});

/** How many tracks that played before the current one a now-playing answer carries, at most. */
export const RECENT_TRACKS_MAX = 5;

/** A track the radio played before the current one: when it started, a UTC instant (ISO 8601). */
export const playedTrackSchema = v.object({
  artist: v.string(),
  title: v.string(),
  playedAt: v.string(),
});

/** GET /api/nowplaying, and each message of /api/nowplaying/events. */
export const nowPlayingSchema = v.object({
  artist: v.string(),
  title: v.string(),
  cover: v.optional(v.string()),
  /** « Titres précédents »: newest first; absent when the radio does not say (docs/api.md). */
  history: v.optional(v.pipe(v.array(playedTrackSchema), v.maxLength(RECENT_TRACKS_MAX))),
  /**
   * Since contract 3.3: listeners of the live now (« 23 à l'écoute »), when an admin turned it on
   * (content kind `figures`) and they are at least FIGURES_THRESHOLD; absent otherwise (docs/figures.md).
   */
  listeners: v.optional(v.number()),
});

/** GET /api/islive. */
export const liveStatusSchema = v.object({ live: v.boolean() });

/** One show of GET /api/schedule: one occurrence of a calendar event (docs/schedule.md). */
export const scheduleEventSchema = v.object({
  /** The event's UID and the occurrence's start: unique in a schedule. */
  id: v.string(),
  title: v.string(),
  /** UTC instants (ISO 8601). */
  start: v.string(),
  end: v.string(),
  /** A whole day (or days), from midnight to midnight in the schedule's zone. */
  allDay: v.boolean(),
  /** The residence its title names, if one does. */
  residence: v.nullable(v.string()),
});

/** GET /api/schedule: the shows between two instants, and the zone the calendars are kept in. */
export const scheduleSchema = v.object({
  zone: v.string(),
  /** What was asked for. */
  from: v.string(),
  to: v.string(),
  /** What the server knows of the schedule: nothing outside it is announced yet (optional: older servers). */
  known: v.optional(v.object({ from: v.string(), to: v.string() })),
  events: v.array(scheduleEventSchema),
});

/** One name of an event's line-up: the residence it is, when it is one (docs/events.md, « Line-up »). */
export const eventArtistSchema = v.object({
  name: v.string(),
  residence: v.nullable(v.string()),
});

/** What an event is: as planned, to be confirmed (`TENTATIVE`), or cancelled (`CANCELLED`). */
export const EVENT_STATUSES = ['confirmed', 'tentative', 'cancelled'] as const;

/** One event of the collective's events calendars (docs/events.md): one occurrence of a VEVENT. */
export const eventItemSchema = v.object({
  /**
   * Its address: `2026-12-05-3f9a1c0d2b`, its start's day in Paris and a fingerprint of its UID (and,
   * for an occurrence of a series, of the occurrence it replaces): a renamed event keeps it, a
   * moved one keeps its fingerprint, by which the API finds it.
   */
  slug: v.string(),
  title: v.string(),
  /** UTC instants (ISO 8601); an all-day event from midnight to midnight in `zone`. */
  start: v.string(),
  end: v.string(),
  allDay: v.boolean(),
  /** The zone its calendar writes its times in (its DTSTART's TZID, else the calendar's). */
  zone: v.string(),
  status: v.picklist(EVENT_STATUSES),
  /** An occurrence moved from its series' date (RECURRENCE-ID with another start). */
  rescheduled: v.boolean(),
  /** The place's name: LOCATION's first part (before its first comma or line). */
  venue: v.nullable(v.string()),
  /** The rest of LOCATION: its street address, as written. */
  address: v.nullable(v.string()),
  /** GEO, when the calendar gives it. */
  geo: v.nullable(v.object({ lat: v.number(), lon: v.number() })),
  /** Its tickets (URL): an http(s) address, else null. */
  tickets: v.nullable(v.string()),
  /** DESCRIPTION as plain text (never HTML): the page writes it as text and links its addresses. */
  description: v.string(),
  /** Its poster (IMAGE, or ATTACH of an image type): an https address or a picture of the site. */
  image: v.nullable(v.string()),
  /** Its styles (CATEGORIES). */
  categories: v.array(v.string()),
  /** Who plays: the line « Avec : … » of its text, each name matched to a residence when one is it. */
  lineup: v.array(eventArtistSchema),
});

/** GET /api/events: the coming events (soonest first) and the past ones (latest first). */
export const eventsSchema = v.object({
  /** The zone the collective's calendars are kept in (dates are shown in it). */
  zone: v.string(),
  /** The instant the answer was made: what « coming » means. */
  now: v.string(),
  /** The calendars could not be read again: these are the last events read. */
  stale: v.boolean(),
  /** Where they come from: the collective's calendars (EVENTS_ICS_URLS) or the demo's. */
  source: v.picklist(['calendar', 'demo']),
  /** Events (not cancelled) this year in Paris, past and coming. */
  thisYear: v.number(),
  coming: v.array(eventItemSchema),
  past: v.array(eventItemSchema),
});

/** GET /api/radio: the radio's run-time settings for the player on partner sites. */
export const radioSettingsAnswerSchema = v.object({
  liveStreamUrl: v.string(),
  chatEmbedUrl: v.string(),
  chatRoom: v.string(),
  twitchChannel: v.string(),
  /** Since contract 3.2 (docs/contract.md): the mounts, the normal one first. */
  renditions: v.array(
    v.object({ id: v.string(), label: v.string(), url: v.string(), bitrate: v.number(), codec: v.literal('mp3') }),
  ),
  /** Since contract 3.2: the timeline's multivariant playlist ('' when off) and its hours. */
  timeshift: v.object({ playlist: v.string(), hours: v.number() }),
  /** Since contract 3.3: where « Nous soutenir » leads ('/soutenir', or '' when HelloAsso is off). */
  support: v.object({ page: v.string(), external: v.string() }),
});

/**
 * GET /api/timeshift: the live's window (null ends while nothing is recorded) and what the radio
 * played in it, oldest first, with the last track that started before it (docs/timeshift.md).
 */
export const timeshiftAnswerSchema = v.object({
  hours: v.number(),
  start: v.nullable(v.string()),
  end: v.nullable(v.string()),
  played: v.array(v.object({ at: v.string(), artist: v.string(), title: v.string() })),
});

/*
 * Audience figures (docs/figures.md). Counted without tracking anyone: beacons from the site's
 * player, the live's sources sampled each minute; kept as aggregates by show, day and hour.
 */

/** Figures under this never leave the server as numbers: they are sent as FEW (« moins de 5 »). */
export const FIGURES_THRESHOLD = 5;
/** A figure under FIGURES_THRESHOLD, as the server sends it. */
export const FEW = 'few';
/** The player sends a `live` beacon this often while it really plays the live (seconds). */
export const FIGURES_LIVE_BEACON_S = 120;
/** A beacon's body, at most (bytes). */
export const FIGURES_BEACON_MAX_BYTES = 512;
/** How far a replay went, in percent of its length: one beacon each, once per replay. */
export const FIGURES_MILESTONES = [25, 50, 75, 100] as const;
/** The live's sources, each named in the figures (docs/figures.md, « What is counted »). */
export const LIVE_SOURCES = ['azuracast', 'icecast', 'player', 'timeline'] as const;

const beaconEpisode = v.pipe(v.string(), v.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/), v.maxLength(120));
/** Whether the beacon comes from the partners' embeddable player (counted apart). */
const beaconEmbed = v.optional(v.boolean());

/**
 * POST /api/figures/beacon's body (JSON, sent as text/plain by navigator.sendBeacon): the live
 * being heard (every FIGURES_LIVE_BEACON_S), a replay started at a second (`?t=`, 0 from the
 * start), or a replay that reached a milestone. Answered 204, counted or not.
 */
export const beaconSchema = v.variant('kind', [
  v.strictObject({ kind: v.literal('live'), embed: beaconEmbed }),
  v.strictObject({
    kind: v.literal('replay'),
    episode: beaconEpisode,
    second: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(86_400)),
    embed: beaconEmbed,
  }),
  v.strictObject({
    kind: v.literal('progress'),
    episode: beaconEpisode,
    percent: v.picklist(FIGURES_MILESTONES),
    embed: beaconEmbed,
  }),
]);

/** A figure: a whole number of at least FIGURES_THRESHOLD, or FEW. */
export const figureSchema = v.union([v.pipe(v.number(), v.integer(), v.minValue(FIGURES_THRESHOLD)), v.literal(FEW)]);
/** The peak of each source that gave one (a source that gave none is absent). */
const sourcePeaksSchema = v.object({
  azuracast: v.optional(figureSchema),
  icecast: v.optional(figureSchema),
  player: v.optional(figureSchema),
  timeline: v.optional(figureSchema),
});

/**
 * GET /api/editor/figures/audience[?residence=id] (docs/figures.md, « For the parts »): a
 * residence's figures (a resident their own, else 403; an admin any), or the whole radio's (an
 * admin, without `residence`). Every figure is a FigureValue: under FIGURES_THRESHOLD, FEW.
 */
export const audienceFiguresSchema = v.object({
  /** The residence, or null: the whole radio. */
  residence: v.nullable(v.string()),
  /** When the figures were read (ISO 8601). */
  at: v.string(),
  /** The live's slots of the last 12 weeks, newest first (at most 60). */
  slots: v.array(
    v.object({
      /** UTC instants (ISO 8601). */
      start: v.string(),
      end: v.string(),
      title: v.string(),
      residence: v.nullable(v.string()),
      peak: figureSchema,
      average: figureSchema,
      sources: sourcePeaksSchema,
      /** Listeners each minute from `start` (at most 360: six hours). */
      curve: v.array(figureSchema),
    }),
  ),
  /** Replays heard from the site over the last 12 weeks, most played first (at most 100). */
  episodes: v.array(
    v.object({
      episode: v.string(),
      title: v.string(),
      /** Replays started from the site's player, and from the partners' embeds. */
      plays: figureSchema,
      embedPlays: figureSchema,
      /** Replays that reached 25, 50, 75 and 100 % of their length. */
      reached: v.object({ p25: figureSchema, p50: figureSchema, p75: figureSchema, p100: figureSchema }),
    }),
  ),
  /** The moments replays were started at (`?t=`, to the tracklist's row), most played first (at most 20). */
  moments: v.array(v.object({ episode: v.string(), second: v.number(), plays: figureSchema })),
  /** The last 12 weeks, oldest first: each week from Monday (YYYY-MM-DD), the live's peak and the replays. */
  trend: v.array(v.object({ week: v.string(), peak: figureSchema, plays: figureSchema })),
  /** The whole radio only: each day of the last 28, oldest first, the live's peak, average and peak by source. */
  days: v.optional(
    v.array(v.object({ day: v.string(), peak: figureSchema, average: figureSchema, sources: sourcePeaksSchema })),
  ),
  /** The whole radio only: each residence's peak and replays over the 12 weeks. */
  residences: v.optional(v.array(v.object({ id: v.string(), peak: figureSchema, plays: figureSchema }))),
});

export type Beacon = v.InferOutput<typeof beaconSchema>;
export type FigureValue = v.InferOutput<typeof figureSchema>;
export type AudienceFigures = v.InferOutput<typeof audienceFiguresSchema>;

/** The body of every /api answer that fails. */
export const apiErrorSchema = v.object({ error: v.string(), message: v.string() });

const nonEmpty = (text: string | undefined): text is string => text !== undefined && text !== '';

/** A podcast as the client reads it: optional fields of the wrong type get neutral values. */
const podcastReadingEntries = {
  ...podcastItemSchema.entries,
  trackUrn: v.fallback(v.optional(v.string()), undefined),
  duration: v.fallback(v.pipe(v.number(), v.finite(), v.minValue(0)), 0),
  cover: v.fallback(v.string(), ''),
  pubDate: v.fallback(v.nullable(v.string()), null),
  link: v.pipe(v.string(), v.nonEmpty()),
  slug: v.fallback(v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,120}$/))), undefined),
};

/** The player needs something to play. */
const playable = (item: { url: string; trackUrn?: string }) => item.url.trim() !== '' || nonEmpty(item.trackUrn);

/** Empty optional texts are left out. */
function withoutEmpty<T extends { trackUrn?: string; summary?: string }>({ trackUrn, summary, ...item }: T) {
  return {
    ...(nonEmpty(trackUrn) ? { trackUrn } : {}),
    ...(nonEmpty(summary) ? { summary } : {}),
    ...item,
  } as Omit<T, 'trackUrn' | 'summary'> & { trackUrn?: string; summary?: string };
}

const podcastReading = v.pipe(
  v.object(podcastReadingEntries),
  v.check((item) => playable(item)),
  v.transform((item) => withoutEmpty(item)),
);

/** An episode as the client reads it: a podcast with a usable slug; unknown residences and styles are none. */
const episodeReadingEntries = {
  ...podcastReadingEntries,
  summary: v.fallback(v.optional(v.string()), undefined),
  slug: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,120}$/)),
  residences: v.fallback(v.array(v.string()), []),
  styles: v.fallback(v.array(v.string()), []),
};
const episodeReading = v.pipe(
  v.object(episodeReadingEntries),
  v.check((item) => playable(item)),
  v.transform((item) => withoutEmpty(item)),
);

/** A release as the client reads it: the card links to releaseUrl(href), so href must make an address. */
const releaseReading = v.pipe(
  v.object({ ...releaseSchema.entries, artistSlug: v.fallback(v.optional(playedArtistSlug), undefined) }),
  v.check((release) => {
    try {
      releaseUrl(release.href);
      return true;
    } catch {
      return false;
    }
  }),
);

export const podcastsAnswer = usableList(podcastReading);
export const releasesAnswer = usableList(releaseReading);
/*
 * The content volunteers edit (GET /api/content/:kind, docs/content.md), read with the schemas that
 * check every save. A residence is read loosely (fields a newer server adds are ignored) and one that
 * does not fit is dropped; the other kinds are whole texts, used whole or not at all.
 */
export {
  residencesAnswer,
  residenceAnswer,
  RESIDENCE_SUMMARY_FIELDS,
  residenceSummary,
  residenceSummariesAnswer,
} from './residences';
export const slidesAnswer = slidesSchema;
export const teamAnswer = teamSchema;
export const aboutAnswer = aboutSchema;
/** The home's carousel, the About page's team and texts, as their schemas describe them. */
export type Slide = v.InferOutput<typeof slidesSchema>[number];
export type TeamMember = v.InferOutput<typeof teamSchema>[number];
export type AboutTexts = v.InferOutput<typeof aboutSchema>;
/** A tracklist row as the client reads it: a usable time and a line to show, else dropped. */
const tracklistRowReading = v.object({
  start: v.pipe(v.number(), v.integer(), v.minValue(0)),
  artist: v.pipe(v.string(), v.nonEmpty()),
  title: v.pipe(v.string(), v.nonEmpty()),
  release: v.fallback(v.optional(v.pipe(v.string(), v.regex(/^\/album\/[a-z0-9-]{1,200}$/))), undefined),
  also: v.fallback(
    usableList(
      v.object({ slug: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,120}$/)), artist: v.string(), show: v.string() }),
    ),
    [],
  ),
  artistSlug: v.fallback(v.optional(playedArtistSlug), undefined),
});
/** One episode; its tracklist's unusable rows dropped, the rows in time order. */
export const episodeAnswer = v.pipe(
  v.object({
    ...episodeReadingEntries,
    tracks: v.fallback(
      v.optional(
        v.pipe(
          usableList(tracklistRowReading),
          v.transform((rows) => [...rows].sort((a, b) => a.start - b.start)),
        ),
      ),
      undefined,
    ),
  }),
  v.check((item) => playable(item)),
  v.transform((item) => withoutEmpty(item)),
);
/** A page of the archive: its unusable episodes dropped, its counts whole numbers. */
export const episodesPageAnswer = v.object({
  items: usableList(episodeReading),
  total: v.pipe(v.number(), v.integer(), v.minValue(0)),
  page: v.pipe(v.number(), v.integer(), v.minValue(1)),
  pages: v.pipe(v.number(), v.integer(), v.minValue(1)),
  pageSize: v.pipe(v.number(), v.integer(), v.minValue(1)),
  artists: v.fallback(v.optional(usableList(playedArtistSummaryReading)), undefined),
});
export const stylesAnswer = usableList(v.object({ name: v.pipe(v.string(), v.nonEmpty()), count: v.number() }));
/** Anything but `{ "live": true | false }` is a failed check, not « live ». */
export const liveStatusAnswer = liveStatusSchema;
/** A track that played, as the client reads it: a date it can place and a line to show, else dropped. */
const playedTrackReading = v.pipe(
  v.object({
    artist: v.fallback(v.string(), ''),
    title: v.fallback(v.string(), ''),
    playedAt: v.pipe(
      v.string(),
      v.check((text) => !Number.isNaN(Date.parse(text))),
    ),
  }),
  v.check((track) => track.artist.trim() !== '' || track.title.trim() !== ''),
  v.transform((track) => ({ ...track, playedAt: new Date(Date.parse(track.playedAt)).toISOString() })),
);

/** The tracks that played: the usable ones, newest first, at most RECENT_TRACKS_MAX. */
const recentTracksReading = v.pipe(
  v.array(v.unknown()),
  v.transform((items) =>
    items
      .flatMap((item) => {
        const read = v.safeParse(playedTrackReading, item);
        return read.success ? [read.output] : [];
      })
      .sort((a, b) => Date.parse(b.playedAt) - Date.parse(a.playedAt))
      .slice(0, RECENT_TRACKS_MAX),
  ),
);

/**
 * A now-playing answer is never shown as an error: missing lines are empty, a missing cover absent;
 * a history that is not a list, or has nothing usable, is absent.
 */
export const nowPlayingAnswer = v.pipe(
  v.object({
    artist: v.fallback(v.string(), ''),
    title: v.fallback(v.string(), ''),
    cover: v.fallback(v.optional(v.string()), undefined),
    history: v.fallback(v.optional(recentTracksReading), undefined),
    listeners: v.fallback(
      v.optional(v.pipe(v.number(), v.integer(), v.minValue(FIGURES_THRESHOLD), v.maxValue(1_000_000))),
      undefined,
    ),
  }),
  v.transform(({ cover, history, listeners, ...lines }) => ({
    ...lines,
    ...(nonEmpty(cover) ? { cover } : {}),
    ...(history !== undefined && history.length > 0 ? { history } : {}),
    ...(listeners === undefined ? {} : { listeners }),
  })),
);

const DURATION_MESSAGE = '« duration » doit être un nombre de secondes positif';
const URL_MESSAGE = '« url » doit être l’adresse du fichier audio';
const text = (name: string) => v.optional(v.string(`« ${name} » doit être une chaîne`), '');

/**
 * A `replay-selected` payload. Parts of the site send typed values, but a partner page's script may
 * send anything: each issue is a French sentence naming the field; what a partner may leave out is filled.
 */
export const replaySelection = v.pipe(
  v.custom<object>((detail) => typeof detail === 'object' && detail !== null, 'un objet est attendu dans « detail »'),
  // An object's own message is the one of a missing key: only the address cannot be left out.
  v.object(
    {
      url: v.string(URL_MESSAGE),
      trackUrn: v.optional(v.string('« trackUrn » doit être une chaîne')),
      duration: v.optional(v.pipe(v.number(DURATION_MESSAGE), v.minValue(0, DURATION_MESSAGE)), 0),
      artist: text('artist'),
      show: text('show'),
      cover: text('cover'),
      start: v.optional(
        v.pipe(
          v.number('« start » doit être un nombre de secondes'),
          v.finite('« start » doit être un nombre de secondes'),
        ),
      ),
      // Its page's slug (contract 3.1.0), by which the player reads its tracklist: one that cannot
      // be a slug is left out, and the episode plays all the same, without its tracks.
      slug: v.fallback(v.optional(v.pipe(v.string(), v.check(isSlug))), undefined),
    },
    URL_MESSAGE,
  ),
  v.check((source) => source.url.trim() !== '' || nonEmpty(source.trackUrn?.trim()), URL_MESSAGE),
  v.transform(({ trackUrn, url, slug, ...rest }) => {
    const urn = trackUrn?.trim() ?? '';
    return {
      ...(urn === '' ? {} : { trackUrn: urn }),
      url: url.trim(),
      ...rest,
      ...(slug === undefined ? {} : { slug }),
    };
  }),
);

/**
 * The warning for a `replay-selected` payload that still uses the names `artist` and `show` had
 * before contract version 2 (`title`, `description`), or null. Since version 3 they are not read
 * (docs/contract.md, « 3.0.0 »): the episode plays without its two lines, and the player says which
 * names to send. In the singleton: the players of 2.x call it too.
 */
export function legacyReplayNames(detail: unknown): string | null {
  if (typeof detail !== 'object' || detail === null) return null;
  const renamed = { title: 'artist', description: 'show' };
  const used = Object.entries(renamed).filter(([former, current]) => former in detail && !(current in detail));
  if (used.length === 0) return null;
  const list = used.map(([former, current]) => `« ${former} » → « ${current} »`).join(', ');
  return `replay-selected : noms ignorés depuis la version 3 du contrat (${list}).`;
}

/** The value `schema` reads from `data`, or the French message of its first issue. */
export function readWith<T>(schema: v.GenericSchema<unknown, T>, data: unknown): { value: T } | { error: string } {
  const result = v.safeParse(schema, data);
  return result.success ? { value: result.output } : { error: result.issues[0].message };
}

const instantText = v.pipe(
  v.string(),
  v.check((text) => !Number.isNaN(Date.parse(text))),
);

/** A show as the client reads it: its instants must be dates, ending after they start. */
const scheduleEventReading = v.pipe(
  v.object({
    ...scheduleEventSchema.entries,
    title: v.pipe(v.string(), v.trim(), v.nonEmpty()),
    start: instantText,
    end: instantText,
    allDay: v.fallback(v.boolean(), false),
    residence: v.fallback(v.nullable(v.string()), null),
  }),
  v.check((event) => Date.parse(event.end) > Date.parse(event.start)),
);

/** A schedule as the client reads it: shows it cannot place are dropped, the rest in order of start. */
export const scheduleAnswer = v.pipe(
  v.object({
    zone: v.fallback(v.string(), 'Europe/Paris'),
    from: instantText,
    to: instantText,
    known: v.fallback(v.optional(v.object({ from: instantText, to: instantText })), undefined),
    events: v.pipe(
      v.array(v.unknown()),
      v.transform((items) =>
        items
          .flatMap((item) => {
            const read = v.safeParse(scheduleEventReading, item);
            return read.success ? [read.output] : [];
          })
          .sort((a, b) => Date.parse(a.start) - Date.parse(b.start)),
      ),
    ),
  }),
);

/** An event as the client reads it: its instants must be dates, ending after they start. */
const eventReading = v.pipe(
  v.object({
    ...eventItemSchema.entries,
    title: v.pipe(v.string(), v.trim(), v.nonEmpty()),
    start: instantText,
    end: instantText,
  }),
  v.check((event) => Date.parse(event.end) >= Date.parse(event.start)),
);

/** One event as the client reads it (GET /api/events/:slug). */
export const eventAnswer = eventReading;

const usableEvents = v.pipe(
  v.array(v.unknown()),
  v.transform((items) =>
    items.flatMap((item) => {
      const read = v.safeParse(eventReading, item);
      return read.success ? [read.output] : [];
    }),
  ),
);

/** The events as the client reads them: an event it cannot place is dropped, the others kept. */
export const eventsAnswer = v.object({
  ...eventsSchema.entries,
  zone: v.fallback(v.string(), 'Europe/Paris'),
  now: instantText,
  stale: v.fallback(v.boolean(), false),
  source: v.fallback(v.picklist(['calendar', 'demo']), 'calendar'),
  thisYear: v.fallback(v.number(), 0),
  coming: usableEvents,
  past: usableEvents,
});

/** GET /api/editor/figures/audience as the client reads it: the server's shape, checked (docs/figures.md). */
export const audienceFiguresAnswer = audienceFiguresSchema;
