import { randomBytes, randomUUID } from 'node:crypto';
import {
  FIELDS_MAX,
  FIRST_MAX,
  PRESENT_MAX,
  type SharedFigureVisitors,
  type SharedState,
  type VolatileRedis,
} from '../instances/shared-state';

/**
 * Where the day's counts live until they are written to disk, and what a day needs to count each
 * visitor once (docs/figures.md, « How »): the day's salt, the visitors already counted, each
 * address's beacons. With Redis every instance shares them, through the shared state's figures'
 * counters (docs/figures.md, « In Redis »); without it, or while it is away, this process keeps its
 * own (`memoryTally`), as one instance alone would.
 *
 * Everything that names a visitor (the salt, the salted hashes) lives until the next midnight in
 * Paris only, in memory and in a Redis that keeps nothing on disk (FIGURES_REDIS_URL, `sharedTally`),
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

// The bounds are the shared state's counters' (docs/figures.md, « In Redis »): the same in memory.
export { checkedFields, FIELDS_MAX, FIRST_MAX, PRESENT_MAX } from '../instances/shared-state';

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

/**
 * The figures' two stores in Redis (docs/figures.md, « Nothing on disk »), each absent (null) when
 * its Redis is not set.
 */
export interface TallyStores {
  /**
   * What names a visitor (the salt, the salted names counted, the quotas, the listeners present):
   * the figures' Redis, which keeps nothing on disk, while it says so (`usable`).
   */
  visitors: Pick<VolatileRedis, 'visitors' | 'usable'> | null;
  /** The day's totals, the sample's lease and the last sample, which name nobody: the instances' Redis. */
  totals: Pick<SharedState, 'figures' | 'leases'> | null;
}

/**
 * The deployment's tally: each store's Redis while it answers (and, for the visitors', while it
 * keeps nothing on disk), this process's own (`local`) when it is absent, refused or away (counting
 * never fails).
 */
export function sharedTally({ visitors, totals }: TallyStores, local: Tally): Tally {
  /** Redis's answer, or this process's when Redis may not be used or fails. */
  const either = async <T>(shared: (() => Promise<T>) | null, alone: () => Promise<T>): Promise<T> => {
    if (shared === null) return alone();
    try {
      return await shared();
    } catch {
      return alone();
    }
  };
  /** The visitors' store, while it may be used. */
  const onVisitors = <T>(call: (store: SharedFigureVisitors) => Promise<T>): (() => Promise<T>) | null =>
    visitors === null || !visitors.usable() ? null : () => call(visitors.visitors);
  /** The instances' store, when there is one. */
  const onTotals = <T>(
    call: (store: Pick<SharedState, 'figures' | 'leases'>) => Promise<T>,
  ): (() => Promise<T>) | null => (totals === null ? null : () => call(totals));
  // The sample's lock is the shared state's lease, taken under this process's token.
  const token = randomUUID();
  return {
    salt: (day, keptMs) =>
      either(
        onVisitors((store) => store.salt(day, keptMs)),
        () => local.salt(day, keptMs),
      ),
    first: (day, member, keptMs) =>
      either(
        onVisitors((store) => store.first(day, member, keptMs)),
        () => local.first(day, member, keptMs),
      ),
    has: (day, member) =>
      either(
        onVisitors((store) => store.has(day, member)),
        () => local.has(day, member),
      ),
    quota: (day, address, keptMs) =>
      either(
        onVisitors((store) => store.quota(day, address, keptMs)),
        () => local.quota(day, address, keptMs),
      ),
    touch: (source, member, at) =>
      either(
        onVisitors((store) => store.touch(source, member, at)),
        () => local.touch(source, member, at),
      ),
    present: (source, since) =>
      either(
        onVisitors((store) => store.present(source, since)),
        () => local.present(source, since),
      ),
    add: (day, field, count) =>
      either(
        onTotals((store) => store.figures.add(day, field, count)),
        () => local.add(day, field, count),
      ),
    max: (day, field, value) =>
      either(
        onTotals((store) => store.figures.max(day, field, value)),
        () => local.max(day, field, value),
      ),
    read: (day) =>
      either(
        onTotals((store) => store.figures.read(day)),
        () => local.read(day),
      ),
    lock: (name, ms) =>
      either(
        onTotals((store) => store.leases.take(`figures:${name}`, token, ms)),
        () => local.lock(name, ms),
      ),
    setLast: (text, ms) =>
      either(
        onTotals((store) => store.figures.setLast(text, ms)),
        () => local.setLast(text, ms),
      ),
    getLast: () =>
      either(
        onTotals((store) => store.figures.getLast()),
        () => local.getLast(),
      ),
    async forget(day) {
      await local.forget(day);
      // Both Redis, whether or not the figures' may be used now: the instances' may hold what an
      // older version put there.
      await visitors?.visitors.forget(day).catch(() => undefined);
      await totals?.figures.forget(day).catch(() => undefined);
    },
  };
}
