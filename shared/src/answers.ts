import { releaseUrl } from './config';
import type { PodcastItem, Release } from './types';

/*
 * RTK Query types what /api answers but does not check it. A proxy error page, a half-deployed server
 * or a broken upstream can answer anything, and a block must then show its French error state
 * instead of taking the whole page down. Each reader gives the usable part of an answer, or null when
 * nothing in it is usable.
 */

type Fields = Record<string, unknown>;

function fieldsOf(value: unknown): Fields | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : null;
}

function readList<T>(data: unknown, readItem: (item: unknown) => T | null): T[] | null {
  if (!Array.isArray(data)) return null;
  const items = data.flatMap((item: unknown) => {
    const read = readItem(item);
    return read === null ? [] : [read];
  });
  // A list that had items but none usable is a broken answer, not an empty feed.
  return items.length === 0 && data.length > 0 ? null : items;
}

function readPodcast(value: unknown): PodcastItem | null {
  const item = fieldsOf(value);
  if (item === null) return null;
  const { url, trackUrn, duration, title, description, cover, link, pubDate } = item;
  if (typeof url !== 'string' || typeof title !== 'string' || typeof description !== 'string') return null;
  if (typeof link !== 'string' || link === '') return null;
  const urn = typeof trackUrn === 'string' && trackUrn !== '' ? trackUrn : undefined;
  // The player needs something to play.
  if (url.trim() === '' && urn === undefined) return null;
  return {
    ...(urn === undefined ? {} : { trackUrn: urn }),
    url,
    duration: typeof duration === 'number' && Number.isFinite(duration) && duration >= 0 ? duration : 0,
    title,
    description,
    cover: typeof cover === 'string' ? cover : '',
    link,
    pubDate: typeof pubDate === 'string' ? pubDate : null,
  };
}

/** The podcasts of a GET /api/podcasts answer. */
export function readPodcasts(data: unknown): PodcastItem[] | null {
  return readList(data, readPodcast);
}

function readRelease(value: unknown): Release | null {
  const item = fieldsOf(value);
  if (item === null) return null;
  const { href, image, title, artist } = item;
  if (typeof href !== 'string' || typeof image !== 'string' || typeof title !== 'string') return null;
  if (typeof artist !== 'string') return null;
  try {
    // The card links to the sales page built from href: an href that makes no address is unusable.
    releaseUrl(href);
  } catch {
    return null;
  }
  return { href, image, title, artist };
}

/** The releases of a GET /api/releases answer. */
export function readReleases(data: unknown): Release[] | null {
  return readList(data, readRelease);
}

/** The flag of a GET /api/islive answer; anything but `{ "live": true | false }` is unusable. */
export function readLiveStatus(data: unknown): boolean | null {
  const live = fieldsOf(data)?.live;
  return typeof live === 'boolean' ? live : null;
}
