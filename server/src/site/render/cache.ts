import { LRUCache } from 'lru-cache';

/**
 * Rendered pages kept per URL for a short time (docs/rendering.md, « Cache »): a burst of visitors
 * on one page costs one render. An entry serves only while the parts' server bundles are the ones it
 * was rendered with, so a redeployed part shows on the next request. Bounded by entries and by
 * bytes (lru-cache): a crawler walking thousands of distinct searches keeps the memory bounded.
 */
export interface CachedPage {
  status: number;
  html: string;
  /** Its Content-Security-Policy, which allows the styles written into it by their hashes. */
  csp: string;
  /** The HTML in brotli, made once per rendered page (render/encoded.ts). */
  brotli: Buffer;
  etag: string;
  /** The server bundles' versions it was rendered with. */
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

export function createPageCache({ ttlMs, maxEntries, maxBytes, now }: PageCacheOptions) {
  const entries =
    ttlMs > 0
      ? new LRUCache<string, CachedPage>({
          max: maxEntries,
          maxSize: maxBytes,
          sizeCalculation: (page) => Math.max(1, (page.html.length + page.csp.length) * 2 + page.brotli.length),
          ttl: ttlMs,
          // A page past its time is never served, even if nothing has swept it yet.
          allowStale: false,
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
