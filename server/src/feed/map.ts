import type { PodcastItem } from '@collectif/shared';
import { nodeAttribute, nodeText, type RawFeedItem } from './item';
import { safeHtml } from './text';

/** docs/site.md, « The feed »: an item counts as a podcast only above this enclosure length (bytes). */
export const PODCAST_MIN_BYTES = 10_000_000;

/** The cover shown when an item has no image. */
export const DEFAULT_COVER = '/assets/images/default-cover.webp';

const TRACK_ID = /tracks\/(\d+)/;

/** `soundcloud:tracks:{id}` when the guid holds `tracks/{digits}`, else undefined. */
export function trackUrnFromGuid(guid: string): string | undefined {
  const match = TRACK_ID.exec(guid);
  return match?.[1] === undefined ? undefined : `soundcloud:tracks:${match[1]}`;
}

/** Separators with a space on each side, in the order a title is searched for them. */
const SPACED_SEPARATOR = /\s[-–—]\s/;

/**
 * The rule of docs/feed.md (« Title »): the title is cut at the first hyphen,
 * en dash or em dash with spaces around it (« Basse-Cour - Nuit dub » gives « Basse-Cour » and
 * « Nuit dub »), and at the first bare hyphen only when there is none (« Axonberg-Nuits de basse »
 * gives « Axonberg » and « Nuits de basse »). The first part is the title (artist line), the second
 * the description, which falls back to the original description when empty.
 */
export function splitTitle(title: string, description: string): { artist: string; show: string } {
  const spaced = SPACED_SEPARATOR.exec(title);
  const at = spaced === null ? title.indexOf('-') : spaced.index;
  if (at === -1) return { artist: title.trim(), show: description.trim() };
  const second = title.slice(at + (spaced === null ? 1 : spaced[0].length)).trim();
  return { artist: title.slice(0, at).trim(), show: second === '' ? description.trim() : second };
}

function seconds(text: string): number {
  const value = text.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.floor(Number(value));
  if (!/^\d+(:\d{1,2}){1,2}$/.test(value)) return 0;
  return value.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/**
 * Seconds from `itunes:duration`: h:mm:ss, mm:ss or a number of seconds; 0 when unreadable. A
 * value too large to be a whole number of seconds (400 digits give Infinity, which JSON writes as
 * null) is unreadable too: the duration is always a finite number (docs/feed.md).
 */
export function parseDuration(text: string): number {
  const result = seconds(text);
  return Number.isSafeInteger(result) ? result : 0;
}

/** The enclosure length the feed claims (it is not always truthful; the rule applies to it anyway). */
export function enclosureLength(item: RawFeedItem): number {
  const length = Number(nodeAttribute(item.enclosure, 'length'));
  return Number.isFinite(length) ? length : 0;
}

/** docs/site.md, « The feed »: a podcast has an enclosure longer than 10,000,000 bytes and a URL to play. */
export function isPodcast(item: RawFeedItem): boolean {
  return enclosureLength(item) > PODCAST_MIN_BYTES && (nodeAttribute(item.enclosure, 'url') ?? '') !== '';
}

function isoDate(text: string): string | null {
  if (text === '') return null;
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** A podcast as the feed gives it: with the item's own description as safe HTML, which episode pages show. */
export type FeedPodcast = PodcastItem & {
  summary?: string;
  /** The enclosure's length in bytes, as the feed claims it (a podcast feed republishes it). */
  length?: number;
};

/** One feed item as the pages and the player use it (docs/site.md, « The feed »). */
export function mapFeedItem(item: RawFeedItem, defaultCover: string = DEFAULT_COVER): FeedPodcast {
  const { artist, show } = splitTitle(nodeText(item.title), nodeText(item.description));
  const url = nodeAttribute(item.enclosure, 'url') ?? '';
  const cover = nodeAttribute(item['itunes:image'], 'href') ?? '';
  const trackUrn = trackUrnFromGuid(nodeText(item.guid));
  const link = nodeText(item.link);
  const summary = safeHtml(nodeText(item['itunes:summary']) || nodeText(item.description));
  const length = Math.floor(enclosureLength(item));
  return {
    ...(trackUrn === undefined ? {} : { trackUrn }),
    url,
    duration: parseDuration(nodeText(item['itunes:duration'])),
    artist,
    show,
    cover: cover === '' ? defaultCover : cover,
    // The link identifies an item when results are merged; an item without one is still unique.
    link: link === '' ? url : link,
    pubDate: isoDate(nodeText(item.pubDate)),
    ...(summary === '' ? {} : { summary }),
    // Republished by the residences' podcast feeds (docs/published.md); left out when the feed gives none.
    ...(length > 0 ? { length } : {}),
  };
}

/** Newest first; items without a readable date keep their feed order, after the dated ones. */
export function sortNewestFirst<T extends PodcastItem>(items: readonly T[]): T[] {
  const time = (item: PodcastItem) => (item.pubDate === null ? -Infinity : Date.parse(item.pubDate));
  return items
    .map((item, index) => ({ item, index, time: time(item) }))
    .sort((a, b) => (a.time === b.time ? a.index - b.index : b.time - a.time))
    .map(({ item }) => item);
}

/** The podcasts of a feed, mapped, newest first. */
export function podcastsFromItems(items: readonly RawFeedItem[], defaultCover: string = DEFAULT_COVER): FeedPodcast[] {
  return sortNewestFirst(items.filter(isPodcast).map((item) => mapFeedItem(item, defaultCover)));
}
