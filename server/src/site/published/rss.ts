import { siteConfig } from '@collectif/shared';
import { residencePictures } from '@collectif/shared/pictures';
import { PAGES, residenceFeedPath, type HrefOf } from '@collectif/shared/addresses';
import { plain, PODCAST_MIN_BYTES } from '../../feed';
import { writeXml, xmlSafe } from '../../files/xml';
import type { CatalogueEpisode } from '../../episodes/catalogue';
import { absolute } from './absolute';

/** A podcast feed per residence, `/residences/:id/feed.xml` (docs/published.md). */

/** What a residence feed needs of the content file's residences. */
export interface FeedResidence {
  id: string;
  artist: string;
  show: string;
  description: string;
  /** Its uploaded square picture, if any (docs/content.md, « Pictures »). */
  portrait?: string;
}

/** `itunes:duration` as h:mm:ss, the form every podcast app reads. */
export function itunesDuration(seconds: number): string {
  const total = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/** An MP3 at 128 kbit/s: the estimate when the feed claims no length (docs/published.md). */
const BYTES_PER_SECOND = 16_000;

/**
 * The enclosure's length in bytes: the one the collective's feed claims (every episode has one above
 * PODCAST_MIN_BYTES, or it would not be an episode); else an estimate from the duration; else that
 * threshold, a true lower bound. Never 0, which some validators refuse (docs/published.md).
 */
export function enclosureBytes(episode: Pick<CatalogueEpisode, 'length' | 'duration'>): number {
  if (episode.length !== undefined && Number.isSafeInteger(episode.length) && episode.length > 0) return episode.length;
  if (Number.isFinite(episode.duration) && episode.duration > 0) return Math.ceil(episode.duration * BYTES_PER_SECOND);
  return PODCAST_MIN_BYTES;
}

/** The Podcast Index namespace, whose `<podcast:chapters>` names an episode's chapters file. */
export const PODCAST_NAMESPACE = 'https://podcastindex.org/namespace/1.0';

/** An item's `<podcast:chapters>`, for an episode whose chapters file is at `path` (docs/tracklists.md). */
function chaptersOf(path: string | undefined, origin: string): Record<string, unknown> {
  if (path === undefined) return {};
  return { 'podcast:chapters': { '@_url': xmlSafe(absolute(origin, path)), '@_type': 'application/json+chapters' } };
}

/** RFC 822, as RSS wants it: `Sun, 22 Nov 2026 19:00:00 GMT`. */
const rfc822 = (date: Date) => date.toUTCString();

/**
 * A podcast RSS 2.0 feed (iTunes namespace) of one residence's episodes, newest first. Its links
 * are the pages' addresses in the table the remotes declare (`href`); without the residence's page
 * the channel links to the home page, without the episode page an item has no link and its GUID is
 * its audio file.
 */
export function residenceFeed(
  residence: FeedResidence,
  episodes: readonly CatalogueEpisode[],
  origin: string,
  now: Date,
  href: HrefOf,
  chapters: (slug: string) => string | undefined = () => undefined,
): string {
  const page = absolute(origin, href(PAGES.residence, { id: residence.id }) ?? '/');
  const self = absolute(origin, residenceFeedPath(residence.id));
  // The square picture (Apple wants a square one), not the 1600×600 header (docs/published.md).
  const image = absolute(origin, residencePictures(residence).cardLarge);
  const description = plain(residence.description) || `${residence.show} : émission résidente de ${residence.artist}.`;
  const newest = episodes.find((episode) => episode.pubDate !== null)?.pubDate;
  const title = xmlSafe(`${residence.artist} · ${residence.show}`);
  const item = episodes.map((episode) => {
    const path = href(PAGES.episode, { slug: episode.slug });
    const link = path === null ? null : absolute(origin, path);
    const date = episode.pubDate === null ? null : new Date(episode.pubDate);
    const summary = xmlSafe(plain(episode.summary ?? '') || episode.show);
    const audio = xmlSafe(absolute(origin, episode.url));
    return {
      title: xmlSafe(episode.show === '' ? episode.artist : `${episode.artist} · ${episode.show}`),
      ...(link === null ? {} : { link }),
      guid: link === null ? { '@_isPermaLink': 'false', '#text': audio } : { '@_isPermaLink': 'true', '#text': link },
      description: summary,
      'itunes:summary': summary,
      ...(date === null || Number.isNaN(date.getTime()) ? {} : { pubDate: rfc822(date) }),
      enclosure: {
        '@_url': audio,
        '@_length': String(enclosureBytes(episode)),
        '@_type': 'audio/mpeg',
      },
      ...(Number.isFinite(episode.duration) && episode.duration > 0
        ? { 'itunes:duration': itunesDuration(episode.duration) }
        : {}),
      ...(episode.cover === '' ? {} : { 'itunes:image': { '@_href': xmlSafe(absolute(origin, episode.cover)) } }),
      'itunes:explicit': 'false',
      ...chaptersOf(chapters(episode.slug), origin),
    };
  });
  return writeXml({
    rss: {
      '@_version': '2.0',
      '@_xmlns:itunes': 'http://www.itunes.com/dtds/podcast-1.0.dtd',
      '@_xmlns:atom': 'http://www.w3.org/2005/Atom',
      '@_xmlns:podcast': PODCAST_NAMESPACE,
      channel: {
        title,
        link: page,
        'atom:link': { '@_href': self, '@_rel': 'self', '@_type': 'application/rss+xml' },
        description: xmlSafe(description),
        language: 'fr',
        copyright: siteConfig.name,
        lastBuildDate: rfc822(newest === undefined || newest === null ? now : new Date(newest)),
        'itunes:author': xmlSafe(residence.artist),
        'itunes:owner': { 'itunes:name': siteConfig.name, 'itunes:email': siteConfig.emails.contact },
        'itunes:image': { '@_href': image },
        image: { url: image, title, link: page },
        'itunes:category': { '@_text': 'Music' },
        'itunes:explicit': 'false',
        'itunes:type': 'episodic',
        item,
      },
    },
  });
}
