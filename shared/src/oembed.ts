/**
 * oEmbed for the collective's player (docs/embed.md, « oEmbed »): the endpoint's address, how the
 * home, a residence and an episode announce it in their head, and the title both the page's link and
 * the endpoint's answer give. The server answers at OEMBED_PATH (server/src/site/oembed.ts).
 */

/** The endpoint, on the site's origin. */
export const OEMBED_PATH = '/oembed';

/** The type of the discovery link (oEmbed 1.0, « Discovery »): only JSON is answered. */
export const OEMBED_JSON_TYPE = 'application/json+oembed';

/** What a player on another site is titled: the live stream, or an artist and their show. */
export function oembedTitle(siteName: string, subject: { artist: string; show: string } | null): string {
  if (subject === null) return `Le direct · ${siteName}`;
  const show = subject.show.trim();
  return show === '' ? subject.artist : `${subject.artist} · ${show}`;
}

/** The endpoint's address for a page of the site (`pageUrl` absolute), in JSON. */
export function oembedEndpoint(origin: string, pageUrl: string): string {
  return `${origin}${OEMBED_PATH}?url=${encodeURIComponent(pageUrl)}&format=json`;
}

/**
 * The page's discovery link, one of its head's `alternates`: `pagePath` is the page's path as it
 * goes in an address (already encoded), `/` for the home.
 */
export function oembedAlternate(
  origin: string,
  pagePath: string,
  title: string,
): { type: string; href: string; title: string } {
  return { type: OEMBED_JSON_TYPE, href: oembedEndpoint(origin, `${origin}${pagePath}`), title };
}
