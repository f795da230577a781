import type { Redis } from 'ioredis';
import * as v from 'valibot';
import { parsed } from './connection';
import type { Sealer } from './seal';

/** An upstream's answer as kept in Redis. */
export interface SharedEntry {
  /** The value, as JSON. */
  value: string;
  /** Changes with each new answer (when it was fetched, in ms). */
  version: number;
  /** Fresh until then (ms since the epoch); served as stale after it when the upstream fails. */
  expiresAt: number;
}

/** An upstream that failed, said to every instance until another try is due. */
export interface SharedFailure {
  /** How it failed (UpstreamFailure), with the detail and status that said it. */
  failure: string;
  detail: string;
  status?: number;
  until: number;
}

/** The upstream caches' side of Redis (upstream/cache.ts). Every method may throw: Redis is away. */
export interface SharedCacheStore {
  read(key: string): Promise<{ entry: SharedEntry | null; failure: SharedFailure | null }>;
  write(key: string, entry: SharedEntry, keepMs: number): Promise<void>;
  fail(key: string, failure: SharedFailure): Promise<void>;
  /** Takes the key's lock for `ms` if nobody holds it. */
  lock(key: string, ms: number): Promise<boolean>;
  unlock(key: string): Promise<void>;
}

const entrySchema = v.object({
  value: v.string(),
  version: v.pipe(v.number(), v.finite()),
  expiresAt: v.pipe(v.number(), v.finite()),
});
const failureSchema = v.object({
  failure: v.pipe(v.string(), v.maxLength(100)),
  detail: v.pipe(v.string(), v.maxLength(2000)),
  status: v.optional(v.pipe(v.number(), v.integer())),
  until: v.pipe(v.number(), v.finite()),
});

export const asEntry = (text: string | null | undefined): SharedEntry | null => parsed(entrySchema, text);
export const asFailure = (text: string | null | undefined): SharedFailure | null => parsed(failureSchema, text);

/** The upstream caches' side of Redis, on the command connection; each value signed for its key. */
export function sharedCache(redis: Redis, key: (name: string) => string, seals: Sealer): SharedCacheStore {
  return {
    async read(name) {
      const [entry, failure] = await redis.mget(key(`upstream:${name}`), key(`upstream:${name}:failure`));
      const opened = (place: string, text: string | null | undefined) =>
        text === null || text === undefined ? null : seals.open(place, text);
      return {
        entry: asEntry(opened(key(`upstream:${name}`), entry)),
        failure: asFailure(opened(key(`upstream:${name}:failure`), failure)),
      };
    },
    async write(name, entry, keepMs) {
      await redis
        .multi()
        .set(
          key(`upstream:${name}`),
          seals.seal(key(`upstream:${name}`), JSON.stringify(entry)),
          'PX',
          Math.max(1, Math.round(keepMs)),
        )
        .del(key(`upstream:${name}:failure`))
        .exec();
    },
    async fail(name, failure) {
      const ms = Math.max(1, Math.round(failure.until - Date.now()));
      const place = key(`upstream:${name}:failure`);
      await redis.set(place, seals.seal(place, JSON.stringify(failure)), 'PX', ms);
    },
    async lock(name, ms) {
      return (await redis.set(key(`upstream:${name}:lock`), '1', 'PX', Math.round(ms), 'NX')) === 'OK';
    },
    async unlock(name) {
      await redis.del(key(`upstream:${name}:lock`));
    },
  };
}
