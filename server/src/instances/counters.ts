import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import * as v from 'valibot';
import type { Sealer } from './seal';

/**
 * The audience figures' side of Redis (docs/figures.md, « In Redis »): made by shared-state.ts on
 * its connections and reached through it only (`SharedState.figures`, `VolatileRedis.visitors`),
 * with its keys under its prefix (`collectif:figures:`) and its scripts here. Two interfaces, one
 * per Redis, so that what names a visitor cannot be sent to the Redis that saves itself to disk:
 *
 * - `SharedFigureVisitors`, in the Redis that keeps nothing on disk (FIGURES_REDIS_URL): the day's
 *   salt, the salted names already counted, the quotas, the live's listeners present;
 * - `SharedFigureTotals`, in the instances' Redis (REDIS_URL): the day's counts and the last sample.
 *   The sample's lock is the shared state's lease (`SharedLeases`).
 *
 * Counts cannot be signed: Redis adds to them itself, in one script each, so that two instances
 * never lose an increment. The last sample, written whole, is signed as every other value. Each
 * value read back is bounded and checked before a caller gets it, as a request's body is: a salt
 * not of its form is replaced, a count not a whole number under a billion or a field's name not of
 * the figures' form is left out, the listeners present are at most PRESENT_MAX. Every method may
 * throw: Redis is away.
 */

/** Fields a day may hold: shows, episodes, moments and minutes together. */
export const FIELDS_MAX = 60_000;
/** Visitors' deeds a day may remember (about 80 bytes each in Redis). */
export const FIRST_MAX = 500_000;
/** Listeners present at once, per source. */
export const PRESENT_MAX = 100_000;
/** A field's name: letters, digits and the separators the figures use. */
export const FIELD_PATTERN = /^[a-z0-9:.-]{1,200}$/;
/** A count, as any value read back: a whole number within reason. */
export const countSchema = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000_000_000));
/** A day's counts are kept in Redis three days, for the instances that write them to disk. */
export const DAY_KEPT_MS = 3 * 24 * 3600_000;
/** A source's listeners present are kept ten minutes after the last one came. */
export const PRESENT_KEPT_MS = 600_000;
/** The last sample is a few dozen bytes; a longer value is no sample. */
const LAST_MAX_LENGTH = 1000;
const SALT_PATTERN = /^[0-9a-f]{64}$/;

/** The fields of a day as read back from Redis or disk: malformed names and values left out. */
export function checkedFields(raw: Record<string, unknown>): Record<string, number> {
  const fields: Record<string, number> = {};
  let kept = 0;
  for (const [name, value] of Object.entries(raw)) {
    if (kept >= FIELDS_MAX || !FIELD_PATTERN.test(name)) continue;
    const count = v.safeParse(
      countSchema,
      typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value,
    );
    if (!count.success) continue;
    fields[name] = count.output;
    kept += 1;
  }
  return fields;
}

/** What names the figures' visitors, in the Redis that keeps nothing on disk (until midnight). */
export interface SharedFigureVisitors {
  /** The day's salt (32 random bytes), made on first use by whichever instance comes first, kept `keptMs`. */
  salt(day: string, keptMs: number): Promise<Buffer>;
  /** Whether `member` is new today (then remembered `keptMs`); false past FIRST_MAX too. */
  first(day: string, member: string, keptMs: number): Promise<boolean>;
  /** Whether `member` was remembered today. */
  has(day: string, member: string): Promise<boolean>;
  /**
   * Adds one to a salted name's count of the day (kept `keptMs`): the count after, or
   * Number.MAX_SAFE_INTEGER (spent) for a new name past FIRST_MAX names.
   */
  quota(day: string, name: string, keptMs: number): Promise<number>;
  /** Says `member` is present in `source` at `at` (a new one past PRESENT_MAX is dropped). */
  touch(source: string, member: string, at: number): Promise<void>;
  /** How many members of `source` were present since `since` (older ones dropped), at most PRESENT_MAX. */
  present(source: string, since: number): Promise<number>;
  /** Drops the salts, names counted and quotas of the seven days before `day`. */
  forget(day: string): Promise<void>;
}

/** The figures' counts and last sample, in the instances' Redis (they name nobody). */
export interface SharedFigureTotals {
  /** Adds `count` to a field of the day (a new field past FIELDS_MAX is dropped); kept DAY_KEPT_MS. */
  add(day: string, field: string, count: number): Promise<void>;
  /** Raises a field of the day to `value` if it is lower (a new field past FIELDS_MAX is dropped). */
  max(day: string, field: string, value: number): Promise<void>;
  /** The day's fields, checked (`checkedFields`). */
  read(day: string): Promise<Record<string, number>>;
  /** The last sample, as JSON, shared with the other instances for `ms`. */
  setLast(text: string, ms: number): Promise<void>;
  /** The last sample, or null when absent, too long, or not signed by an instance. */
  getLast(): Promise<string | null>;
  /** Drops what an older version put here of the seven days before `day` (salts, names counted, quotas). */
  forget(day: string): Promise<void>;
}

// Each script acts on one key (KEYS[1]) and bounds it in the same step: two instances that add at
// once never pass a bound nor lose an increment. Their commands are in deploy/redis-collectif.acl
// and deploy/redis-figures.acl (Redis checks a script's commands and keys against its caller's ACL).

// A member added to the day's set unless it holds FIRST_MAX: 1 when new.
const FIRST = `
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
local added = redis.call('SADD', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return added
`;
// One more for a name of the day's quotas; -1 for a new name past the bound.
const QUOTA = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[2]) then return -1 end
local count = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return count
`;
// A field of the day added to, within the day's bound of fields.
const ADD = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 or redis.call('HLEN', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 0
`;
// A field raised to a value, within the day's bound of fields.
const MAX = `
local present = redis.call('HGET', KEYS[1], ARGV[1])
if present then
  if tonumber(present) < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
elseif redis.call('HLEN', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 0
`;
// A member of a source present at an instant, within the source's bound.
const TOUCH = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 0
`;

/** A duration for Redis: whole milliseconds, at least one. */
const ms = (value: number) => Math.max(1, Math.round(value));

/** The keys of what names visitors on the seven days before `day` (each expires at its midnight). */
function visitorKeysBefore(day: string, key: (name: string) => string): string[] {
  const names: string[] = [];
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  for (let back = 1; back <= 7; back += 1) {
    const before = new Date(Date.UTC(year, month - 1, date - back)).toISOString().slice(0, 10);
    names.push(key(`salt:${before}`), key(`seen:${before}`), key(`quota:${before}`));
  }
  return names;
}

/**
 * The visitors' side on a connection to the figures' Redis; `key` gives a name its place
 * (`collectif:figures:<name>`).
 */
export function figureVisitors(redis: Redis, key: (name: string) => string): SharedFigureVisitors {
  return {
    async salt(day, keptMs) {
      const name = key(`salt:${day}`);
      await redis.set(name, randomBytes(32).toString('hex'), 'PX', ms(keptMs), 'NX');
      const text = await redis.get(name);
      // Checked as any value from Redis: a salt that is not 32 random bytes in hex is replaced.
      if (text !== null && SALT_PATTERN.test(text)) return Buffer.from(text, 'hex');
      const salt = randomBytes(32);
      await redis.set(name, salt.toString('hex'), 'PX', ms(keptMs));
      return salt;
    },
    async first(day, member, keptMs) {
      const added = await redis.eval(FIRST, 1, key(`seen:${day}`), member, String(FIRST_MAX), String(ms(keptMs)));
      return Number(added) === 1;
    },
    async has(day, member) {
      return (await redis.sismember(key(`seen:${day}`), member)) === 1;
    },
    async quota(day, name, keptMs) {
      const count = Number(
        await redis.eval(QUOTA, 1, key(`quota:${day}`), name, String(FIRST_MAX), String(ms(keptMs))),
      );
      return count < 0 || !Number.isInteger(count) ? Number.MAX_SAFE_INTEGER : count;
    },
    async touch(source, member, at) {
      await redis.eval(
        TOUCH,
        1,
        key(`present:${source}`),
        member,
        String(at),
        String(PRESENT_MAX),
        String(PRESENT_KEPT_MS),
      );
    },
    async present(source, since) {
      const name = key(`present:${source}`);
      await redis.zremrangebyscore(name, '-inf', `(${String(since)}`);
      const count = await redis.zcard(name);
      return Number.isInteger(count) && count >= 0 ? Math.min(count, PRESENT_MAX) : 0;
    },
    async forget(day) {
      // What names visitors expires at midnight by itself; on the day after, what another clock
      // may have left is dropped too (a week back).
      await redis.del(...visitorKeysBefore(day, key));
    },
  };
}

/**
 * The totals' side on a connection to the instances' Redis; `key` gives a name its place
 * (`collectif:figures:<name>`), `seals` signs the last sample for it.
 */
export function figureTotals(redis: Redis, key: (name: string) => string, seals: Sealer): SharedFigureTotals {
  const last = key('last');
  return {
    async add(day, field, count) {
      await redis.eval(ADD, 1, key(`day:${day}`), field, String(count), String(FIELDS_MAX), String(DAY_KEPT_MS));
    },
    async max(day, field, value) {
      await redis.eval(MAX, 1, key(`day:${day}`), field, String(value), String(FIELDS_MAX), String(DAY_KEPT_MS));
    },
    async read(day) {
      return checkedFields(await redis.hgetall(key(`day:${day}`)));
    },
    async setLast(text, lastMs) {
      await redis.set(last, seals.seal(last, text), 'PX', ms(lastMs));
    },
    async getLast() {
      const sealed = await redis.get(last);
      return sealed === null || sealed.length > LAST_MAX_LENGTH ? null : seals.open(last, sealed);
    },
    async forget(day) {
      await redis.del(...visitorKeysBefore(day, key));
    },
  };
}
