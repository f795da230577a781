/** An absolute address on the site: from SITE_ORIGIN, never from a request header (docs/published.md). */
export const absolute = (origin: string, path: string): string => new URL(path, origin).href;
