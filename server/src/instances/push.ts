import type { Redis } from 'ioredis';
import type { Sealer } from './seal';

/**
 * The notifications' side of Redis (docs/push.md, « Several instances »): made by
 * shared-state.ts on its connection and reached through it only (`SharedState.push`), its keys under
 * its prefix (`collectif:push:`).
 *
 * - The subscriptions, one hash field per subscription (its id, a hash of its endpoint), each value
 *   signed for the hash, as every value the instances write whole: whoever writes to Redis cannot
 *   make the sender post to an address of their choosing.
 * - Counts per network and day (the bound on new subscriptions), added to by Redis itself so that
 *   two instances never lose one; a count cannot be signed, so it is read back as a number within
 *   reason only.
 * - Marks of what was sent (a show's start, an episode), set once with NX: two senders, or one after
 *   a restart, never send one notification twice.
 *
 * Only commands the site's ACL user has (deploy/redis-collectif.acl). Every method may throw: Redis is away. The caller then does what one instance alone would do.
 */
export interface SharedPush {
  /** Writes a subscription's JSON under its id. */
  put(id: string, text: string): Promise<void>;
  /** Deletes subscriptions by id; how many were there. */
  remove(ids: readonly string[]): Promise<number>;
  /** One subscription's JSON, or null when absent or its signature does not hold. */
  get(id: string): Promise<string | null>;
  /** Every subscription's JSON whose signature holds, and how many did not. */
  all(): Promise<{ texts: string[]; forged: number }>;
  count(): Promise<number>;
  /** Adds one to a network's count of the day; the count after (kept two days). */
  network(name: string): Promise<number>;
  /** Marks `name` as done for `ms`: true when it was not done yet (the caller then does it). */
  once(name: string, ms: number): Promise<boolean>;
  /** Whether `name` is marked done. */
  done(name: string): Promise<boolean>;
  /** A number that changes with every write of the subscriptions (the backup file follows it). */
  version(): Promise<number>;
}

/** A network's count of the day, kept beyond the day so that midnight in any zone is covered. */
const NETWORK_KEPT_MS = 2 * 24 * 3600_000;
/** A count read back: whole and within reason, else taken as the bound's worth (refused). */
const COUNT_PATTERN = /^\d{1,9}$/;

export function sharedPush(redis: Redis, key: (name: string) => string, seals: Sealer): SharedPush {
  const hash = key('push:subscriptions');
  const versionKey = key('push:version');
  const numberOf = (text: string | null): number =>
    text === null ? 0 : COUNT_PATTERN.test(text) ? Number(text) : Number.MAX_SAFE_INTEGER;
  return {
    async put(id, text) {
      await redis.multi().hset(hash, id, seals.seal(hash, text)).incr(versionKey).exec();
    },
    async remove(ids) {
      if (ids.length === 0) return 0;
      const answers = await redis
        .multi()
        .hdel(hash, ...ids)
        .incr(versionKey)
        .exec();
      const removed = answers?.[0]?.[1];
      return typeof removed === 'number' ? removed : 0;
    },
    async get(id) {
      const text = await redis.hget(hash, id);
      return text === null ? null : seals.open(hash, text);
    },
    async all() {
      const values = Object.values(await redis.hgetall(hash));
      const texts = values.map((text) => seals.open(hash, text)).filter((text): text is string => text !== null);
      return { texts, forged: values.length - texts.length };
    },
    count: () => redis.hlen(hash),
    async network(name) {
      const place = key(`push:network:${name}`);
      const answers = await redis.multi().incr(place).pexpire(place, NETWORK_KEPT_MS, 'NX').exec();
      const count = answers?.[0]?.[1];
      return typeof count === 'number' ? count : Number.MAX_SAFE_INTEGER;
    },
    async once(name, ms) {
      return (await redis.set(key(`push:sent:${name}`), '1', 'PX', Math.max(1, Math.round(ms)), 'NX')) === 'OK';
    },
    async done(name) {
      return (await redis.get(key(`push:sent:${name}`))) !== null;
    },
    async version() {
      return numberOf(await redis.get(versionKey));
    },
  };
}
