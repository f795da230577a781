import { asUpstreamError, type Service, type UpstreamError } from '../errors';

/** hit: fresh from memory; miss: just fetched; stale: the upstream failed, last good value served. */
export type CacheState = 'hit' | 'miss' | 'stale';

export interface Cached<T> {
  value: T;
  state: CacheState;
  /** Changes each time a new value is fetched (responses derived from it are memoised on it). */
  version: number;
  expiresAt: number;
}

export interface CacheOptions {
  ttlMs: number;
  /** After a failure, how long the upstream is left alone (stale value or the same error meanwhile). */
  retryMs?: number;
  now?: () => number;
}

/**
 * One upstream value in memory: fresh for `ttlMs`; when it expires, the first caller fetches and
 * every concurrent caller waits on that same request (single flight); when the fetch fails, the
 * last good value is served as stale (stale-while-error), and without one the error is thrown.
 */
export class UpstreamCache<T> {
  private entry: { value: T; version: number; expiresAt: number } | undefined;
  private failure: { error: UpstreamError; until: number } | undefined;
  private inflight: Promise<void> | undefined;
  private versions = 0;
  private readonly now: () => number;
  private readonly retryMs: number;

  constructor(
    private readonly service: Service,
    private readonly load: () => Promise<T>,
    private readonly options: CacheOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.retryMs = options.retryMs ?? Math.min(options.ttlMs, 5000);
  }

  async get(): Promise<Cached<T>> {
    const entry = this.entry;
    if (entry !== undefined && this.now() < entry.expiresAt) return { ...entry, state: 'hit' };
    if (this.failure !== undefined && this.now() < this.failure.until) return this.fallback(this.failure.error);
    this.inflight ??= this.refresh().finally(() => {
      this.inflight = undefined;
    });
    await this.inflight;
    if (this.failure !== undefined) return this.fallback(this.failure.error);
    if (this.entry === undefined) throw new Error('cache vide après un chargement réussi');
    return { ...this.entry, state: 'miss' };
  }

  /** The value in memory, fresh or not, without calling the upstream. */
  peek(): T | undefined {
    return this.entry?.value;
  }

  private fallback(error: UpstreamError): Cached<T> {
    if (this.entry === undefined) throw error;
    return { ...this.entry, state: 'stale' };
  }

  private async refresh(): Promise<void> {
    try {
      const value = await this.load();
      this.versions += 1;
      this.entry = { value, version: this.versions, expiresAt: this.now() + this.options.ttlMs };
      this.failure = undefined;
    } catch (error) {
      this.failure = { error: asUpstreamError(this.service, error), until: this.now() + this.retryMs };
    }
  }
}

/**
 * A cache per key (a track URN), bounded: the least recently used key is dropped past `maxKeys`,
 * so keys chosen by visitors cannot grow memory without limit.
 */
export class KeyedUpstreamCache<T> {
  private readonly caches = new Map<string, UpstreamCache<T>>();

  constructor(
    private readonly service: Service,
    private readonly load: (key: string) => Promise<T>,
    private readonly options: CacheOptions & { maxKeys: number },
  ) {}

  get(key: string): Promise<Cached<T>> {
    let cache = this.caches.get(key);
    if (cache === undefined) {
      cache = new UpstreamCache(this.service, () => this.load(key), this.options);
      if (this.caches.size >= this.options.maxKeys) {
        const oldest = this.caches.keys().next();
        if (oldest.done !== true) this.caches.delete(oldest.value);
      }
    } else {
      this.caches.delete(key);
    }
    this.caches.set(key, cache);
    return cache.get();
  }

  get size(): number {
    return this.caches.size;
  }
}
