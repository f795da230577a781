import { releaseUrl, type Release } from '@collectif/shared';

function readRelease(value: unknown): Release | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { href, image, title, artist } = value as Record<string, unknown>;
  if (typeof href !== 'string' || typeof image !== 'string' || typeof title !== 'string') return null;
  if (typeof artist !== 'string') return null;
  try {
    // Each card links to the sales page built from href: an href that makes no address is unusable.
    releaseUrl(href);
  } catch {
    return null;
  }
  return { href, image, title, artist };
}

/**
 * The releases of a GET /api/releases answer, or null when nothing in it is usable. RTK Query types
 * the answer but does not check it: a proxy's error page or a broken label service must give the
 * page's French error state, not a crash. Unusable items are dropped, the others kept.
 */
export function readReleases(data: unknown): Release[] | null {
  if (!Array.isArray(data)) return null;
  const releases = data.flatMap((item: unknown) => {
    const release = readRelease(item);
    return release === null ? [] : [release];
  });
  // A list that had items but none usable is a broken answer, not an empty catalogue.
  return releases.length === 0 && data.length > 0 ? null : releases;
}
