/**
 * Rendered pages kept per URL for a short time (docs/rendering.md, « Cache »): a burst of visitors
 * on one page costs one render. An entry serves only while the parts' server bundles are the ones it
 * was rendered with, so a redeployed part shows on the next request.
 */
export interface CachedPage {
  status: number;
  html: string;
  etag: string;
  /** The server bundles' versions it was rendered with. */
  version: string;
  storedAt: number;
}

export interface PageCacheOptions {
  /** How long an entry serves; 0 turns the cache off. */
  ttlMs: number;
  /** Entries kept at most; the least recently used goes first. */
  maxEntries: number;
  now?: () => number;
}

export function createPageCache({ ttlMs, maxEntries, now = Date.now }: PageCacheOptions) {
  const entries = new Map<string, CachedPage>();
  return {
    get(key: string, version: string): CachedPage | null {
      const entry = entries.get(key);
      if (entry === undefined) return null;
      if (entry.version !== version || now() - entry.storedAt >= ttlMs) {
        entries.delete(key);
        return null;
      }
      // Most recently used last, so that the first key is the one to drop.
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },
    set(key: string, page: Omit<CachedPage, 'storedAt'>): void {
      if (ttlMs <= 0) return;
      entries.delete(key);
      entries.set(key, { ...page, storedAt: now() });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
    get size(): number {
      return entries.size;
    },
  };
}
