import fp from 'fastify-plugin';
import { decodeHTML } from 'entities';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { colors, RESIDENCE_PICTURES, residenceImages, siteConfig, type PageRef } from '@collectif/shared';
import { fillPath, hrefOf, PAGES, residenceFeedPath, type HrefOf } from '@collectif/shared/addresses';
import { PODCAST_MIN_BYTES } from '../feed';
import { writeXml, xmlSafe } from '../xml';
import type { SiteServerConfig } from '../config';
import type { CatalogueEpisode } from '../api/episodes/catalogue';
import { readResidences } from '../residences';
import { RepresentationMemo, sendRepresentation } from '../api/http/reply';

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

/** The residences of the content file (server/src/residences.ts). */
export function readFeedResidences(file: string): FeedResidence[] {
  return readResidences(file).residences.map(({ id, artist, show, description }) => ({
    id,
    artist,
    show,
    description,
  }));
}

export { xmlSafe };

/**
 * Plain text from a description that may hold a little HTML: tags dropped, breaks kept as spaces,
 * entities read as a browser reads them (`entities`: every named and numeric one, so that `&amp;` is
 * one `&` once escaped again for XML, not `&amp;amp;`, and `&eacute;` an é).
 */
export function plain(value: string): string {
  return decodeHTML(value.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/** `itunes:duration` as h:mm:ss, the form every podcast app reads. */
export function itunesDuration(seconds: number): string {
  const total = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/** An MP3 at 128 kbit/s: the estimate when the feed claims no length (docs/feeds.md). */
const BYTES_PER_SECOND = 16_000;

/**
 * The enclosure's length in bytes: the one the collective's feed claims (every episode has one above
 * PODCAST_MIN_BYTES, or it would not be an episode); else an estimate from the duration; else that
 * threshold, a true lower bound. Never 0, which some validators refuse (docs/feeds.md).
 */
export function enclosureBytes(episode: Pick<CatalogueEpisode, 'length' | 'duration'>): number {
  if (episode.length !== undefined && Number.isSafeInteger(episode.length) && episode.length > 0) return episode.length;
  if (Number.isFinite(episode.duration) && episode.duration > 0) return Math.ceil(episode.duration * BYTES_PER_SECOND);
  return PODCAST_MIN_BYTES;
}

/** RFC 822, as RSS wants it: `Sun, 22 Nov 2026 19:00:00 GMT`. */
const rfc822 = (date: Date) => date.toUTCString();

const absolute = (origin: string, path: string) => new URL(path, origin).href;

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
): string {
  const page = absolute(origin, href(PAGES.residence, { id: residence.id }) ?? '/');
  const self = absolute(origin, residenceFeedPath(residence.id));
  // The square picture (Apple wants a square one), not the 1600×600 header (docs/feeds.md).
  const { card, cardLarge } = RESIDENCE_PICTURES;
  const image = absolute(
    origin,
    residenceImages(residence.id).card.replace(`${card.suffix}.webp`, `${cardLarge.suffix}.webp`),
  );
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
    };
  });
  return writeXml({
    rss: {
      '@_version': '2.0',
      '@_xmlns:itunes': 'http://www.itunes.com/dtds/podcast-1.0.dtd',
      '@_xmlns:atom': 'http://www.w3.org/2005/Atom',
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
  const href = hrefOf(pages);
  const entries: { loc: string; lastmod?: string | undefined }[] = [];
  const add = (path: string | null, lastmod: string | undefined) => {
    if (path !== null) entries.push({ loc: absolute(origin, path), lastmod });
  };
  // The home and the archive change with each new episode.
  const withEpisodes = new Set([PAGES.home, PAGES.episodes].map(({ remote, module }) => `${remote}/${module}`));
  for (const page of pages) {
    if (page.path.includes(':')) continue;
    add(fillPath(page.path), withEpisodes.has(`${page.remote}/${page.module}`) ? newest : undefined);
  }
  for (const residence of residences) add(href(PAGES.residence, { id: residence.id }), newestOf.get(residence.id));
  for (const episode of episodes) add(href(PAGES.episode, { slug: episode.slug }), day(episode.pubDate));
  return writeXml({
    urlset: {
      '@_xmlns': 'http://www.sitemaps.org/schemas/sitemap/0.9',
      url: entries.map(({ loc, lastmod }) => ({ loc: xmlSafe(loc), ...(lastmod === undefined ? {} : { lastmod }) })),
    },
  });
}

/** The page's colour (the site's tokens: --color-bg), behind the installed site and its bars. */
export const THEME_COLORS = { background: colors.bg, theme: colors.bg } as const;

/** What a home screen shows under an icon without cutting it. */
const SHORT_NAME_LENGTH = 12;

/**
 * The name under the icon (docs/feeds.md, « Installable »): the whole name when it fits, else its
 * last whole words that fit (« Collectif Garonne » gives « Garonne »), never a word cut in two
 * unless one word alone is too long.
 */
export function shortName(name: string): string {
  const words = name.trim().split(/\s+/);
  let short = '';
  for (const word of words.reverse()) {
    const longer = short === '' ? word : `${word} ${short}`;
    if (longer.length > SHORT_NAME_LENGTH) break;
    short = longer;
  }
  return short === '' ? name.trim().slice(0, SHORT_NAME_LENGTH) : short;
}

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
    short_name: shortName(siteConfig.name),
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
  // As the pages (docs/rendering.md, « Cache »): browsers revalidate with the ETag, shared caches keep 10 s.
  const cacheControl = 'public, max-age=0, s-maxage=10, stale-while-revalidate=60';
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
    const [catalogue, { pages, version }] = await Promise.all([app.sources.episodes.get(), app.sitePages()]);
    const own = catalogue.value.episodes.filter((episode) => episode.residences.includes(residence.id));
    return send(
      request,
      reply,
      `feed|${residence.id}|${String(catalogue.version)}|${version}`,
      'application/rss+xml; charset=utf-8',
      () => residenceFeed(residence, own, origin, new Date(app.clock()), hrefOf(pages)),
    );
  });

  app.get('/sitemap.xml', async (request, reply) => {
    const [catalogue, { pages, version }] = await Promise.all([app.sources.episodes.get(), app.sitePages()]);
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
      // Everything is allowed, /api too: a crawler that runs the pages' scripts needs their answers.
      ['User-agent: *', 'Allow: /', '', `Sitemap: ${absolute(origin, '/sitemap.xml')}`, ''].join('\n'),
    ),
  );

  app.get('/manifest.webmanifest', (request, reply) =>
    send(request, reply, 'manifest', 'application/manifest+json; charset=utf-8', () => JSON.stringify(webManifest())),
  );
  done();
};

export const feedsPlugin = fp(feeds, { name: 'site-feeds' });
