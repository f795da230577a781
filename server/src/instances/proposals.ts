import type { Redis } from 'ioredis';
import type { Sealer } from './seal';

/**
 * The proposals' side of Redis (docs/proposals.md, « Several instances »): made by shared-state.ts
 * on its connection and reached through it only (`SharedState.proposals`), its keys under
 * `collectif:proposals:`.
 *
 * - The proposals, one hash field per proposal (its number), each value signed for the hash as every
 *   value the instances write whole: whoever writes to Redis cannot make the server mail an address
 *   of their choosing.
 * - The numbers, one counter per letter and year, added to by Redis itself (INCR): two instances
 *   never give one number twice.
 * - Counts per network and day, and the challenges already used (SET NX until they expire).
 * - The refused forms kept a quarter of an hour for the page that shows them again (drafts).
 *
 * Only commands the site's ACL user has (deploy/redis-collectif.acl). Every method may throw: Redis
 * is away; the caller then does what one instance alone would do, or refuses (a new proposal).
 */
export interface SharedProposals {
  put(id: string, text: string): Promise<void>;
  /** Writes many at once, all or none (a backup given back to a Redis rebuilt from nothing). */
  putAll(entries: readonly { id: string; text: string }[]): Promise<void>;
  remove(id: string): Promise<boolean>;
  get(id: string): Promise<string | null>;
  has(id: string): Promise<boolean>;
  all(): Promise<{ texts: string[]; forged: number }>;
  count(): Promise<number>;
  /** The next rank of a letter and year (`E-2026`). */
  next(series: string): Promise<number>;
  /** Adds one to a network's count of the day; the count after (kept two days). */
  network(name: string): Promise<number>;
  /** Marks a challenge used for `ms`: true when it was not (the caller accepts it). */
  use(name: string, ms: number): Promise<boolean>;
  /** Keeps a draft (a refused form) for `ms`, and reads it back (null: absent or forged). */
  putDraft(id: string, text: string, ms: number): Promise<void>;
  draft(id: string): Promise<string | null>;
  /** A number that changes with every write of the proposals (the backup file follows it). */
  version(): Promise<number>;
}

const NETWORK_KEPT_MS = 2 * 24 * 3600_000;
const COUNT_PATTERN = /^\d{1,9}$/;

export function sharedProposals(redis: Redis, key: (name: string) => string, seals: Sealer): SharedProposals {
  const hash = key('proposals:all');
  const versionKey = key('proposals:version');
  return {
    async put(id, text) {
      await redis.multi().hset(hash, id, seals.seal(hash, text)).incr(versionKey).exec();
    },
    async putAll(entries) {
      const batch = redis.multi();
      for (const { id, text } of entries) batch.hset(hash, id, seals.seal(hash, text));
      await batch.incr(versionKey).exec();
    },
    async remove(id) {
      const answers = await redis.multi().hdel(hash, id).incr(versionKey).exec();
      return answers?.[0]?.[1] === 1;
    },
    async get(id) {
      const text = await redis.hget(hash, id);
      return text === null ? null : seals.open(hash, text);
    },
    async has(id) {
      return (await redis.hexists(hash, id)) === 1;
    },
    async all() {
      const values = Object.values(await redis.hgetall(hash));
      const texts = values.map((text) => seals.open(hash, text)).filter((text): text is string => text !== null);
      return { texts, forged: values.length - texts.length };
    },
    count: () => redis.hlen(hash),
    next: (series) => redis.incr(key(`proposals:number:${series}`)),
    async network(name) {
      const place = key(`proposals:network:${name}`);
      const answers = await redis.multi().incr(place).pexpire(place, NETWORK_KEPT_MS, 'NX').exec();
      const count = answers?.[0]?.[1];
      return typeof count === 'number' ? count : Number.MAX_SAFE_INTEGER;
    },
    async use(name, ms) {
      const place = key(`proposals:challenge:${name}`);
      return (await redis.set(place, '1', 'PX', Math.max(1, Math.round(ms)), 'NX')) === 'OK';
    },
    async putDraft(id, text, ms) {
      const place = key(`proposals:draft:${id}`);
      await redis.set(place, seals.seal(place, text), 'PX', Math.max(1, Math.round(ms)));
    },
    async draft(id) {
      const place = key(`proposals:draft:${id}`);
      const text = await redis.get(place);
      return text === null ? null : seals.open(place, text);
    },
    async version() {
      const text = await redis.get(versionKey);
      return text === null ? 0 : COUNT_PATTERN.test(text) ? Number(text) : -2;
    },
  };
}
