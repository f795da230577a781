import { escapeHtml } from '@collectif/shared/seo';
import { DEFAULT_COVER, sortNewestFirst, withEpisodeFacts, type FeedPodcast, type ResidenceFacts } from '../feed';
import type { TracklistEntry } from '../episodes/catalogue';
import type { ArchiveRecord } from './record';

/**
 * The published archives as episodes of their residences (docs/archive.md, « A replay like the
 * others »): each a podcast of the archive (its MP3 the audio, its exact length the enclosure's, its
 * chapters the tracklist), merged into the feed's before the catalogue is built, so that the
 * residence's page, `/emissions`, the episode's page, the feeds and the sitemap have it as any
 * other. When the feed has the same show (SoundCloud's copy: an item of the same residence
 * published within SAME_SHOW_DAYS after the slot's start, the first such), the two are one
 * episode: SoundCloud's, with the archive's chapters as its tracklist unless the content has one.
 */

/** An item of the feed published this long after a slot's start may be the same show. */
export const SAME_SHOW_DAYS = 14;

/** The archives an instance knows: published ones, and a name of their version. */
export interface ArchivedShows {
  /** Changes whenever the list or a record changes ('' with none). */
  revision: string;
  records: readonly ArchiveRecord[];
  /** SITE_ORIGIN: an archive's episode is linked to its own page there. */
  origin: string;
  /** The residences' covers, by id (a path of the site). */
  covers?: Readonly<Record<string, string>>;
}

export const NO_ARCHIVES: ArchivedShows = { revision: '', records: [], origin: 'http://localhost' };

export interface WithArchives {
  podcasts: FeedPodcast[];
  /** The archives' chapters as tracklists, by the slug of the episode that carries them. */
  tracklists: TracklistEntry[];
  /** The feed item's link → the archive's id, for each show the feed and an archive both have. */
  sameAs: Map<string, string>;
}

const dayFr = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});
const hourFr = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' });

/** 3725 → « 1:02:05 », 125 → « 2:05 ». */
function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${String(h)}:${pad(m)}:${pad(s % 60)}` : `${String(m)}:${pad(s % 60)}`;
}

/** The episode's text: when it was live, and what is missing (gaps, a start out of the window). */
export function archiveSummary(record: ArchiveRecord): string {
  const start = new Date(record.slot.start);
  // The residents' words first, as text: escaped, their lines kept.
  const own = record.text === undefined ? [] : [escapeHtml(record.text).replace(/\n/g, '<br>')];
  const lines = [
    ...own,
    `Enregistré en direct le ${dayFr.format(start)}, de ${hourFr.format(start)} à ${hourFr.format(new Date(record.slot.end))}.`,
  ];
  if (record.truncated !== null) {
    lines.push(
      `Le début de l’émission (${clock(Math.round(record.truncated.missing))}) n’était plus gardé quand elle s’est terminée : l’enregistrement commence à ${hourFr.format(new Date(record.truncated.from))}.`,
    );
  }
  for (const gap of record.gaps) {
    lines.push(`Le direct a été interrompu ${clock(Math.round(gap.seconds))} à ${clock(gap.at)} : ce passage manque.`);
  }
  return lines.join('<br>');
}

/** The podcast of an archive, as the feed's items are. */
export function archivePodcast(record: ArchiveRecord, shows: ArchivedShows): FeedPodcast {
  return {
    url: `/archives/${record.id}.mp3`,
    duration: record.seconds,
    artist: record.artist,
    show: record.title,
    cover: shows.covers?.[record.residence] ?? DEFAULT_COVER,
    link: new URL(`/emissions/${record.id}`, shows.origin).href,
    pubDate: record.slot.end,
    summary: archiveSummary(record),
    length: record.bytes,
  };
}

const tracksOf = (record: ArchiveRecord) =>
  record.chapters.map((chapter) => ({
    start: Math.floor(chapter.start),
    artist: chapter.artist,
    title: chapter.title,
  }));

/** The feed's podcasts with the archives merged in (newest first, as the feed's). */
export function withArchives(
  podcasts: readonly FeedPodcast[],
  shows: ArchivedShows,
  residences: readonly ResidenceFacts[],
): WithArchives {
  if (shows.records.length === 0) return { podcasts: [...podcasts], tracklists: [], sameAs: new Map() };
  const facts = withEpisodeFacts(podcasts, residences);
  const taken = new Set<string>();
  const added: FeedPodcast[] = [];
  const tracklists: TracklistEntry[] = [];
  const sameAs = new Map<string, string>();
  // Oldest slot first: each feed item is the same show as the archive just before it.
  for (const record of [...shows.records].sort((a, b) => Date.parse(a.slot.start) - Date.parse(b.slot.start))) {
    const start = Date.parse(record.slot.start);
    const same = facts
      .filter((item) => {
        const at = item.pubDate === null ? Number.NaN : Date.parse(item.pubDate);
        return (
          !taken.has(item.link) &&
          item.residences.includes(record.residence) &&
          at >= start &&
          at <= start + SAME_SHOW_DAYS * 24 * 3600_000
        );
      })
      .sort((a, b) => Date.parse(a.pubDate ?? '') - Date.parse(b.pubDate ?? ''))[0];
    if (same !== undefined) {
      taken.add(same.link);
      sameAs.set(same.link, record.id);
      if (record.chapters.length > 0) tracklists.push({ episode: same.slug, tracks: tracksOf(record) });
      continue;
    }
    added.push(archivePodcast(record, shows));
    if (record.chapters.length > 0) tracklists.push({ episode: record.id, tracks: tracksOf(record) });
  }
  return { podcasts: sortNewestFirst([...podcasts, ...added]), tracklists, sameAs };
}
