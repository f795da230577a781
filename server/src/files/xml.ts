import XMLBuilder from 'fast-xml-builder';

/**
 * The site's XML documents (the feeds, the sitemap, the demo's podcast feed, a feed of several pages
 * merged into one) are written by one builder, fast-xml-parser's (fast-xml-builder), here: every text
 * and attribute escaped once, by the library. What it cannot
 * escape, the characters XML 1.0 forbids, is dropped by `xmlSafe` before.
 */

/** Text without the characters XML 1.0 forbids (the builder escapes the rest). */
export function xmlSafe(value: string): string {
  return value.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: true,
  // isPermaLink="true" as written, not a bare attribute.
  suppressBooleanAttributes: false,
});

/** An XML document, with its declaration, from its tree (`@_name` attributes, `#text` texts). */
export function writeXml(root: Record<string, unknown>): string {
  return builder.build({ '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' }, ...root });
}

/**
 * A document read by fast-xml-parser, written back with the parser's own options (so that its
 * attributes and texts come back where the parser put them): the feed of several pages merged.
 */
export function writeParsedXml(document: Record<string, unknown>, parserOptions: Record<string, unknown>): string {
  return new XMLBuilder({ ...parserOptions, format: false, suppressEmptyNode: true }).build(document);
}
