import { LRUCache } from 'lru-cache';
import type { PartName } from '@collectif/shared';
import { CONTENT_KIND_NAMES } from '../../content/kinds';
import type { ContentStore } from '../../content/store';
import { etagOf } from '../../http/conditional';
import { brotliPage, type SentPage } from './answer';
import type { Bundles } from './containers';

/**
 * Rendered pages kept per URL for a short time (docs/rendering.md, « Cache »): a burst of visitors on
 * one page costs one render. An entry serves only while what it was made from is current (the parts'
 * server containers, the declared pages, the content), so a redeployed part or a saved residence
 * shows on the next request. Bounded by entries and by bytes (lru-cache): a crawler walking
 * thousands of distinct searches keeps the memory bounded.
 */

/** What a rendered page may be kept for (docs/rendering.md, « Cache »; docs/deploy.md). */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=10, stale-while-revalidate=60';

/** The site's page cache keeps at most this many pages. */
export const PAGE_CACHE_ENTRIES = 500;
/**
 * The site's page cache keeps at most this many bytes. A page is 24 to 47 KB of HTML (twice that as a
 * string): 350 to 700 pages. A crawler walking every search fills this, not the memory.
 */
export const PAGE_CACHE_BYTES = 32 * 1024 * 1024;

/** A rendered page as it is kept: as it is sent, and the versions it was made from. */
export interface CachedPage extends SentPage {
  /** What it was rendered from (`pageVersion`). */
  version: string;
}

export interface PageCacheOptions {
  /** How long an entry serves; 0 turns the cache off. */
  ttlMs: number;
  /** Entries kept at most; the least recently used goes first. */
  maxEntries: number;
  /** Bytes kept at most: the HTML as strings in memory (two bytes a code unit), and its brotli. */
  maxBytes: number;
  now?: () => number;
}

/**
 * The pages kept by URL (the path and the query). `get` answers a page only in the version asked for,
 * and lets go of one made in another; with a time of 0 nothing is kept.
 */
export function createPageCache({ ttlMs, maxEntries, maxBytes, now }: PageCacheOptions) {
  const entries =
    ttlMs > 0
      ? new LRUCache<string, CachedPage>({
          max: maxEntries,
          maxSize: maxBytes,
          sizeCalculation: (page) => Math.max(1, (page.html.length + page.csp.length) * 2 + page.brotli.length),
          ttl: ttlMs,
          // A page past its time is never served, and its memory is released when its time ends,
          // not when the LRU next needs the room: pages of a part's former version (each redeploy
          // makes new ones) held up to 32 MiB after 100 redeploys otherwise.
          allowStale: false,
          ttlAutopurge: true,
          ...(now === undefined ? {} : { perf: { now }, ttlResolution: 0 }),
        })
      : null;
  return {
    get(key: string, version: string): CachedPage | null {
      const entry = entries?.get(key);
      if (entry === undefined) return null;
      if (entry.version !== version) {
        entries?.delete(key);
        return null;
      }
      return entry;
    },
    set(key: string, page: CachedPage): void {
      entries?.set(key, page);
    },
    get size(): number {
      return entries?.size ?? 0;
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;

/**
 * What a page is made from, as one string: the versions of its parts' server containers, of the
 * remotes' declared pages and of the content volunteers edit (docs/content.md). A kept page serves
 * only in this version: a part deployed anew, a page declared anew or a residence saved is in the
 * next page, not one the cache kept from before it. The parts' files are read (or checked) first, so
 * their versions are the current ones.
 */
export async function pageVersion({
  bundles,
  parts,
  pagesVersion,
  content,
}: {
  bundles: Pick<Bundles, 'get' | 'versions'>;
  parts: readonly PartName[];
  pagesVersion: string;
  content: Pick<ContentStore, 'current'>;
}): Promise<string> {
  await Promise.all(parts.map((name) => bundles.get(name)));
  const containers = bundles.versions();
  const edited = CONTENT_KIND_NAMES.map((kind) => content.current(kind).id).join(',');
  return `${containers}|${pagesVersion}|${edited}`;
}

/**
 * A page just written, made ready to send and to keep: its ETag (a weak hash of its HTML) and its
 * brotli are made once here, so every answer from the cache costs neither.
 */
export async function pageToKeep(
  status: number,
  { html, csp }: { html: string; csp: string },
  version: string,
): Promise<CachedPage> {
  const etag = etagOf(html);
  const brotli = await brotliPage(html);
  return { status, html, csp, brotli, etag, version };
}
