import { readFileSync } from 'node:fs';
import fp from 'fastify-plugin';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { formatTime, href, residenceImages, siteConfig, type PageRef } from '@collectif/shared';
import type { SiteServerConfig } from '../config';
import type { CatalogueEpisode } from '../api/episodes/catalogue';
import { RepresentationMemo, sendRepresentation } from '../api/http/reply';
import { createSitePages } from './render/pages';

/**
 * What the site offers beside its pages (docs/feeds.md): a podcast feed per residence, the sitemap,
 * robots.txt and the web app manifest. Each is made from the feed's catalogue (or the declared
 * pages) once per version, and answered with an ETag like every /api answer.
 */

/** What a residence feed needs of the content file's residences. */
export interface FeedResidence {
  id: string;
  artist: string;
  show: string;
  description: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The residences of the content file; entries without id, artist or show are skipped. */
export function readFeedResidences(file: string): FeedResidence[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  return data.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const record = entry as Record<string, unknown>;
    const residence = {
      id: text(record.id),
      artist: text(record.artist),
      show: text(record.show),
      description: text(record.description),
    };
    return residence.id === '' || residence.artist === '' || residence.show === '' ? [] : [residence];
  });
}

/** Text for XML: escaped, and without the control characters XML 1.0 forbids. */
export function xmlText(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[<>&"']/g, (char) => `&#${String(char.charCodeAt(0))};`);
}

/** Plain text from a description that may hold a little HTML (tags dropped, breaks kept as spaces). */
function plain(value: string): string {
  return value
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** RFC 822, as RSS wants it: `Sun, 22 Nov 2026 19:00:00 GMT`. */
const rfc822 = (date: Date) => date.toUTCString();

const absolute = (origin: string, path: string) => new URL(path, origin).href;

/** A podcast RSS 2.0 feed (iTunes namespace) of one residence's episodes, newest first. */
export function residenceFeed(
  residence: FeedResidence,
  episodes: readonly CatalogueEpisode[],
  origin: string,
  now: Date,
): string {
  const page = absolute(origin, `/residences/${encodeURIComponent(residence.id)}`);
  const self = `${page}/feed.xml`;
  const image = absolute(origin, residenceImages(residence.id).card.replace('-400.webp', '-800.webp'));
  const description = plain(residence.description) || `${residence.show} : émission résidente de ${residence.artist}.`;
  const newest = episodes.find((episode) => episode.pubDate !== null)?.pubDate;
  const items = episodes.map((episode) => {
    const link = absolute(origin, `/emissions/${episode.slug}`);
    const date = episode.pubDate === null ? null : new Date(episode.pubDate);
    const summary = plain(episode.summary ?? '') || episode.description;
    return [
      '<item>',
      `<title>${xmlText(episode.description === '' ? episode.title : `${episode.title} · ${episode.description}`)}</title>`,
      `<link>${xmlText(link)}</link>`,
      `<guid isPermaLink="true">${xmlText(link)}</guid>`,
      `<description>${xmlText(summary)}</description>`,
      `<itunes:summary>${xmlText(summary)}</itunes:summary>`,
      date === null || Number.isNaN(date.getTime()) ? '' : `<pubDate>${rfc822(date)}</pubDate>`,
      `<enclosure url="${xmlText(absolute(origin, episode.url))}" length="${String(Math.max(0, Math.floor(episode.length ?? 0)))}" type="audio/mpeg"/>`,
      episode.duration > 0 ? `<itunes:duration>${formatTime(episode.duration)}</itunes:duration>` : '',
      episode.cover === '' ? '' : `<itunes:image href="${xmlText(absolute(origin, episode.cover))}"/>`,
      '<itunes:explicit>false</itunes:explicit>',
      '</item>',
    ]
      .filter((line) => line !== '')
      .join('');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:atom="http://www.w3.org/2005/Atom">',
    '<channel>',
    `<title>${xmlText(`${residence.artist} · ${residence.show}`)}</title>`,
    `<link>${xmlText(page)}</link>`,
    `<atom:link href="${xmlText(self)}" rel="self" type="application/rss+xml"/>`,
    `<description>${xmlText(description)}</description>`,
    '<language>fr</language>',
    `<copyright>${xmlText(siteConfig.name)}</copyright>`,
    `<lastBuildDate>${rfc822(newest === undefined || newest === null ? now : new Date(newest))}</lastBuildDate>`,
    `<itunes:author>${xmlText(residence.artist)}</itunes:author>`,
    `<itunes:owner><itunes:name>${xmlText(siteConfig.name)}</itunes:name><itunes:email>${xmlText(siteConfig.emails.contact)}</itunes:email></itunes:owner>`,
    `<itunes:image href="${xmlText(image)}"/>`,
    `<image><url>${xmlText(image)}</url><title>${xmlText(`${residence.artist} · ${residence.show}`)}</title><link>${xmlText(page)}</link></image>`,
    '<itunes:category text="Music"/>',
    '<itunes:explicit>false</itunes:explicit>',
    '<itunes:type>episodic</itunes:type>',
    ...items,
    '</channel>',
    '</rss>',
    '',
  ].join('\n');
}

const day = (iso: string | null | undefined) => (iso === null || iso === undefined ? undefined : iso.slice(0, 10));

/** The sitemap: every page without parameters, every residence, every episode, with `lastmod` from the feed. */
export function sitemap(
  pages: readonly PageRef[],
  residences: readonly FeedResidence[],
  episodes: readonly CatalogueEpisode[],
  origin: string,
): string {
  const newest = day(episodes[0]?.pubDate);
  const newestOf = new Map<string, string>();
  for (const episode of episodes) {
    for (const id of episode.residences) {
      const date = day(episode.pubDate);
      if (date !== undefined && !newestOf.has(id)) newestOf.set(id, date);
    }
  }
  const entries: { loc: string; lastmod?: string | undefined }[] = [];
  for (const page of pages) {
    if (page.path.includes(':')) continue;
    entries.push({
      loc: absolute(origin, href(page)),
      lastmod: page.path === '' || page.path === 'emissions' ? newest : undefined,
    });
  }
  for (const residence of residences) {
    entries.push({
      loc: absolute(origin, `/residences/${encodeURIComponent(residence.id)}`),
      lastmod: newestOf.get(residence.id),
    });
  }
  for (const episode of episodes) {
    entries.push({ loc: absolute(origin, `/emissions/${episode.slug}`), lastmod: day(episode.pubDate) });
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries.map(
      ({ loc, lastmod }) =>
        `<url><loc>${xmlText(loc)}</loc>${lastmod === undefined ? '' : `<lastmod>${lastmod}</lastmod>`}</url>`,
    ),
    '</urlset>',
    '',
  ].join('\n');
}

/** The page's colours (shared/src/styles/tokens.css: --color-bg, and the navbar's surface). */
export const THEME_COLORS = { background: '#0d0d0f', theme: '#0d0d0f' } as const;

/** The web app manifest: the site can be added to a phone's home screen (no service worker). */
export function webManifest(): object {
  const icon = (size: number, purpose: string) => ({
    src: `/assets/images/icon-${String(size)}.png`,
    sizes: `${String(size)}x${String(size)}`,
    type: 'image/png',
    purpose,
  });
  return {
    name: siteConfig.name,
    short_name: siteConfig.name.length <= 12 ? siteConfig.name : siteConfig.name.slice(0, 12),
    description: siteConfig.baseline,
    lang: 'fr',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: THEME_COLORS.background,
    theme_color: THEME_COLORS.theme,
    icons: [icon(192, 'any'), icon(512, 'any'), icon(192, 'maskable'), icon(512, 'maskable')],
  };
}

interface FeedsOptions {
  config: SiteServerConfig;
  residencesFile: string;
}

const feeds: FastifyPluginCallback<FeedsOptions> = (app, { config, residencesFile }, done) => {
  const residences = readFeedResidences(residencesFile);
  const origin = config.siteOrigin;
  const sitePages = createSitePages({
    remotes: config.remotes,
    distDirs: config.distDirs,
    warn: (message) => {
      app.log.warn(message);
    },
  });
  // Shared caches may keep them a minute; browsers revalidate with the ETag.
  const cacheControl = 'public, max-age=0, s-maxage=60, stale-while-revalidate=300';
  const send = (request: FastifyRequest, reply: FastifyReply, key: string, type: string, make: () => string) =>
    sendRepresentation(request, reply, memo.get(key, make), { type, cacheControl });

  // One text per key (a version of the feed, of the pages), made once.
  const memo = new RepresentationMemo();

  app.get<{ Params: { id: string } }>('/residences/:id/feed.xml', async (request, reply) => {
    const residence = residences.find((candidate) => candidate.id === request.params.id);
    if (residence === undefined) {
      return reply
        .code(404)
        .header('Cache-Control', 'no-cache')
        .type('text/plain; charset=utf-8')
        .send('Flux introuvable : cette résidence n’existe pas.');
    }
    const catalogue = await app.sources.episodes.get();
    const own = catalogue.value.episodes.filter((episode) => episode.residences.includes(residence.id));
    return send(
      request,
      reply,
      `feed|${residence.id}|${String(catalogue.version)}`,
      'application/rss+xml; charset=utf-8',
      () => residenceFeed(residence, own, origin, new Date(app.clock())),
    );
  });

  app.get('/sitemap.xml', async (request, reply) => {
    const [catalogue, { pages, version }] = await Promise.all([app.sources.episodes.get(), sitePages()]);
    return send(
      request,
      reply,
      `sitemap|${String(catalogue.version)}|${version}`,
      'application/xml; charset=utf-8',
      () => sitemap(pages, residences, catalogue.value.episodes, origin),
    );
  });

  app.get('/robots.txt', (request, reply) =>
    send(request, reply, 'robots', 'text/plain; charset=utf-8', () =>
      ['User-agent: *', 'Allow: /', 'Disallow: /api/', '', `Sitemap: ${absolute(origin, '/sitemap.xml')}`, ''].join(
        '\n',
      ),
    ),
  );

  app.get('/manifest.webmanifest', (request, reply) =>
    send(request, reply, 'manifest', 'application/manifest+json; charset=utf-8', () => JSON.stringify(webManifest())),
  );
  done();
};

export const feedsPlugin = fp(feeds, { name: 'site-feeds' });
