/**
 * A podcast feed item as the XML parser gives it (`rss.channel.item[]`, attributes
 * grouped under `_attributes`, tag values kept as text). Feeds come from outside, so every field is
 * read defensively: a missing or oddly shaped value never throws.
 */
export type RawFeedItem = Readonly<Record<string, unknown>>;

/** The parsed document: `{ rss: { channel: { item: RawFeedItem[] } } }`. */
export interface ParsedFeed {
  rss?: { channel?: { item?: unknown } };
}

export const ATTRIBUTES_KEY = '_attributes';
export const TEXT_KEY = '#text';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a node: `<a>text</a>` and `<a b="c">text</a>` both give 'text'. */
export function nodeText(node: unknown): string {
  if (typeof node === 'string') return node.trim();
  if (typeof node === 'number' || typeof node === 'boolean') return String(node);
  if (Array.isArray(node)) return nodeText(node[0]);
  if (isRecord(node)) return nodeText(node[TEXT_KEY]);
  return '';
}

/** An attribute of a node, or undefined when the node or the attribute is missing. */
export function nodeAttribute(node: unknown, name: string): string | undefined {
  const target: unknown = Array.isArray(node) ? node[0] : node;
  if (!isRecord(target)) return undefined;
  const attributes = target[ATTRIBUTES_KEY];
  if (!isRecord(attributes)) return undefined;
  const value = attributes[name];
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** The items of a parsed feed, whatever the parser made of a feed with zero or one item. */
export function feedItems(parsed: unknown): RawFeedItem[] {
  if (!isRecord(parsed)) return [];
  const rss = parsed.rss;
  if (!isRecord(rss)) return [];
  const channel = rss.channel;
  if (!isRecord(channel)) return [];
  const items = channel.item;
  if (Array.isArray(items)) return items.filter(isRecord);
  return isRecord(items) ? [items] : [];
}

/** Whether a parsed document has the RSS shape at all (`rss.channel`), items or not. */
export function isRssDocument(parsed: unknown): boolean {
  return isRecord(parsed) && isRecord(parsed.rss) && isRecord(parsed.rss.channel);
}

/**
 * The channel's picture (docs/feed.md, « Cover »): `itunes:image` of the channel, else the RSS
 * `<image><url>`; undefined when the feed has neither.
 */
export function channelImage(parsed: unknown): string | undefined {
  if (!isRecord(parsed) || !isRecord(parsed.rss) || !isRecord(parsed.rss.channel)) return undefined;
  const channel = parsed.rss.channel;
  const itunes = nodeAttribute(channel['itunes:image'], 'href');
  if (itunes !== undefined && itunes !== '') return itunes;
  const image: unknown = Array.isArray(channel.image) ? channel.image[0] : channel.image;
  const url = isRecord(image) ? nodeText(image.url) : '';
  return url === '' ? undefined : url;
}
