import type { Redis } from 'ioredis';
import { sharedRecords, type SharedRecords } from './records';
import type { Sealer } from './seal';

/**
 * The notifications' side of Redis (docs/push.md, « Several instances »): made by
 * shared-state.ts on its connection and reached through it only (`SharedState.push`), its keys under
 * its prefix (`collectif:push:`).
 *
 * - The subscriptions, one hash field per subscription (its id, a hash of its endpoint), each value
 *   signed for the hash, as every value the instances write whole (records.ts): whoever writes to Redis cannot
 *   make the sender post to an address of their choosing.
 * - Counts per network and day (the bound on new subscriptions), added to by Redis itself so that
 *   two instances never lose one; a count cannot be signed, so it is read back as a number within
 *   reason only.
 * - Marks of what was sent (a show's start, an episode), set once with NX: two senders, or one after
 *   a restart, never send one notification twice.
 *
 * Only commands the site's ACL user has (deploy/redis-collectif.acl). Every method may throw: Redis is away. The caller then does what one instance alone would do.
 */
export interface SharedPush extends SharedRecords {
  /** Adds one to a network's count of the day; the count after (kept two days). */
  network(name: string): Promise<number>;
  /** Marks `name` as done for `ms`: true when it was not done yet (the caller then does it). */
  once(name: string, ms: number): Promise<boolean>;
  /** Whether `name` is marked done. */
  done(name: string): Promise<boolean>;
}

/** A network's count of the day, kept beyond the day so that midnight in any zone is covered. */
const NETWORK_KEPT_MS = 2 * 24 * 3600_000;

export function sharedPush(redis: Redis, key: (name: string) => string, seals: Sealer): SharedPush {
  return {
    // The subscriptions, by id, and their version (the backup file follows it).
    ...sharedRecords(redis, key('push:subscriptions'), key('push:version'), seals),
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
  };
}
