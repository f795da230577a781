/**
 * A page's <head> as the server writes it (docs/head.md): title, description, canonical URL, Open
 * Graph and Twitter card, and its JSON-LD. Every value is escaped for where it goes.
 */

export interface HeadImage {
  /** Absolute URL. */
  url: string;
  alt: string;
  width?: number;
  height?: number;
}

export interface PageHead {
  /** The whole <title>. */
  title: string;
  description: string;
  /** Absolute URL of the page, also og:url. */
  canonical: string;
  image?: HeadImage;
  /** og:type, 'website' when absent. */
  ogType?: string;
  /** og:audio, absolute URL. */
  audio?: string;
  /** Each written as its own <script type="application/ld+json">. */
  jsonLd?: readonly object[];
  alternates?: readonly { type: string; href: string; title: string }[];
  /** A page search engines must not list (the volunteers' editor): `<meta name="robots" content="noindex">`. */
  noindex?: boolean;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/**
 * JSON that can stand inside a <script> element: nothing in it can close the element, open a
 * comment or end a line for an older parser.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

// The entities a volunteer's text uses, read here by hand: a page's head is computed in the
// visitor's browser too, where a full table (`entities`, 47 KB, which the server's feeds use) would
// outweigh the page's own code; the server and the browser must compute the same description.
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/**
 * A meta description from a text that may hold a little HTML: tags dropped, entities read, white
 * space folded, the first sentence when there is one, then at most `max` characters cut at a word.
 */
export function describe(text: string, max = 160): string {
  const plain = text
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  const sentence = /^(.+?[.!?…])(\s|$)/.exec(plain)?.[1] ?? plain;
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, '')}…`;
}

/**
 * One element of a document's <head>, as data, written by React (`headElement`, seo/elements.tsx):
 * on the server into the Document's head, in the browser by the page's head component (React 19
 * places a `<title>`, `<meta>` or `<link>` rendered anywhere in the document's head). `text` is the
 * element's text (React escapes it); `html` is content already safe for its element (JSON made by
 * `scriptJson`).
 */
export interface HeadElement {
  tag: 'title' | 'meta' | 'link' | 'script' | 'style';
  /** In the order they are written. */
  attributes: readonly (readonly [string, string])[];
  text?: string;
  html?: string;
}

/** `<script type="application/json" id="…">`: data a page's scripts read, never run. */
export function jsonElement(id: string, value: unknown): HeadElement {
  return {
    tag: 'script',
    attributes: [
      ['type', 'application/json'],
      ['id', id],
    ],
    html: scriptJson(value),
  };
}

const meta = (attribute: 'name' | 'property', key: string, value: string): HeadElement => ({
  tag: 'meta',
  attributes: [
    [attribute, key],
    ['content', value],
  ],
});

const link = (...attributes: (readonly [string, string])[]): HeadElement => ({ tag: 'link', attributes });

/**
 * The head's elements, in a stable order: title, description, canonical, alternates, Open Graph,
 * Twitter. The JSON-LD is written in the page's body (`jsonLdElements`).
 */
export function headElements(head: PageHead, siteName: string): HeadElement[] {
  const { image } = head;
  return [
    { tag: 'title', attributes: [], text: head.title },
    meta('name', 'description', head.description),
    ...(head.noindex === true ? [meta('name', 'robots', 'noindex')] : []),
    link(['rel', 'canonical'], ['href', head.canonical]),
    ...(head.alternates ?? []).map((alternate) =>
      link(['rel', 'alternate'], ['type', alternate.type], ['href', alternate.href], ['title', alternate.title]),
    ),
    meta('property', 'og:site_name', siteName),
    meta('property', 'og:locale', 'fr_FR'),
    meta('property', 'og:type', head.ogType ?? 'website'),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', head.canonical),
    ...(image === undefined
      ? []
      : [
          meta('property', 'og:image', image.url),
          meta('property', 'og:image:alt', image.alt),
          ...(image.width === undefined ? [] : [meta('property', 'og:image:width', String(image.width))]),
          ...(image.height === undefined ? [] : [meta('property', 'og:image:height', String(image.height))]),
        ]),
    ...(head.audio === undefined ? [] : [meta('property', 'og:audio', head.audio)]),
    // X reads the card's title, description and image from the Open Graph tags when its own are
    // absent (its « Cards markup » reference): only the card's kind and the image's text, which have no
    // Open Graph reading there, are written again (docs/head.md).
    meta('name', 'twitter:card', image === undefined ? 'summary' : 'summary_large_image'),
    ...(image === undefined ? [] : [meta('name', 'twitter:image:alt', image.alt)]),
  ];
}

/**
 * The page's JSON-LD, one `<script type="application/ld+json">` per node. React renders it where
 * the page is, in the body (React 19 moves a title, a meta or a link into the head, never a script
 * of data); search engines read JSON-LD wherever it is in the document.
 */
export function jsonLdElements(head: Pick<PageHead, 'jsonLd'>): HeadElement[] {
  return (head.jsonLd ?? []).map((node) => ({
    tag: 'script',
    attributes: [['type', 'application/ld+json']],
    html: scriptJson({ '@context': 'https://schema.org', ...node }),
  }));
}
