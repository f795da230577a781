import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import * as v from 'valibot';

/**
 * Where the day's counts live until they are written to disk, and what a day needs to count each
 * visitor once (docs/figures.md, « How »): the day's salt, the visitors already counted, each
 * address's beacons. With Redis every instance shares them; without it, or while it is away, this
 * process keeps its own (`memoryTally`), as one instance alone would.
 *
 * Everything that names a visitor (the salt, the salted hashes) lives until the next midnight in
 * Paris only, in memory and in a Redis that keeps nothing on disk (FIGURES_REDIS_URL, `splitTally`),
 * and never on disk: each call says when it ends (`keptMs`).
 */
export interface Tally {
  /** The day's salt, made on first use; those of other days are dropped. */
  salt(day: string, keptMs: number): Promise<Buffer>;
  /** Whether `member` (a salted hash and what it did) is new today; false past FIRST_MAX too. */
  first(day: string, member: string, keptMs: number): Promise<boolean>;
  /** Whether `member` was remembered today. */
  has(day: string, member: string): Promise<boolean>;
  /** Adds one to a salted name's count of the day (an address's visitors, a visitor's deeds); the count after. */
  quota(day: string, address: string, keptMs: number): Promise<number>;
  /** Adds `count` to a field of the day (a new field past FIELDS_MAX is dropped). */
  add(day: string, field: string, count: number): Promise<void>;
  /** Raises a field of the day to `value` if it is lower. */
  max(day: string, field: string, value: number): Promise<void>;
  /** The day's fields, each checked (a malformed one is left out). */
  read(day: string): Promise<Record<string, number>>;
  /** Says `member` is present in `source` at `at` (the live's listeners). */
  touch(source: string, member: string, at: number): Promise<void>;
  /** The members of `source` seen since `since`. */
  present(source: string, since: number): Promise<number>;
  /** Takes `name` for `ms` if nobody holds it (one sample a minute for the deployment). */
  lock(name: string, ms: number): Promise<boolean>;
  /** The last sample, as JSON, shared with the other instances. */
  setLast(text: string, ms: number): Promise<void>;
  getLast(): Promise<string | null>;
  /** Drops what names visitors on the days before `day` (salts, counted visitors, quotas). */
  forget(day: string): Promise<void>;
}

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
const SALT_PATTERN = /^[0-9a-f]{64}$/;
const PREFIX = 'collectif:figures:';

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

/** This process's own tally (no Redis, or Redis away). */
export function memoryTally(now: () => number): Tally {
  const salts = new Map<string, Buffer>();
  const firsts = new Map<string, Set<string>>();
  const quotas = new Map<string, Map<string, number>>();
  const days = new Map<string, Map<string, number>>();
  const presence = new Map<string, Map<string, number>>();
  const locks = new Map<string, number>();
  let last: { text: string; until: number } | null = null;
  const dayOf = (day: string) => {
    let fields = days.get(day);
    if (fields === undefined) {
      fields = new Map();
      days.set(day, fields);
      // Three days of counts at most: older ones are on disk.
      for (const known of [...days.keys()].sort().slice(0, -3)) days.delete(known);
    }
    return fields;
  };
  const keepOnly = <T>(map: Map<string, T>, day: string) => {
    for (const known of map.keys()) if (known !== day) map.delete(known);
  };
  return {
    salt(day) {
      keepOnly(salts, day);
      let salt = salts.get(day);
      if (salt === undefined) {
        salt = randomBytes(32);
        salts.set(day, salt);
      }
      return Promise.resolve(salt);
    },
    first(day, member) {
      keepOnly(firsts, day);
      let seen = firsts.get(day);
      if (seen === undefined) {
        seen = new Set();
        firsts.set(day, seen);
      }
      if (seen.has(member) || seen.size >= FIRST_MAX) return Promise.resolve(false);
      seen.add(member);
      return Promise.resolve(true);
    },
    has(day, member) {
      return Promise.resolve(firsts.get(day)?.has(member) === true);
    },
    quota(day, address) {
      keepOnly(quotas, day);
      let counts = quotas.get(day);
      if (counts === undefined) {
        counts = new Map();
        quotas.set(day, counts);
      }
      // Bounded like the rest: past FIRST_MAX addresses a day, a new one counts as spent.
      if (!counts.has(address) && counts.size >= FIRST_MAX) return Promise.resolve(Number.MAX_SAFE_INTEGER);
      const count = (counts.get(address) ?? 0) + 1;
      counts.set(address, count);
      return Promise.resolve(count);
    },
    add(day, field, count) {
      const fields = dayOf(day);
      if (fields.has(field) || fields.size < FIELDS_MAX) fields.set(field, (fields.get(field) ?? 0) + count);
      return Promise.resolve();
    },
    max(day, field, value) {
      const fields = dayOf(day);
      const present = fields.get(field);
      if ((present === undefined && fields.size < FIELDS_MAX) || (present !== undefined && present < value)) {
        fields.set(field, value);
      }
      return Promise.resolve();
    },
    read(day) {
      return Promise.resolve(Object.fromEntries(days.get(day) ?? []));
    },
    touch(source, member, at) {
      let members = presence.get(source);
      if (members === undefined) {
        members = new Map();
        presence.set(source, members);
      }
      if (members.has(member) || members.size < PRESENT_MAX) members.set(member, at);
      return Promise.resolve();
    },
    present(source, since) {
      const members = presence.get(source);
      if (members === undefined) return Promise.resolve(0);
      let count = 0;
      for (const [member, at] of members) {
        if (at >= since) count += 1;
        else members.delete(member);
      }
      return Promise.resolve(count);
    },
    lock(name, ms) {
      const held = locks.get(name);
      if (held !== undefined && held > now()) return Promise.resolve(false);
      for (const [known, until] of locks) if (until <= now()) locks.delete(known);
      locks.set(name, now() + ms);
      return Promise.resolve(true);
    },
    setLast(text, ms) {
      last = { text, until: now() + ms };
      return Promise.resolve();
    },
    getLast() {
      return Promise.resolve(last !== null && last.until > now() ? last.text : null);
    },
    forget(day) {
      keepOnly(salts, day);
      keepOnly(firsts, day);
      keepOnly(quotas, day);
      return Promise.resolve();
    },
  };
}

// A field raised to a value, atomically, within the day's bound.
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
const ADD = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 or redis.call('HLEN', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 0
`;
const FIRST = `
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
local added = redis.call('SADD', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return added
`;
const QUOTA = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[2]) then return -1 end
local count = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return count
`;
const TOUCH = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
end
redis.call('PEXPIRE', KEYS[1], 600000)
return 0
`;

/** A day's counts are kept in Redis three days, for the instances that write them to disk. */
const DAY_KEPT_MS = 3 * 24 * 3600_000;

/** The deployment's tally, in Redis. Every method may throw: Redis is away. */
export function redisTally(redis: Redis): Tally {
  const key = (name: string) => `${PREFIX}${name}`;
  const ms = (value: number) => String(Math.max(1, Math.round(value)));
  return {
    async salt(day, keptMs) {
      const name = key(`salt:${day}`);
      await redis.set(name, randomBytes(32).toString('hex'), 'PX', Math.max(1, Math.round(keptMs)), 'NX');
      const text = await redis.get(name);
      // Checked as any value from Redis: a salt that is not 32 random bytes in hex is replaced.
      if (text !== null && SALT_PATTERN.test(text)) return Buffer.from(text, 'hex');
      const salt = randomBytes(32);
      await redis.set(name, salt.toString('hex'), 'PX', Math.max(1, Math.round(keptMs)));
      return salt;
    },
    async first(day, member, keptMs) {
      return Number(await redis.eval(FIRST, 1, key(`seen:${day}`), member, String(FIRST_MAX), ms(keptMs))) === 1;
    },
    async has(day, member) {
      return (await redis.sismember(key(`seen:${day}`), member)) === 1;
    },
    async quota(day, address, keptMs) {
      const count = Number(await redis.eval(QUOTA, 1, key(`quota:${day}`), address, String(FIRST_MAX), ms(keptMs)));
      return count < 0 || !Number.isInteger(count) ? Number.MAX_SAFE_INTEGER : count;
    },
    async add(day, field, count) {
      await redis.eval(ADD, 1, key(`day:${day}`), field, String(count), String(FIELDS_MAX), String(DAY_KEPT_MS));
    },
    async max(day, field, value) {
      await redis.eval(MAX, 1, key(`day:${day}`), field, String(value), String(FIELDS_MAX), String(DAY_KEPT_MS));
    },
    async read(day) {
      return checkedFields(await redis.hgetall(key(`day:${day}`)));
    },
    async touch(source, member, at) {
      await redis.eval(TOUCH, 1, key(`present:${source}`), member, String(at), String(PRESENT_MAX));
    },
    async present(source, since) {
      const name = key(`present:${source}`);
      await redis.zremrangebyscore(name, '-inf', `(${String(since)}`);
      const count = await redis.zcard(name);
      return Number.isInteger(count) && count >= 0 ? Math.min(count, PRESENT_MAX) : 0;
    },
    async lock(name, lockMs) {
      return (await redis.set(key(`lock:${name}`), '1', 'PX', Math.max(1, Math.round(lockMs)), 'NX')) === 'OK';
    },
    async setLast(text, lastMs) {
      await redis.set(key('last'), text, 'PX', Math.max(1, Math.round(lastMs)));
    },
    async getLast() {
      return redis.get(key('last'));
    },
    async forget(day) {
      // What names visitors expires at midnight by itself; on the day after, what another clock
      // may have left is dropped too (a week back).
      const names: string[] = [];
      const [year, month, date] = day.split('-').map(Number) as [number, number, number];
      for (let back = 1; back <= 7; back += 1) {
        const before = new Date(Date.UTC(year, month - 1, date - back)).toISOString().slice(0, 10);
        names.push(key(`salt:${before}`), key(`seen:${before}`), key(`quota:${before}`));
      }
      await redis.del(...names);
    },
  };
}

/**
 * Redis's tally while it answers (and while `allowed` says it may be used), this process's own while it
 * does not (counting never fails).
 */
export function resilientTally(shared: Tally, local: Tally, allowed: () => boolean = () => true): Tally {
  const either = <K extends Exclude<keyof Tally, 'forget'>>(name: K): Tally[K] => {
    type Call = (...args: unknown[]) => Promise<unknown>;
    const call = async (...args: unknown[]) => {
      if (!allowed()) return (local[name] as Call)(...args);
      try {
        return await (shared[name] as Call)(...args);
      } catch {
        return (local[name] as Call)(...args);
      }
    };
    return call as Tally[K];
  };
  return {
    salt: either('salt'),
    first: either('first'),
    has: either('has'),
    quota: either('quota'),
    add: either('add'),
    max: either('max'),
    read: either('read'),
    touch: either('touch'),
    present: either('present'),
    lock: either('lock'),
    setLast: either('setLast'),
    getLast: either('getLast'),
    async forget(day) {
      await local.forget(day);
      await shared.forget(day).catch(() => undefined);
    },
  };
}

/**
 * The figures' two stores (docs/figures.md, « Nothing on disk »): what names a visitor (the salt,
 * the salted names counted, the listeners present) in `visitors`, kept in a Redis that writes
 * nothing to disk or in this process; the day's totals, the sample's lock and the last sample,
 * which name nobody, in `totals` (the instances' Redis, saved as it is).
 */
export function splitTally(visitors: Tally, totals: Tally): Tally {
  return {
    salt: (day, keptMs) => visitors.salt(day, keptMs),
    first: (day, member, keptMs) => visitors.first(day, member, keptMs),
    has: (day, member) => visitors.has(day, member),
    quota: (day, address, keptMs) => visitors.quota(day, address, keptMs),
    touch: (source, member, at) => visitors.touch(source, member, at),
    present: (source, since) => visitors.present(source, since),
    add: (day, field, count) => totals.add(day, field, count),
    max: (day, field, value) => totals.max(day, field, value),
    read: (day) => totals.read(day),
    lock: (name, ms) => totals.lock(name, ms),
    setLast: (text, ms) => totals.setLast(text, ms),
    getLast: () => totals.getLast(),
    // Both: the instances' Redis may hold what an older version put there.
    async forget(day) {
      await visitors.forget(day);
      if (totals !== visitors) await totals.forget(day);
    },
  };
}
