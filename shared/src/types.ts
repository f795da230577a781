import type { InferOutput } from 'valibot';
import type {
  apiErrorSchema,
  episodeDetailSchema,
  episodeSchema,
  chaptersSchema,
  tracklistRowSchema,
  episodesPageSchema,
  liveStatusSchema,
  nowPlayingSchema,
  playedTrackSchema,
  podcastItemSchema,
  releaseSchema,
  replaySourceSchema,
  scheduleEventSchema,
  scheduleSchema,
  eventArtistSchema,
  eventItemSchema,
  eventsSchema,
  playedArtistSummarySchema,
} from './schemas/answers';
import type {
  playedArtistSchema,
  playedArtistsPageSchema,
  playedArtistPlaySchema,
  playedArtistReleaseSchema,
} from './schemas/played-artists';

/** Data shapes that more than one part exchanges; the /api answers come from their schemas (docs/api.md). */

export type ReplaySource = InferOutput<typeof replaySourceSchema>;

/**
 * What `replay-selected` carries: an episode, where to start it (seconds) when not from 0, and its
 * slug when it has a page (contract 3.1.0): the player reads the episode's tracklist by it.
 */
export type ReplayRequest = ReplaySource & { start?: number; slug?: string };

/**
 * One episode asked for the player's queue (since 3.3.0): its page's slug, never an address, and
 * where to start in seconds when a time was chosen (else it resumes where the listener left it).
 */
export interface QueueItemRequest {
  slug: string;
  start?: number;
}

/** A `queue-add` request; `label` names the batch in the player's announcement (a residence). */
export interface QueueAddRequest {
  items: QueueItemRequest[];
  label?: string;
}

/** The player's queue as a `queue-state` event tells it, what comes next first. */
export interface QueueState {
  items: QueueItemRequest[];
}

export type PodcastItem = InferOutput<typeof podcastItemSchema>;

export type Release = InferOutput<typeof releaseSchema>;

export type Episode = InferOutput<typeof episodeSchema>;

export type EpisodesPage = InferOutput<typeof episodesPageSchema>;

/** An episode with its tracklist (GET /api/episodes/:slug, docs/tracklists.md). */
export type EpisodeDetail = InferOutput<typeof episodeDetailSchema>;

/** One row of an episode's tracklist, with the other episodes that played its artist. */
export type TracklistRow = InferOutput<typeof tracklistRowSchema>;

/** An episode's chapters file (Podcast Index JSON chapters). */
export type Chapters = InferOutput<typeof chaptersSchema>;

export interface StyleCount {
  name: string;
  count: number;
}

export interface Residence {
  id: string;
  artist: string;
  show: string;
  description: string;
  styles: string[];
  instagram?: string;
  soundcloud?: string;
  bandcamp?: string;
  website?: string;
  /** Uploaded pictures (docs/content.md, « Pictures »): a square at 800 px, a 1600×600 header. */
  portrait?: string;
  header?: string;
}

/** What a list of the residences shows of each (`residenceSummaries`): no description, no links. */
export type ResidenceSummary = Pick<Residence, 'id' | 'artist' | 'show' | 'portrait'>;

export type NowPlaying = InferOutput<typeof nowPlayingSchema>;

/** One of now-playing's « Titres précédents » (`history`). */
export type PlayedTrack = InferOutput<typeof playedTrackSchema>;

export type LiveStatus = InferOutput<typeof liveStatusSchema>;

export type ScheduleEvent = InferOutput<typeof scheduleEventSchema>;

export type Schedule = InferOutput<typeof scheduleSchema>;

/** One event of the collective's events calendars (docs/events.md). */
export type EventItem = InferOutput<typeof eventItemSchema>;

/** One name of an event's line-up, and the residence it is when it is one. */
export type EventArtist = InferOutput<typeof eventArtistSchema>;

/** GET /api/events: the coming events and the past ones. */
export type Events = InferOutput<typeof eventsSchema>;

/** GET /api/artists: a page of the artists the radio played or the label releases (docs/artists.md). */
export type PlayedArtistsPage = InferOutput<typeof playedArtistsPageSchema>;

/** One played artist of that list, with their count of plays. */
export type PlayedArtistSummary = InferOutput<typeof playedArtistSummarySchema>;

/** GET /api/artists/:slug: a played artist (never an episode's host: that one is `artist`). */
export type PlayedArtist = InferOutput<typeof playedArtistSchema>;

/** One play of a played artist: the episode, and when in it. */
export type PlayedArtistPlay = InferOutput<typeof playedArtistPlaySchema>;

/** One of a played artist's label releases. */
export type PlayedArtistRelease = InferOutput<typeof playedArtistReleaseSchema>;

/** Error body of every /api route that fails. */
export type ApiError = InferOutput<typeof apiErrorSchema>;
