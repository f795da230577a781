import { setTimeout as delay } from 'node:timers/promises';
import type { SharedCacheStore } from '../instances/shared-state';
import type { SiteMetrics } from '../metrics/metrics';
import { asUpstreamError, UpstreamError, type Service, type UpstreamFailure } from '../http/errors';

/** hit: fresh from memory; miss: just fetched; stale: the upstream failed, last good value served. */
export type CacheState = 'hit' | 'miss' | 'stale';

export interface Cached<T> {
  value: T;
  state: CacheState;
  /** Changes each time a new value is fetched (responses derived from it are memoised on it). */
  version: number;
  expiresAt: number;
}

/** Something the routes read a value from, real upstream or demo, with the cache's metadata. */
export interface Source<T> {
  get(): Promise<Cached<T>>;
}

/** Cache-Control for a value from an upstream cache: never longer than we keep it ourselves. */
export function cacheControlFor(cached: Cached<unknown>, maxAgeMs: number, now = Date.now()): string {
  if (cached.state === 'stale') return 'public, max-age=0, must-revalidate';
  const remaining = Math.min(cached.expiresAt - now, maxAgeMs);
  return `public, max-age=${String(Math.max(0, Math.floor(remaining / 1000)))}`;
}

export interface CacheOptions {
  ttlMs: number;
  /** After a failure, how long the upstream is left alone (stale value or the same error meanwhile). */
  retryMs?: number;
  now?: () => number;
  /**
   * Shared with the other instances through Redis (REDIS_URL), under `key`: one instance fetches
   * per interval, the others take its answer (docs/deploy.md, « Shared state »).
   */
  shared?: { store: SharedCacheStore; key: string };
  /** Where its answers are counted, by source and state (the app's metrics; none in some tests). */
  metrics?: Pick<SiteMetrics, 'upstreamAnswers'>;
}

/** How long an instance may hold an upstream's lock: more than any upstream request may take. */
const LOCK_MS = 15_000;
/** How long an instance waits for the one holding the lock, before serving stale or fetching itself. */
const WAIT_MS = 3000;
const WAIT_STEP_MS = 50;
/** How long Redis keeps an answer past its freshness, to be served stale when the upstream fails. */
const KEEP_STALE_MS = 24 * 60 * 60 * 1000;

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

  /** The value, counted by its state for the admins' metrics (docs/deploy.md, « Metrics »). */
  async get(): Promise<Cached<T>> {
    try {
      const got = await this.read();
      this.options.metrics?.upstreamAnswers.inc({
        source: this.service,
        state: got.state === 'stale' ? 'stale' : 'fresh',
      });
      return got;
    } catch (error) {
      this.options.metrics?.upstreamAnswers.inc({ source: this.service, state: 'failed' });
      throw error;
    }
  }

  private async read(): Promise<Cached<T>> {
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
    const shared = Number.isFinite(this.options.ttlMs) ? this.options.shared : undefined;
    if (shared !== undefined) {
      try {
        if (await this.fromShared(shared)) return;
        if (await shared.store.lock(shared.key, LOCK_MS)) {
          try {
            // Another instance may have answered between the read and the lock.
            if (await this.fromShared(shared)) return;
            await this.fetch(shared);
            return;
          } finally {
            await shared.store.unlock(shared.key).catch(() => undefined);
          }
        }
        // Another instance is fetching: its answer is taken when it comes.
        for (let waited = 0; waited < WAIT_MS; waited += WAIT_STEP_MS) {
          await delay(WAIT_STEP_MS);
          if (await this.fromShared(shared)) return;
        }
        // It takes too long: the stale value if there is one, else this instance fetches.
        if (this.entry !== undefined) return;
      } catch {
        // Redis is away (logged by shared-state.ts): this instance fetches alone, as without Redis.
      }
    }
    await this.fetch();
  }

  /** Fetches the upstream; with `shared`, tells every instance what came back. */
  private async fetch(shared?: CacheOptions['shared']): Promise<void> {
    try {
      const value = await this.load();
      const at = this.now();
      this.versions += 1;
      // Shared, a version is when the answer was fetched, so that every instance orders them alike.
      const version = this.options.shared === undefined ? this.versions : Math.max(at, (this.entry?.version ?? 0) + 1);
      this.entry = { value, version, expiresAt: at + this.options.ttlMs };
      this.failure = undefined;
      await shared?.store
        .write(shared.key, { value: JSON.stringify(value), version, expiresAt: this.entry.expiresAt }, KEEP_STALE_MS)
        .catch(() => undefined);
    } catch (error) {
      const failure = asUpstreamError(this.service, error);
      this.failure = { error: failure, until: this.now() + this.retryMs };
      await shared?.store
        .fail(shared.key, {
          failure: failure.failure,
          detail: failure.detail,
          ...(failure.status === undefined ? {} : { status: failure.status }),
          until: this.failure.until,
        })
        .catch(() => undefined);
    }
  }

  /**
   * Takes what Redis holds: a fresh answer (true), or a failure another instance met (true: the same
   * error, or the stale value, until the next try is due). A stale answer is kept in case the
   * upstream fails (a new instance starts warm), and false says to fetch.
   */
  private async fromShared(shared: NonNullable<CacheOptions['shared']>): Promise<boolean> {
    const { entry, failure } = await shared.store.read(shared.key);
    if (entry !== null && (this.entry === undefined || entry.version > this.entry.version)) {
      this.entry = { value: JSON.parse(entry.value) as T, version: entry.version, expiresAt: entry.expiresAt };
    }
    if (this.entry !== undefined && this.now() < this.entry.expiresAt) {
      this.failure = undefined;
      return true;
    }
    if (failure !== null && this.now() < failure.until) {
      this.failure = {
        error: new UpstreamError(this.service, failure.failure as UpstreamFailure, failure.detail, failure.status),
        until: failure.until,
      };
      return true;
    }
    return false;
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
      const shared = this.options.shared;
      cache = new UpstreamCache(this.service, () => this.load(key), {
        ...this.options,
        ...(shared === undefined ? {} : { shared: { ...shared, key: `${shared.key}:${key}` } }),
      });
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
