import type { Redis } from 'ioredis';
import type { Sealer } from './seal';

/**
 * What the radio played (docs/content.md, « What the radio played »): rows recorded by every
 * instance, kept in a sorted set by their instant, each signed for its place. Every method may throw.
 */
export interface SharedPlayed {
  /** Adds rows (`text`: a row's JSON, `at`: its instant in ms); drops those older than `since`, keeps the newest `max`. */
  add(rows: readonly { at: number; text: string }[], { since, max }: { since: number; max: number }): Promise<void>;
  /** The rows from `since` on, oldest first, whose signature holds, and how many did not. */
  since(since: number): Promise<{ rows: string[]; forged: number }>;
}

/** What the radio played, in one sorted set on the command connection, each row signed for it. */
export function sharedPlayed(redis: Redis, key: (name: string) => string, seals: Sealer): SharedPlayed {
  const playedKey = key('played');
  return {
    async add(rows, { since, max }) {
      if (rows.length === 0) return;
      // The same row recorded by several instances is one member: its text and its seal are the same.
      await redis
        .multi()
        .zadd(playedKey, ...rows.flatMap(({ at, text }) => [at, seals.seal(playedKey, text)]))
        .zremrangebyscore(playedKey, '-inf', `(${String(since)}`)
        .zremrangebyrank(playedKey, 0, -(max + 1))
        .exec();
    },
    async since(since) {
      const texts = await redis.zrangebyscore(playedKey, since, '+inf');
      const rows = texts.map((text) => seals.open(playedKey, text)).filter((text): text is string => text !== null);
      return { rows, forged: texts.length - rows.length };
    },
  };
}
