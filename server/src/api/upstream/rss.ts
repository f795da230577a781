import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  ATTRIBUTES_KEY,
  DEFAULT_COVER,
  channelImage,
  feedItems,
  isRssDocument,
  nodeAttribute,
  nodeText,
  podcastsFromItems,
  type FeedPodcast,
  type RawFeedItem,
} from '../../feed';
import { UpstreamError } from '../../http/errors';
import { ensureOk, fetchUpstream, type UpstreamLimits } from '../../upstream/fetch';
import { feedText, utf8Declaration } from '../../upstream/feed-text';
import { writeParsedXml } from '../../files/xml';

/** The feed as the pages read it (docs/feed.md): `rss.channel.item[]`, attributes grouped under `_attributes`, values kept as text. */
const PARSER_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: ATTRIBUTES_KEY,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // Numeric character references (`&#039;`, `&#8217;`) and the common HTML names are decoded by
  // the parser; its limits on entity expansion and its refusal of DOCTYPE-declared entities stay.
  htmlEntities: true,
  isArray: (_name: string, jpath: unknown) => jpath === 'rss.channel.item',
} as const;

/** The feed as the API serves it: the XML for /soundcloud-rss, the mapped podcasts for /podcasts. */
export interface FeedData {
  xml: string;
  podcasts: FeedPodcast[];
}

/**
 * Parses feed XML; malformed XML or a document that is not RSS is an 'invalid' upstream error.
 * White space or a BOM before `<?xml` is accepted, as feed readers do (docs/feed.md); `xml` is
 * the text from `<?xml` on, as /soundcloud-rss serves it.
 */
export function parseFeedXml(source: string): { xml: string; document: Record<string, unknown>; items: RawFeedItem[] } {
  const xml = utf8Declaration(source);
  // The separate fast-xml-validator package is not installed here; this is the same validator.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new UpstreamError('feed', 'invalid', `XML mal formé, ligne ${String(valid.err.line)} : ${valid.err.msg}`);
  }
  const document = new XMLParser(PARSER_OPTIONS).parse(xml) as Record<string, unknown>;
  if (!isRssDocument(document)) throw new UpstreamError('feed', 'invalid', 'pas de rss.channel');
  return { xml, document, items: feedItems(document) };
}

/**
 * The feed's podcasts. Without SoundCloud API credentials a trackUrn could not be resolved by
 * /api/track, so it is left out and the player plays the enclosure URL directly.
 */
export function feedData(
  xml: string,
  items: RawFeedItem[],
  keepTrackUrns: boolean,
  cover: string = DEFAULT_COVER,
): FeedData {
  const podcasts = podcastsFromItems(items, cover).map((item) => {
    if (keepTrackUrns || item.trackUrn === undefined) return item;
    const { trackUrn: _dropped, ...rest } = item;
    return rest;
  });
  return { xml, podcasts };
}

/** The `atom:link rel="next"` of a SoundCloud feed page, only when it stays on the feed's origin. */
export function nextPageUrl(document: Record<string, unknown>, feedUrl: string): string | undefined {
  const channel = (document.rss as { channel: Record<string, unknown> }).channel;
  const links: unknown[] = ([] as unknown[]).concat(channel['atom:link'] ?? []);
  const next = links.find((link) => nodeAttribute(link, 'rel') === 'next');
  const href = nodeAttribute(next, 'href');
  if (href === undefined) return undefined;
  try {
    const url = new URL(href, feedUrl);
    return url.origin === new URL(feedUrl).origin ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

function itemKey(item: RawFeedItem): string {
  return nodeText(item.guid) || nodeText(item.link) || (nodeAttribute(item.enclosure, 'url') ?? '');
}

/**
 * One load of the feed, page after page: each page decoded and parsed, its items added once (by
 * guid), then the podcasts and one XML document for them all. Synchronous and CPU-bound: the
 * server runs it in the feed worker (./feed-worker.ts), never on the event loop (docs/feed.md).
 */
export class FeedDigest {
  private first: { xml: string; document: Record<string, unknown> } | undefined;
  private readonly items: RawFeedItem[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly feedUrl: string) {}

  /** Adds a page's body; gives the next page's URL (same origin only), if any. */
  addPage(body: Uint8Array, contentType: string | null): string | undefined {
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    const parsed = parseFeedXml(feedText(bytes, contentType));
    this.first ??= { xml: parsed.xml, document: parsed.document };
    for (const item of parsed.items) {
      const key = itemKey(item);
      if (key !== '' && this.seen.has(key)) continue;
      this.seen.add(key);
      this.items.push(item);
    }
    return nextPageUrl(parsed.document, this.feedUrl);
  }

  result(keepTrackUrns: boolean): FeedData {
    const first = this.first;
    if (first === undefined) throw new UpstreamError('feed', 'invalid', 'aucune page lue');
    const items = this.items;
    // An item without its own picture shows the channel's, then the site's default (docs/feed.md).
    const cover = channelImage(first.document) ?? DEFAULT_COVER;
    if (items.length === feedItems(first.document).length) return feedData(first.xml, items, keepTrackUrns, cover);
    const channel = (first.document.rss as { channel: Record<string, unknown> }).channel;
    const merged = {
      ...first.document,
      rss: { ...(first.document.rss as object), channel: { ...channel, item: items } },
    };
    const xml = writeParsedXml(merged, PARSER_OPTIONS);
    return feedData(xml, items, keepTrackUrns, cover);
  }
}

/** Where a load's pages are digested: in the feed worker (the server), or here (tests, tools). */
export interface Digester {
  start(feedUrl: string): {
    addPage(body: Buffer, contentType: string | null): Promise<string | undefined>;
    result(keepTrackUrns: boolean): Promise<FeedData>;
    /** Forgets the pages read so far (the load failed). */
    drop(): void;
  };
}

/** Digests on the calling thread. */
export const inlineDigester: Digester = {
  start(feedUrl) {
    const digest = new FeedDigest(feedUrl);
    return {
      addPage: (body, contentType) => Promise.resolve().then(() => digest.addPage(body, contentType)),
      result: (keepTrackUrns) => Promise.resolve().then(() => digest.result(keepTrackUrns)),
      drop: () => undefined,
    };
  },
};

/**
 * Loads the SoundCloud feed: the first page, then up to `maxPages - 1` older pages. Several pages
 * are merged into one document (items de-duplicated by guid) so /soundcloud-rss stays one feed.
 */
export function rssLoader(
  config: { url: string; maxPages: number },
  limits: UpstreamLimits,
  keepTrackUrns: boolean,
  digester: Digester = inlineDigester,
): () => Promise<FeedData> {
  return async () => {
    const digest = digester.start(config.url);
    try {
      let url: string | undefined = config.url;
      for (let page = 0; page < config.maxPages && url !== undefined; page += 1) {
        const response = ensureOk(
          'feed',
          await fetchUpstream('feed', { url, headers: { Accept: 'application/rss+xml, application/xml' } }, limits),
        );
        url = await digest.addPage(response.body, response.headers.get('content-type'));
      }
      return await digest.result(keepTrackUrns);
    } catch (error) {
      digest.drop();
      throw error;
    }
  };
}
