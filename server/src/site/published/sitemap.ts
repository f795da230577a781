import type { PageRef } from '@collectif/shared';
import { fillPath, hrefOf, PAGES } from '@collectif/shared/addresses';
import { writeXml, xmlSafe } from '../../files/xml';
import type { CatalogueEpisode } from '../../episodes/catalogue';
import type { FeedResidence } from './rss';
import { absolute } from './absolute';

/** What crawlers read: `/sitemap.xml` and `/robots.txt` (docs/published.md). */

const day = (iso: string | null | undefined) => (iso === null || iso === undefined ? undefined : iso.slice(0, 10));

/**
 * The sitemap: every page without parameters (the events' list and the artists' among them), every
 * residence, every episode, with `lastmod` from the feed, every event the calendars hold (no
 * `lastmod`: a calendar says nothing reliable of when an event changed), and every played artist
 * the index says is worth it (docs/artists.md, « Indexed »: the others' pages are `noindex`).
 */
export function sitemap(
  pages: readonly PageRef[],
  residences: readonly FeedResidence[],
  episodes: readonly CatalogueEpisode[],
  origin: string,
  events: readonly { slug: string }[] = [],
  playedArtists: readonly string[] = [],
): string {
  const newest = day(episodes[0]?.pubDate);
  const newestOf = new Map<string, string>();
  for (const episode of episodes) {
    for (const id of episode.residences) {
      const date = day(episode.pubDate);
      if (date !== undefined && !newestOf.has(id)) newestOf.set(id, date);
    }
  }
  const href = hrefOf(pages);
  const entries: { loc: string; lastmod?: string | undefined }[] = [];
  const add = (path: string | null, lastmod: string | undefined) => {
    if (path !== null) entries.push({ loc: absolute(origin, path), lastmod });
  };
  // The home and the archive change with each new episode.
  const withEpisodes = new Set([PAGES.home, PAGES.episodes].map(({ remote, module }) => `${remote}/${module}`));
  for (const page of pages) {
    // Pages with parameters are listed below, one per subject; pages not for search engines never.
    if (page.path.includes(':') || page.noindex === true) continue;
    add(fillPath(page.path), withEpisodes.has(`${page.remote}/${page.module}`) ? newest : undefined);
  }
  for (const residence of residences) add(href(PAGES.residence, { id: residence.id }), newestOf.get(residence.id));
  for (const episode of episodes) add(href(PAGES.episode, { slug: episode.slug }), day(episode.pubDate));
  for (const event of events) add(href(PAGES.event, { slug: event.slug }), undefined);
  for (const slug of playedArtists) add(href(PAGES.playedArtist, { slug }), undefined);
  return writeXml({
    urlset: {
      '@_xmlns': 'http://www.sitemaps.org/schemas/sitemap/0.9',
      url: entries.map(({ loc, lastmod }) => ({ loc: xmlSafe(loc), ...(lastmod === undefined ? {} : { lastmod }) })),
    },
  });
}

/** robots.txt: everything is allowed, /api too (a crawler that runs the pages' scripts needs their answers). */
export function robotsTxt(origin: string): string {
  return ['User-agent: *', 'Allow: /', '', `Sitemap: ${absolute(origin, '/sitemap.xml')}`, ''].join('\n');
}
