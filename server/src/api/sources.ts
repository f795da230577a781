import type { NowPlaying } from '@collectif/shared';
import { buildDemoFeed, type DemoFeed } from './demo/feed';
import { DEMO_REPLAYS } from './demo/audio';
import { demoNowPlaying, demoTracks } from './demo/nowplaying';
import { loadResidences, type DemoResidence } from '../schedule/demo-residences';
import type { ApiConfig } from './env';
import { ApiHttpError } from '../http/errors';
import { azuracastNowPlaying } from '../upstream/azuracast';
import { KeyedUpstreamCache, UpstreamCache, type Cached, type Source } from '../upstream/cache';
import type { SharedCacheStore } from '../instances/shared-state';
import { FeedWorker } from './upstream/feed-worker';
import { feedData, parseFeedXml, rssLoader, type FeedData } from './upstream/rss';
import { soundcloudStreams } from './upstream/soundcloud';
import { twitchLiveStatus } from './upstream/twitch';
import { buildCatalogue, type Catalogue, type TracklistEntry } from '../episodes/catalogue';
import { demoScheduleIcs } from '../schedule/demo';
import { calendarLoader } from '../schedule/fetch';
import { demoEventsIcs, loadDemoEvents } from '../events/demo';
import type { Release } from '@collectif/shared';
import type { SiteMetrics } from '../metrics/metrics';
import { NO_ARCHIVES, withArchives, type ArchivedShows } from '../archive/episodes';

const NO_TRACKLISTS = { id: '', data: [] as readonly TracklistEntry[] };

/** Where each route's data comes from; every upstream left unconfigured is its demo. */
export interface Sources {
  feed: Source<FeedData>;
  /** The feed's episodes, slugs and search index, built once per version of the feed (docs/episodes.md). */
  episodes: Source<Catalogue>;
  live: Source<boolean>;
  nowPlaying: Source<NowPlaying>;
  /** The collective's calendars, as ICS texts (docs/schedule.md). */
  schedule: Source<string[]>;
  /** The collective's events calendars, as ICS texts (docs/events.md). */
  events: Source<string[]>;
  /** The residences of the site's content file (what shows and episodes are linked to). */
  residences: readonly DemoResidence[];
  track(urn: string): Promise<Cached<string>>;
  /**
   * The live archive a feed item is the same show as (its link → the archive's id), from the last
   * catalogue built (docs/archive.md, « A replay like the others »).
   */
  archivedAs(link: string): string | undefined;
  /** The demo live switch; undefined when Twitch gives the live status. */
  demoLive: { set(live: boolean): void } | undefined;
  /** Stops what runs beside the event loop (the feed worker). */
  close(): Promise<void>;
}

/** A value that is always fresh (demo data computed here), shaped like a cache answer. */
function always<T>(value: T, version: number, expiresAt: number): Cached<T> {
  return { value, version, expiresAt, state: 'hit' };
}

export function createSources(
  config: ApiConfig,
  options: {
    releases: readonly Release[];
    now?: () => number;
    anchor?: Date;
    shared?: SharedCacheStore;
    /** The tracklists' current version (the same object until a save changes it): its id and entries. */
    tracklists?: () => { id: string; data: readonly TracklistEntry[] };
    /** The published live archives (the same object until one changes), merged into the feed's episodes. */
    archives?: () => ArchivedShows;
    /** Where the caches count their answers (the app's metrics). */
    metrics?: Pick<SiteMetrics, 'upstreamAnswers'>;
  },
): Sources {
  const now = options.now ?? Date.now;
  const counted = options.metrics === undefined ? {} : { metrics: options.metrics };
  // Each real upstream's answers shared by the instances under its name (REDIS_URL).
  const shared = (key: string) => (options.shared === undefined ? {} : { shared: { store: options.shared, key } });
  const limits = config.upstream;
  // The residences of the site's content file, read once: the demo's feed and calendar are made from
  // them, episodes and shows are linked to them.
  const residences = loadResidences(config.demo.residencesFile);
  let demoFeed: DemoFeed | undefined;
  const demo = (): DemoFeed =>
    (demoFeed ??= buildDemoFeed({
      residences,
      replays: DEMO_REPLAYS,
      anchor: options.anchor ?? new Date(now()),
    }));

  // A real feed is digested off the event loop (docs/feed.md, « Large feeds »); the demo's is small.
  const feedWorker = config.rss === null ? undefined : new FeedWorker();
  const feed: Source<FeedData> =
    config.rss === null
      ? new UpstreamCache(
          'feed',
          () => {
            const parsed = parseFeedXml(demo().xml);
            return Promise.resolve(feedData(parsed.xml, parsed.items, true));
          },
          { ttlMs: Number.POSITIVE_INFINITY, now, ...counted },
        )
      : new UpstreamCache('feed', rssLoader(config.rss, limits, config.soundcloud !== null, feedWorker), {
          ttlMs: config.ttlMs.feed,
          now,
          ...counted,
          ...shared('feed'),
        });

  // Built again for each version of the feed, and of the tracklists (the content's), whose words
  // the search finds (docs/tracklists.md).
  // And of the live archives, each an episode of its residence (docs/archive.md).
  let catalogue:
    | { of: FeedData; tracklists: object; archives: ArchivedShows; value: Catalogue; sameAs: Map<string, string> }
    | undefined;
  const episodes: Source<Catalogue> = {
    get: async () => {
      const current = await feed.get();
      const tracklists = options.tracklists?.() ?? NO_TRACKLISTS;
      const archives = options.archives?.() ?? NO_ARCHIVES;
      if (catalogue?.of !== current.value || catalogue.tracklists !== tracklists || catalogue.archives !== archives) {
        const merged = withArchives(current.value.podcasts, archives, residences);
        catalogue = {
          of: current.value,
          tracklists,
          archives,
          sameAs: merged.sameAs,
          // The content's tracklists last: written by a volunteer, one wins over an archive's chapters.
          value: buildCatalogue(
            merged.podcasts,
            residences,
            [...merged.tracklists, ...tracklists.data],
            archives.revision === '' ? tracklists.id : `${tracklists.id}+${archives.revision}`,
          ),
        };
      }
      return { ...current, value: catalogue.value };
    },
  };

  let demoLive = config.demo.live;
  let demoLiveVersion = 1;
  const live: Source<boolean> =
    config.twitch === null
      ? { get: () => Promise.resolve(always(demoLive, demoLiveVersion, now() + config.ttlMs.live)) }
      : new UpstreamCache('twitch', twitchLiveStatus(config.twitch, limits, now), {
          ttlMs: config.ttlMs.live,
          now,
          ...counted,
          ...shared('live'),
        });

  const tracks = demoTracks(options.releases);
  const rotation = config.demo.rotationMs;
  const nowPlaying: Source<NowPlaying> =
    config.azuracast === null
      ? {
          get: () => {
            const at = now();
            const turn = Math.floor(at / rotation);
            return Promise.resolve(always(demoNowPlaying(tracks, at, rotation), turn, (turn + 1) * rotation));
          },
        }
      : new UpstreamCache('azuracast', azuracastNowPlaying(config.azuracast, limits, now), {
          ttlMs: config.ttlMs.nowPlaying,
          now,
          ...counted,
          ...shared('nowplaying'),
        });

  // The calendars: the demo's, made from the residences for the demo's day, or the collective's.
  const schedule: Source<string[]> =
    config.schedule === null
      ? new UpstreamCache(
          'schedule',
          () => Promise.resolve([demoScheduleIcs(residences, options.anchor ?? new Date(now()))]),
          { ttlMs: Number.POSITIVE_INFINITY, now, ...counted },
        )
      : new UpstreamCache('schedule', calendarLoader('schedule', config.schedule.urls, limits), {
          ttlMs: config.ttlMs.schedule,
          now,
          ...counted,
          ...shared('schedule'),
        });

  // The events calendars: the demo's, made from its content file for the demo's day, or the collective's.
  const events: Source<string[]> =
    config.events === null
      ? new UpstreamCache(
          'events',
          () =>
            Promise.resolve([demoEventsIcs(loadDemoEvents(config.demo.eventsFile), options.anchor ?? new Date(now()))]),
          { ttlMs: Number.POSITIVE_INFINITY, now, ...counted },
        )
      : new UpstreamCache('events', calendarLoader('events', config.events.urls, limits), {
          ttlMs: config.ttlMs.events,
          now,
          ...counted,
          ...shared('events'),
        });

  const streams =
    config.soundcloud === null
      ? undefined
      : new KeyedUpstreamCache('soundcloud', soundcloudStreams(config.soundcloud, limits, now), {
          ttlMs: config.ttlMs.track,
          maxKeys: 1000,
          now,
          ...counted,
          ...shared('track'),
        });

  return {
    feed,
    episodes,
    close: () => feedWorker?.close() ?? Promise.resolve(),
    live,
    nowPlaying,
    schedule,
    events,
    residences,
    archivedAs: (link) => catalogue?.sameAs.get(link),
    track: (urn) => {
      const local = config.rss === null ? demo().tracks.get(urn) : undefined;
      if (local !== undefined) return Promise.resolve(always(local, 1, now() + config.ttlMs.track));
      if (streams !== undefined) return streams.get(urn);
      return Promise.reject(
        config.rss === null
          ? new ApiHttpError(404, 'track_not_found', 'Cette piste n’existe pas dans le flux de démonstration.')
          : new ApiHttpError(
              503,
              'track_unavailable',
              'La lecture par identifiant de piste n’est pas configurée sur ce serveur.',
            ),
      );
    },
    demoLive:
      config.twitch === null
        ? {
            set: (value) => {
              demoLive = value;
              demoLiveVersion += 1;
            },
          }
        : undefined,
  };
}
