import MiniSearch from 'minisearch';
import { releaseUrl } from '@collectif/shared/config';
import type { Chapters, Episode, EpisodeDetail, EpisodesPage, StyleCount, TracklistRow } from '@collectif/shared';
import { longSlug, plain, withEpisodeFacts, type FeedPodcast, type ResidenceFacts } from '../feed';

/**
 * The archive (docs/episodes.md): the feed's podcasts as episodes with their slugs, residences and
 * styles, and a MiniSearch index over them, built once per version of the feed.
 */

/** Episodes per page of the archive. */
export const EPISODES_PAGE_SIZE = 24;
/** A search longer than this is cut (a 10 KB `q` is not refused, it is read up to here). */
export const MAX_QUERY_LENGTH = 100;

export interface EpisodeQuery {
  q?: string;
  style?: string;
  residence?: string;
  page?: number;
}

/** An episode as the server keeps it: with the enclosure's length the API does not answer. */
export type CatalogueEpisode = Episode & { length?: number };

/** One row of a tracklist as the content keeps it (shared/src/schemas/content.mjs, `trackSchema`). */
export interface TrackEntry {
  start: number;
  artist: string;
  title: string;
  release?: string;
}

/** An episode's tracklist as the content keeps it, named by the episode's slug. */
export interface TracklistEntry {
  episode: string;
  tracks: readonly TrackEntry[];
}

/** Other episodes named on a track's row: at most this many (docs/tracklists.md). */
export const ALSO_PLAYED_MAX = 3;

export interface Catalogue {
  /** Newest first. */
  episodes: readonly CatalogueEpisode[];
  /** The slug of the episode with this link. */
  slugOf(link: string): string | undefined;
  /** By slug, and by each episode's long slug too (docs/episodes.md, « Slugs »). */
  find(slug: string): Episode | undefined;
  /** An episode with its tracklist's rows, each naming the other episodes that played its artist. */
  detail(slug: string): EpisodeDetail | undefined;
  /** An episode's tracklist as Podcast Index JSON chapters, or undefined without one. */
  chapters(slug: string): Chapters | undefined;
  /** Whether the episode of this slug has a tracklist. */
  hasTracklist(slug: string): boolean;
  /** The tracklists it was made with, as the content keeps them (the played artists' index reads them). */
  tracklists: readonly TracklistEntry[];
  /**
   * The tracklists' version it was made with ('' without): with the feed's version, it names
   * every answer holding a tracklist's words, so that none is kept under another version's name.
   */
  revision: string;
  styles: readonly StyleCount[];
  /** One page of the episodes a search and filters give. */
  query(query: EpisodeQuery): EpisodesPage;
}

/** Words shorter than this are matched exactly or as a word's beginning, never with a typo. */
export const FUZZY_MIN_LENGTH = 5;
/** A longer word may differ by a fifth of its letters (rounded: 1 up to 7 letters, 2 from 8). */
const FUZZY_SHARE = 0.2;

/** Case and accents do not matter: « Électro » finds « electro ». */
export function searchTerm(term: string): string {
  return term
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** The search text as it is used: trimmed, cut at MAX_QUERY_LENGTH. */
/**
 * The name of the catalogue's version, for every answer that holds its words (the episodes, their
 * chapters, a residence's feed): the feed's version and the tracklists' it was made with.
 */
export const catalogueVersion = ({ version, value }: { version: number; value: Catalogue }): string =>
  `${String(version)}.${value.revision}`;

export function cleanQuery(q: string | undefined): string {
  return (q ?? '').trim().slice(0, MAX_QUERY_LENGTH).trim();
}

const same = (a: string, b: string) => searchTerm(a.trim()) === searchTerm(b.trim());

/** « Artiste — Titre », a track's line in a chapter and in the player. */
export const trackLine = ({ artist, title }: Pick<TrackEntry, 'artist' | 'title'>) => `${artist} — ${title}`;

export function buildCatalogue(
  podcasts: readonly FeedPodcast[],
  residences: readonly ResidenceFacts[],
  tracklists: readonly TracklistEntry[] = [],
  revision = '',
): Catalogue {
  const episodes: CatalogueEpisode[] = withEpisodeFacts(podcasts, residences);
  const bySlug = new Map<string, Episode>();
  const byLongSlug = new Map<string, Episode>();
  const byLink = new Map(episodes.map((episode) => [episode.link, episode.slug]));
  for (const episode of episodes) {
    bySlug.set(episode.slug, episode);
    byLongSlug.set(longSlug(episode), episode);
  }

  // The tracklists of the feed's episodes (one of an episode no longer in the feed waits, unused),
  // and for each artist the episodes that played it, newest first (docs/tracklists.md).
  const tracksOf = new Map<string, readonly TrackEntry[]>();
  for (const { episode, tracks } of tracklists) {
    const found = bySlug.get(episode) ?? byLongSlug.get(episode);
    if (found !== undefined) tracksOf.set(found.slug, tracks);
  }
  const playedBy = new Map<string, Episode[]>();
  for (const episode of episodes) {
    for (const artist of new Set((tracksOf.get(episode.slug) ?? []).map((track) => searchTerm(track.artist.trim())))) {
      const list = playedBy.get(artist) ?? [];
      list.push(episode);
      playedBy.set(artist, list);
    }
  }
  const rowsOf = (episode: Episode): TracklistRow[] | undefined =>
    tracksOf.get(episode.slug)?.map((track) => ({
      ...track,
      also: (playedBy.get(searchTerm(track.artist.trim())) ?? [])
        .filter((other) => other.slug !== episode.slug)
        .slice(0, ALSO_PLAYED_MAX)
        .map(({ slug, artist, show }) => ({ slug, artist, show })),
    }));

  const counts = new Map<string, number>();
  for (const episode of episodes) for (const style of episode.styles) counts.set(style, (counts.get(style) ?? 0) + 1);
  const styles = [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => a.name.localeCompare(b.name, 'fr'));

  let index: MiniSearch<Episode> | undefined;
  const search = (q: string): Episode[] => {
    if (index === undefined) {
      index = new MiniSearch<Episode>({
        idField: 'slug',
        fields: ['artist', 'show', 'summary', 'tracks'],
        // The summary is safe HTML: its words, not its tags (« <br>dub » would be one word). The
        // tracks: every artist and title its tracklist played.
        extractField: (episode, field) => {
          if (field === 'summary') return plain(episode.summary ?? '');
          if (field === 'tracks') {
            return (tracksOf.get(episode.slug) ?? []).map((track) => `${track.artist} ${track.title}`).join(' ');
          }
          return String(episode[field as keyof Episode] ?? '');
        },
        processTerm: searchTerm,
        // Every word required, each matching the start of a word; typos forgiven only in a word long
        // enough to carry one (« dub » must not find « du » within one edit: docs/episodes.md).
        searchOptions: {
          boost: { artist: 3, show: 2 },
          prefix: true,
          fuzzy: (term) => (term.length >= FUZZY_MIN_LENGTH ? FUZZY_SHARE : false),
          combineWith: 'AND',
        },
      });
      index.addAll(episodes);
    }
    return index
      .search(q)
      .map((result) => bySlug.get(String(result.id)))
      .filter((episode): episode is Episode => episode !== undefined);
  };

  return {
    episodes,
    styles,
    slugOf: (link) => byLink.get(link),
    // A link shared with an episode's long slug keeps working if the episode's slug is now the short one.
    find: (slug) => bySlug.get(slug) ?? byLongSlug.get(slug),
    detail(slug) {
      const episode = bySlug.get(slug) ?? byLongSlug.get(slug);
      if (episode === undefined) return undefined;
      const tracks = rowsOf(episode);
      return tracks === undefined ? episode : { ...episode, tracks };
    },
    chapters(slug) {
      const episode = bySlug.get(slug) ?? byLongSlug.get(slug);
      if (episode === undefined) return undefined;
      const tracks = tracksOf.get(episode.slug);
      if (tracks === undefined) return undefined;
      return {
        version: '1.2.0',
        author: episode.artist,
        title: episode.show === '' ? episode.artist : `${episode.artist} · ${episode.show}`,
        chapters: tracks.map((track) => ({
          startTime: track.start,
          title: trackLine(track),
          ...(track.release === undefined ? {} : { url: releaseUrl(track.release) }),
        })),
      };
    },
    hasTracklist: (slug) => tracksOf.has(slug),
    tracklists,
    revision,
    query({ q, style, residence, page = 1 }) {
      const text = cleanQuery(q);
      let found: readonly Episode[] = text === '' ? episodes : search(text);
      if (style !== undefined && style.trim() !== '') {
        found = found.filter((episode) => episode.styles.some((name) => same(name, style)));
      }
      if (residence !== undefined && residence.trim() !== '') {
        found = found.filter((episode) => episode.residences.some((id) => same(id, residence)));
      }
      const pages = Math.max(1, Math.ceil(found.length / EPISODES_PAGE_SIZE));
      // A page past the last is answered empty, with its number: the page says so (docs/episodes.md).
      const current = Math.max(1, Math.floor(page));
      const start = (current - 1) * EPISODES_PAGE_SIZE;
      return {
        items: found.slice(start, start + EPISODES_PAGE_SIZE),
        total: found.length,
        page: current,
        pages,
        pageSize: EPISODES_PAGE_SIZE,
      };
    },
  };
}
