import type { Redis } from 'ioredis';
import { sharedRecords, type SharedRecords } from './records';
import type { Sealer } from './seal';

/**
 * The proposals' side of Redis (docs/proposals.md, « Several instances »): made by shared-state.ts
 * on its connection and reached through it only (`SharedState.proposals`), its keys under
 * `collectif:proposals:`.
 *
 * - The proposals, one hash field per proposal (its number), each value signed for the hash as every
 *   value the instances write whole (records.ts): whoever writes to Redis cannot make the server
 *   mail an address of their choosing.
 * - Counts per network, recipient and day (daily.ts), and the challenges already used (SET NX until they expire).
 * - The refused forms kept a quarter of an hour for the page that shows them again (drafts).
 *
 * Only commands the site's ACL user has (deploy/redis-collectif.acl). Every method may throw: Redis
 * is away; the caller then does what one instance alone would do, or refuses (a new proposal).
 */
export interface SharedProposals extends SharedRecords {
  /** Adds one to a hashed name's count of the day (a network, a recipient); the count after (kept two days). */
  network(name: string): Promise<number>;
  /** Marks a challenge used for `ms`: true when it was not (the caller accepts it). */
  use(name: string, ms: number): Promise<boolean>;
  /** Keeps a draft (a refused form) for `ms`, and reads it back (null: absent or forged). */
  putDraft(id: string, text: string, ms: number): Promise<void>;
  draft(id: string): Promise<string | null>;
}

const NETWORK_KEPT_MS = 2 * 24 * 3600_000;

export function sharedProposals(redis: Redis, key: (name: string) => string, seals: Sealer): SharedProposals {
  return {
    // The proposals, by number, and their version (the backup file follows it).
    ...sharedRecords(redis, key('proposals:all'), key('proposals:version'), seals),
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
  };
}
