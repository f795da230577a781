import { LRUCache } from 'lru-cache';
import type { Sealer } from '../instances/seal';

/**
 * Short-lived values by name, read by whichever instance the next request reaches: the passkey
 * ceremonies' challenges (minutes), the editors' sessions (their idle time, renewed at each use) and
 * the wrong admin tokens counted per address (a minute). In memory for one process; in Redis when
 * the instances share one (REDIS_URL), so that a sign-in started on one instance ends on another. A
 * Redis that does not answer throws.
 */
export interface Ephemeral {
  set(name: string, value: string, ms: number): Promise<void>;
  get(name: string): Promise<string | null>;
  /** Reads and forgets at once: a challenge is used once. */
  take(name: string): Promise<string | null>;
  delete(name: string): Promise<void>;
}

export function memoryEphemeral(max = 10_000): Ephemeral {
  const values = new LRUCache<string, string>({ max, ttlAutopurge: false });
  return {
    set(name, value, ms) {
      values.set(name, value, { ttl: ms });
      return Promise.resolve();
    },
    get(name) {
      return Promise.resolve(values.get(name) ?? null);
    },
    take(name) {
      const value = values.get(name) ?? null;
      values.delete(name);
      return Promise.resolve(value);
    },
    delete(name) {
      values.delete(name);
      return Promise.resolve();
    },
  };
}

/** The commands the Redis store sends (ioredis's connection has them). */
export interface EphemeralRedis {
  set(key: string, value: string, px: 'PX', ms: number): Promise<unknown>;
  get(key: string): Promise<string | null>;
  getdel(key: string): Promise<string | null>;
  del(key: string): Promise<number>;
}

export interface EphemeralOptions {
  /** The instances' shared key (SITE_SECRET): what keys and signs every value. */
  seals: Sealer;
  /** What the store keeps, in French, as the log says it (« cérémonie de clé d’accès »). */
  what: string;
  /** Where a refused value is said. */
  log: { warn: (message: string) => void };
  prefix?: string;
}

export const EPHEMERAL_PREFIX = 'collectif:editeurs:';

/**
 * Where a value named `name` (`ceremony:<id>`, `session:<…>`, `wrong-token:<address>`) is kept in
 * Redis: `<prefix><kind>:<HMAC-SHA256 of the name with SITE_SECRET>`, the kind being what comes
 * before the name's first colon. Only an instance can tell where the value of a name it made is
 * read from: whoever writes to Redis cannot put one where an instance will read it, nor aim a value
 * at a ceremony's id or a client's address, and whoever reads Redis learns neither.
 */
export function ephemeralKey(seals: Sealer, name: string, prefix = EPHEMERAL_PREFIX): string {
  const colon = name.indexOf(':');
  const kind = colon > 0 ? name.slice(0, colon) : 'valeur';
  // Signed for the prefix alone, a context no value is sealed for (a value's is its whole key).
  return `${prefix}${kind}:${seals.sign(prefix, Buffer.from(name))}`;
}

/**
 * The store in Redis (docs/deploy.md, « What the site takes from Redis »): each value under its
 * name's keyed hash (`ephemeralKey`), sealed with SITE_SECRET for that key. A value whose signature
 * is absent, false, or made for another key (written by whoever has Redis's password, copied from
 * another key, or sealed with another secret) is refused: taken as absent, said once in the log, and
 * deleted (a ceremony is taken from Redis as it is read anyway), so that the next read finds nothing.
 */
export function redisEphemeral(
  redis: EphemeralRedis,
  { seals, what, log, prefix = EPHEMERAL_PREFIX }: EphemeralOptions,
): Ephemeral {
  const place = (name: string) => ephemeralKey(seals, name, prefix);
  /** The value kept under `key`, or null when absent or refused (and then said). */
  const opened = (key: string, sealed: string | null): string | null => {
    if (sealed === null) return null;
    const text = seals.open(key, sealed);
    if (text === null) {
      log.warn(`valeur refusée dans Redis (${what}) : signature absente ou fausse (SITE_SECRET), tenue pour absente`);
    }
    return text;
  };
  return {
    async set(name, value, ms) {
      const key = place(name);
      await redis.set(key, seals.seal(key, value), 'PX', Math.max(1, Math.round(ms)));
    },
    async get(name) {
      const key = place(name);
      const sealed = await redis.get(key);
      const text = opened(key, sealed);
      if (sealed !== null && text === null) await redis.del(key);
      return text;
    },
    async take(name) {
      const key = place(name);
      return opened(key, await redis.getdel(key));
    },
    async delete(name) {
      await redis.del(place(name));
    },
  };
}
