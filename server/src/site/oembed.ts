import fp from 'fastify-plugin';
import type { FastifyPluginCallback, FastifyReply } from 'fastify';
import { findAlias, findPage, siteConfig, type PageRef } from '@collectif/shared';
import { hrefOf, isSlug, PAGES, type PageModule } from '@collectif/shared/addresses';
import { RESIDENCE_PICTURES, residencePictures } from '@collectif/shared/pictures';
import { DEFAULT_COVER } from '@collectif/shared/tokens';
import {
  DEFAULT_EMBED_OPTIONS,
  EMBED_HEIGHTS,
  EMBED_MAX_WIDTH,
  EMBED_MIN_WIDTH,
  embedFrameSnippet,
  embedHeight,
  type EmbedFormat,
  type EmbedSource,
} from '@collectif/shared/embed';
import { OEMBED_PATH, oembedTitle } from '@collectif/shared/oembed';
import type { SiteServerConfig } from '../settings/config';
import { currentResidences, type ContentResidence } from '../content/residences';
import { UpstreamError, upstreamErrorReply } from '../http/errors';

/**
 * oEmbed 1.0 for the collective's player (docs/embed.md, « oEmbed »): a site that is given the
 * address of the home, a residence or an episode asks `GET /oembed?url=…` and gets the iframe player
 * to paste (`type: "rich"`), sized to what it can hold. Only addresses of this site, on its public
 * origin (`SITE_ORIGIN`), are answered; the server never fetches the address it is given.
 */

/** How long a consumer may keep an answer, in seconds (`cache_age` and `Cache-Control`). */
export const OEMBED_CACHE_SECONDS = 3600;

/** An address longer than this is not one of the site's pages: refused before it is parsed. */
export const MAX_URL_LENGTH = 2048;

/**
 * The size each kind of page gets when there is room: a bar for the live stream or an episode, a card
 * with its cover for a residence (docs/embed.md, « oEmbed », says why).
 */
export const OEMBED_FORMATS: Readonly<Record<EmbedSource['kind'], EmbedFormat>> = {
  direct: 'barre',
  episode: 'barre',
  residence: 'carte',
};

/** The default cover's size (scripts/generate-assets.mjs makes it square, 600 px). */
const DEFAULT_COVER_SIZE = 600;

/** Whether the text holds a C0 control character or DEL. */
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

const isPage = (page: PageRef, module: PageModule) => page.remote === module.remote && page.module === module.module;

/**
 * What an address given to the endpoint names on the site at `origin`: the home (the live stream),
 * a residence or an episode, as the page table says where each is today (a former path of theirs
 * too); null for anything else. Query string, fragment and trailing slashes do not matter; the
 * origin must be the site's exactly (scheme, host and port), with no user name or password; the id
 * or slug must be one (`isSlug`), after its percent-escapes are read.
 */
export function readSiteAddress(text: string, origin: string, pages: readonly PageRef[]): EmbedSource | null {
  // Control characters (a CR LF, a tab) would be dropped by the URL parser: such an address was not copied from a page.
  if (text.length > MAX_URL_LENGTH || hasControlCharacter(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.username !== '' || url.password !== '') return null;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const match = findPage(path, pages) ?? findAlias(path, pages);
  if (match === null) return null;
  if (isPage(match.page, PAGES.home)) return { kind: 'direct' };
  // The router's matcher has read the percent-escapes.
  const residence = match.params.id ?? '';
  const slug = match.params.slug ?? '';
  if (isPage(match.page, PAGES.residence)) return isSlug(residence) ? { kind: 'residence', id: residence } : null;
  if (isPage(match.page, PAGES.episode)) return isSlug(slug) ? { kind: 'episode', slug } : null;
  return null;
}

/** A `maxwidth` or `maxheight`: absent (or empty), a positive integer, or unreadable. */
export function readDimension(value: unknown): number | undefined | 'invalid' {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return 'invalid';
  const number = Number(value);
  return number > 0 ? number : 'invalid';
}

/**
 * The player's size within the consumer's bounds: as wide as it may be up to EMBED_MAX_WIDTH, its
 * format's height; a card that is too high becomes a bar. Null when even the narrowest or lowest
 * player does not fit (oEmbed: no representation for those bounds, 404).
 */
export function embedSize(
  source: EmbedSource,
  format: EmbedFormat,
  maxwidth?: number,
  maxheight?: number,
): { format: EmbedFormat; width: number; height: number } | null {
  const width = Math.min(maxwidth ?? EMBED_MAX_WIDTH, EMBED_MAX_WIDTH);
  if (width < EMBED_MIN_WIDTH) return null;
  let fitting = format;
  if (maxheight !== undefined && maxheight < embedHeight({ source, format: fitting })) {
    if (maxheight < EMBED_HEIGHTS.barre) return null;
    fitting = 'barre';
  }
  return { format: fitting, width, height: embedHeight({ source, format: fitting }) };
}

interface Thumbnail {
  thumbnail_url: string;
  thumbnail_width: number;
  thumbnail_height: number;
}

/**
 * A picture of the site whose size is known: a residence's (named after its id, with its size's
 * suffix) or the default cover. Null for a picture elsewhere, whose size the site cannot vouch for.
 */
export function sitePicture(address: string, origin: string): Thumbnail | null {
  let url: URL;
  try {
    url = new URL(address, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  const size = (width: number, height: number) => ({
    thumbnail_url: url.href,
    thumbnail_width: width,
    thumbnail_height: height,
  });
  if (url.pathname === DEFAULT_COVER) return size(DEFAULT_COVER_SIZE, DEFAULT_COVER_SIZE);
  // An uploaded square's copy (a residence's portrait card; docs/content.md, « Pictures »).
  if (/^\/media\/[0-9a-f]{32}-400\.webp$/.test(url.pathname)) return size(400, 400);
  for (const picture of Object.values(RESIDENCE_PICTURES)) {
    if (new RegExp(`^/assets/images/residences/[^/]+${picture.suffix}\\.webp$`).test(url.pathname)) {
      return size(picture.width, picture.height);
    }
  }
  return null;
}

/** An error answer: JSON in French, readable from any origin, not kept. */
function refuse(reply: FastifyReply, status: number, error: string, message: string) {
  return reply
    .code(status)
    .header('Access-Control-Allow-Origin', '*')
    .header('Cache-Control', 'no-cache')
    .type('application/json; charset=utf-8')
    .send({ error, message });
}

const NOT_FOUND =
  'Aucun lecteur pour cette adresse : donnez celle de l’accueil, d’une résidence ou d’une émission du site.';

interface OembedOptions {
  config: SiteServerConfig;
}

interface OembedQuery {
  url?: string | string[];
  format?: string | string[];
  maxwidth?: string | string[];
  maxheight?: string | string[];
}

const oembed: FastifyPluginCallback<OembedOptions> = (app, { config }, done) => {
  const origin = config.siteOrigin;
  // The residences as volunteers last saved them (docs/content.md).
  const residenceOf = (id: string): ContentResidence | undefined =>
    currentResidences(app.content).residences.find((known) => known.id === id);

  app.get<{ Querystring: OembedQuery }>(OEMBED_PATH, async (request, reply) => {
    const { url, format, maxwidth, maxheight } = request.query;
    if (format !== undefined && format !== '' && format !== 'json') {
      return refuse(reply, 501, 'format_not_supported', 'Seul le format JSON est proposé (format=json).');
    }
    const width = readDimension(maxwidth);
    const height = readDimension(maxheight);
    if (width === 'invalid' || height === 'invalid') {
      return refuse(reply, 400, 'bad_request', 'maxwidth et maxheight doivent être des nombres entiers positifs.');
    }
    const { pages } = await app.sitePages();
    const source = typeof url === 'string' ? readSiteAddress(url, origin, pages) : null;
    if (source === null) return refuse(reply, 404, 'not_found', NOT_FOUND);
    const href = hrefOf(pages);
    /** A residence's page, when the table has it: `author_url` is optional. */
    const residencePage = (id: string) => {
      const path = href(PAGES.residence, { id });
      return path === null ? {} : { author_url: new URL(path, origin).href };
    };

    let title: string;
    let author: { author_name: string; author_url?: string } | null = null;
    let thumbnail: Thumbnail | null = null;
    let embedded: EmbedSource = source;
    if (source.kind === 'direct') {
      title = oembedTitle(siteConfig.name, null);
    } else if (source.kind === 'residence') {
      const residence = residenceOf(source.id);
      if (residence === undefined) return refuse(reply, 404, 'not_found', 'Cette résidence n’existe pas.');
      title = oembedTitle(siteConfig.name, residence);
      author = { author_name: residence.artist, ...residencePage(residence.id) };
      thumbnail = sitePicture(residencePictures(residence).card, origin);
    } else {
      let found;
      try {
        found = (await app.sources.episodes.get()).value.find(source.slug);
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        const answer = upstreamErrorReply(error);
        return refuse(reply, answer.statusCode, answer.apiCode, answer.message);
      }
      if (found === undefined) {
        return refuse(reply, 404, 'not_found', 'Cette émission n’existe pas ou n’est plus dans le flux.');
      }
      // Its own slug: an episode reached by its long slug is embedded by its address.
      embedded = { kind: 'episode', slug: found.slug };
      title = oembedTitle(siteConfig.name, found);
      const residence = found.residences.map(residenceOf).find((known) => known !== undefined);
      author = {
        author_name: found.artist,
        ...(residence === undefined ? {} : residencePage(residence.id)),
      };
      // Its cover when the site knows its size, else its residence's picture.
      thumbnail =
        sitePicture(found.cover, origin) ??
        (residence === undefined ? null : sitePicture(residencePictures(residence).card, origin));
    }

    const size = embedSize(embedded, OEMBED_FORMATS[source.kind], width, height);
    if (size === null) {
      return refuse(
        reply,
        404,
        'not_found',
        `Le lecteur demande au moins ${String(EMBED_MIN_WIDTH)} px de large et ${String(EMBED_HEIGHTS.barre)} px de haut.`,
      );
    }
    const options = { ...DEFAULT_EMBED_OPTIONS, source: embedded, format: size.format };
    return reply
      .header('Access-Control-Allow-Origin', '*')
      .header('Cache-Control', `public, max-age=${String(OEMBED_CACHE_SECONDS)}`)
      .type('application/json; charset=utf-8')
      .send({
        version: '1.0',
        type: 'rich',
        title,
        ...author,
        provider_name: siteConfig.name,
        provider_url: `${origin}/`,
        cache_age: OEMBED_CACHE_SECONDS,
        html: embedFrameSnippet(origin, options, siteConfig.name, { width: size.width, height: size.height }),
        width: size.width,
        height: size.height,
        ...thumbnail,
      });
  });
  done();
};

export const oembedPlugin = fp(oembed, { name: 'site-oembed' });
