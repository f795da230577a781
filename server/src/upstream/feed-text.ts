import { UpstreamError } from '../http/errors';

/** What may come before `<?xml` and is not content: a byte order mark and white space. */
const LEADING = /^[\uFEFF\s]+/;
const DECLARATION_ENCODING = /^(<\?xml\b[^>]*?\sencoding\s*=\s*)(["'])[^"']*\2/;

/** The encoding a byte order mark announces, if the body starts with one. */
export function bomEncoding(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}

export function headerCharset(contentType: string | null): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match?.[1];
}

/** The `encoding` of the XML declaration; the declaration is ASCII in every encoding a feed uses. */
function declaredEncoding(body: Buffer): string | undefined {
  const head = body.subarray(0, 1024).toString('latin1').replace(LEADING, '');
  return /^<\?xml\b[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head)?.[1];
}

/**
 * A feed's bytes as text (docs/feed.md, « Encoding »). The encoding is the byte order mark's, else
 * the charset of the Content-Type header, else the XML declaration's, else UTF-8, and it is decoded
 * by the platform's WHATWG decoder (ISO-8859-x, windows-125x, KOI8, UTF-16…). The text returned
 * starts at `<?xml` (leading white space and a BOM dropped) and its declaration says UTF-8, since
 * it is served again in UTF-8 by /api/soundcloud-rss.
 */
export function feedText(body: Buffer, contentType: string | null): string {
  const label = bomEncoding(body) ?? headerCharset(contentType) ?? declaredEncoding(body) ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    throw new UpstreamError('feed', 'invalid', `encodage inconnu « ${label} »`);
  }
  return utf8Declaration(decoder.decode(body));
}

/** The text from `<?xml` on, its declaration (if any) saying UTF-8. */
export function utf8Declaration(text: string): string {
  return text.replace(LEADING, '').replace(DECLARATION_ENCODING, '$1$2UTF-8$2');
}
