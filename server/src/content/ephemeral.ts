import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';

/**
 * Short-lived values by key, read by whichever instance the next request reaches: the passkey
 * ceremonies' challenges (minutes) and the editors' sessions (their idle time, renewed at each
 * use). In memory for one process; in Redis when the instances share one (REDIS_URL), so that a
 * sign-in started on one instance ends on another. A Redis that does not answer throws.
 */
export interface Ephemeral {
  set(key: string, value: string, ms: number): Promise<void>;
  get(key: string): Promise<string | null>;
  /** Reads and forgets at once: a challenge is used once. */
  take(key: string): Promise<string | null>;
  delete(key: string): Promise<void>;
}

export function memoryEphemeral(max = 10_000): Ephemeral {
  const values = new LRUCache<string, string>({ max, ttlAutopurge: false });
  return {
    set(key, value, ms) {
      values.set(key, value, { ttl: ms });
      return Promise.resolve();
    },
    get(key) {
      return Promise.resolve(values.get(key) ?? null);
    },
    take(key) {
      const value = values.get(key) ?? null;
      values.delete(key);
      return Promise.resolve(value);
    },
    delete(key) {
      values.delete(key);
      return Promise.resolve();
    },
  };
}

export function redisEphemeral(redis: Redis, prefix = 'collectif:editeurs:'): Ephemeral {
  return {
    async set(key, value, ms) {
      await redis.set(`${prefix}${key}`, value, 'PX', Math.max(1, Math.round(ms)));
    },
    get: (key) => redis.get(`${prefix}${key}`),
    take: (key) => redis.getdel(`${prefix}${key}`),
    async delete(key) {
      await redis.del(`${prefix}${key}`);
    },
  };
}
