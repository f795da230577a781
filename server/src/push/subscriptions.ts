import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { SLUG } from '@collectif/shared/content-schemas';
import { createDailyCounts, networksOf } from '../instances/daily';
import { createRecords, type RecordBudget } from '../instances/records';
import type { SharedPush } from '../instances/shared-state';
import { ENDPOINT_MAX } from './endpoint';
import type { PushTarget } from './message';

/**
 * « Me prévenir »'s subscriptions (docs/push.md, « What the server keeps, and for how long »): for each browser that
 * asked, its push endpoint and keys, the residences and, for each, the two choices (« quand
 * l'émission commence », « quand une nouvelle émission est publiée »), and when it was last saved.
 * Nothing else: no address, no user agent, no cookie. The bound on new subscriptions per network
 * and day keys on a keyed hash of the network (instances/daily.ts), kept two days in Redis or for
 * the day in this process's memory, never on disk. The subscriptions together are bounded by the
 * memory they may take (PUSH_STORE_MB), and one not renewed by its browser within
 * PUSH_SUBSCRIPTION_DAYS expires (docs/push.md, « Bounds »).
 *
 * One store for one instance or several (instances/records.ts): without Redis it is this process's memory, written whole to
 * `push.json` in CONTENT_DIR a few seconds after each change and at close; with Redis the
 * subscriptions live there (every instance reads and writes the same), and the file follows Redis
 * as its backup, written by the sending instance (`backup`). An instance that finds Redis empty and
 * its file full gives the file to Redis (a Redis rebuilt from nothing). The marks of what was sent
 * are kept in both, so that nothing is sent twice, after a restart either.
 */

/** Residences one subscription may name: the follow list's own bound (docs/follow.md, « The list »). */
export const PUSH_RESIDENCES_MAX = 50;
/**
 * What one subscription may cost in memory (instances/records.ts, `recordCost`): the largest the
 * schema admits (an endpoint of ENDPOINT_MAX characters, PUSH_RESIDENCES_MAX ids of 60) costs about
 * 12.5 KB, so that every valid subscription fits and the total is what bounds them.
 */
export const PUSH_RECORD_MAX = 16 * 1024;

export const choiceSchema = v.strictObject({
  id: v.pipe(v.string(), v.maxLength(60), v.regex(SLUG)),
  live: v.boolean(),
  replay: v.boolean(),
});
export type PushChoice = v.InferOutput<typeof choiceSchema>;

export const keysSchema = v.strictObject({
  p256dh: v.pipe(v.string(), v.maxLength(100)),
  auth: v.pipe(v.string(), v.maxLength(40)),
});

const recordSchema = v.strictObject({
  endpoint: v.pipe(v.string(), v.maxLength(ENDPOINT_MAX)),
  keys: keysSchema,
  residences: v.pipe(v.array(choiceSchema), v.minLength(1), v.maxLength(PUSH_RESIDENCES_MAX)),
  at: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type PushRecord = v.InferOutput<typeof recordSchema>;

/** The marks of what was sent, in the file beside the subscriptions: each until when (ms). */
const sentSchema = v.record(v.pipe(v.string(), v.maxLength(200)), v.number());

export type PushKind = 'live' | 'replay';

export interface PushStore {
  /**
   * Saves a subscription, new or replacing the one of its endpoint. The one of its endpoint is
   * replaced only by the same browser (its auth key): 'other' otherwise. A new one is refused past
   * the bound in all ('full'), or when `allowNew` says no ('network': the bound per network).
   */
  replace(record: PushRecord, allowNew: () => Promise<boolean>): Promise<'saved' | 'full' | 'network' | 'other'>;
  /** Deletes the subscription of this endpoint if its auth key is this one; whether there was one. */
  remove(endpoint: string, auth: string): Promise<boolean>;
  /**
   * Renews the subscription of this endpoint if its auth key is this one and it is within its time:
   * saved now, its choices unchanged (docs/push.md, « Renewal »); whether there was one.
   */
  renew(endpoint: string, auth: string): Promise<boolean>;
  /**
   * Moves the subscription of `old` (its endpoint and auth key, within its time) to `next`, the
   * browser's new one, with the same choices, saved now; 'absent' when `old` is not kept, 'full'
   * when the new record does not fit the bound in all (the old one is kept then).
   */
  move(
    old: { endpoint: string; auth: string },
    next: Pick<PushRecord, 'endpoint' | 'keys'>,
  ): Promise<'moved' | 'absent' | 'full'>;
  /** Deletes subscriptions by id (the push service said they are gone). */
  forget(ids: readonly string[]): Promise<void>;
  /** Every subscription that asked for this kind of notification for this residence. */
  followers(residence: string, kind: PushKind): Promise<PushTarget[]>;
  count(): Promise<number>;
  /** Counts one new subscription from this address's network and its wider one today; the counts after. */
  network(address: string): Promise<{ network: number; wide: number }>;
  /** Deletes the subscriptions not renewed within their time; how many. */
  sweep(): Promise<number>;
  /** Marks `name` sent for `ms`: true when it was not (the caller sends it). */
  once(name: string, ms: number): Promise<boolean>;
  /** Whether `name` is marked sent. */
  done(name: string): Promise<boolean>;
  /** Writes the file now (with Redis: Redis's subscriptions, when they changed since the last). */
  backup(): Promise<void>;
  close(): Promise<void>;
}

export interface PushStoreOptions {
  /** The file (`<CONTENT_DIR>/push.json`). */
  file: string;
  shared: SharedPush | null;
  /** The memory the subscriptions may take (PUSH_STORE_MB), all together and each. */
  budget: RecordBudget;
  /** How long a subscription is kept after its browser last saved or renewed it (ms). */
  keptMs: number;
  /** The key of the networks' hash (SITE_SECRET, or a random one for one instance). */
  secret: string;
  /** Whether a subscription read back (file, Redis) is still acceptable: its endpoint and keys. */
  acceptable: (record: PushRecord) => boolean;
  now?: () => number;
  /** How long after a change the file is written (one instance). */
  writeAfterMs?: number;
  log: { warn(message: string): void };
}

/** A subscription's id: a hash of its endpoint (the endpoint itself is never a key or a log line). */
export const subscriptionId = (endpoint: string): string =>
  createHash('sha256').update(endpoint).digest('base64url').slice(0, 27);

const recordOf = (value: unknown): PushRecord | null => {
  const read = v.safeParse(recordSchema, value);
  return read.success ? read.output : null;
};

export function createPushStore(options: PushStoreOptions): PushStore {
  const { shared, budget, acceptable, keptMs } = options;
  const now = options.now ?? Date.now;
  // This process's marks sent (the subscriptions are the records').
  const sent = new Map<string, number>();
  const networks = createDailyCounts({
    scope: 'push',
    secret: options.secret,
    now,
    shared: shared === null ? null : (name) => shared.network(name),
  });
  /** Whether a subscription is still within its time. */
  const alive = (record: PushRecord) => record.at + keptMs > now();

  const records = createRecords<PushRecord>({
    file: options.file,
    rows: 'subscriptions',
    budget,
    shared,
    read(value) {
      const record = recordOf(value);
      return record !== null && acceptable(record) && alive(record) ? record : null;
    },
    idOf: (record) => subscriptionId(record.endpoint),
    extra: {
      load(file) {
        const read = v.safeParse(sentSchema, file.sent);
        if (!read.success) return false;
        const at = now();
        for (const [name, until] of Object.entries(read.output)) if (until > at) sent.set(name, until);
        return true;
      },
      save() {
        const at = now();
        const marks: Record<string, number> = {};
        for (const [name, until] of sent) if (until > at) marks[name] = until;
        return { sent: marks };
      },
    },
    writeAfterMs: options.writeAfterMs ?? 5_000,
    words: {
      fresh: 'les abonnements aux notifications repartent de zéro',
      refused: (count, where) =>
        `${String(count)} abonnement(s)${where === 'redis' ? ' aux notifications' : ''} refusé(s)`,
      restored: (count) => `${String(count)} abonnement(s) repris`,
    },
    log: options.log,
  });

  return {
    async replace(record, allowNew) {
      await records.ready();
      const kept = await records.get(subscriptionId(record.endpoint));
      const before = kept !== null && alive(kept) ? kept : null;
      // The room first: a full store answers alike for another browser's endpoint and a new one.
      if (records.fits(record) !== 'ok') return 'full';
      if (before !== null && before.keys.auth !== record.keys.auth) return 'other';
      if (before === null && !(await allowNew())) return 'network';
      await records.put(record);
      return 'saved';
    },
    async remove(endpoint, auth) {
      await records.ready();
      const id = subscriptionId(endpoint);
      const record = await records.get(id);
      if (record?.keys.auth !== auth) return false;
      await records.remove([id]);
      return true;
    },
    async renew(endpoint, auth) {
      await records.ready();
      const record = await records.get(subscriptionId(endpoint));
      // Past its time it is not kept: the browser saves its choices again (docs/push.md, « Renewal »).
      if (record === null || !alive(record) || record.keys.auth !== auth) return false;
      await records.put({ ...record, at: now() });
      return true;
    },
    async move(old, next) {
      await records.ready();
      const oldId = subscriptionId(old.endpoint);
      const before = await records.get(oldId);
      if (before === null || !alive(before) || before.keys.auth !== old.auth) return 'absent';
      const nextId = subscriptionId(next.endpoint);
      const there = nextId === oldId ? null : await records.get(nextId);
      const kept = there !== null && alive(there) ? there : null;
      if (kept?.keys.auth === next.keys.auth) {
        // The page saved the new one already: its choices are the newer.
        await records.put({ ...kept, at: now() });
      } else {
        const record: PushRecord = {
          endpoint: next.endpoint,
          keys: next.keys,
          residences: before.residences,
          at: now(),
        };
        // A new record, bounded as a new subscription is; the old one stays when it does not fit.
        if (records.fits(record) !== 'ok') return 'full';
        // Another browser's endpoint is left as it is, and the answer is the same (docs/push.md, « The API »).
        if (kept === null) await records.put(record);
      }
      if (nextId !== oldId) await records.remove([oldId]);
      return 'moved';
    },
    async forget(ids) {
      if (ids.length === 0) return;
      await records.remove(ids).catch(() => 0);
    },
    async followers(residence, kind) {
      const rows = await records.all();
      return rows
        .filter(
          (record) => alive(record) && record.residences.some((choice) => choice.id === residence && choice[kind]),
        )
        .map((record) => ({ id: subscriptionId(record.endpoint), endpoint: record.endpoint, keys: record.keys }));
    },
    count: () => records.count(),
    async network(address) {
      const { network, wide } = networksOf(address);
      const [one = Number.MAX_SAFE_INTEGER, around = Number.MAX_SAFE_INTEGER] = await networks.add([
        `network\n${network}`,
        `wide\n${wide}`,
      ]);
      return { network: one, wide: around };
    },
    async sweep() {
      const old = (await records.all()).filter((record) => !alive(record));
      if (old.length === 0) return 0;
      return records.remove(old.map((record) => subscriptionId(record.endpoint)));
    },
    async once(name, ms) {
      const at = now();
      const until = sent.get(name);
      if (until !== undefined && until > at) return false;
      if (shared !== null && !(await shared.once(name, ms))) {
        sent.set(name, at + ms);
        return false;
      }
      sent.set(name, at + ms);
      records.changed();
      return true;
    },
    async done(name) {
      const until = sent.get(name);
      if (until !== undefined && until > now()) return true;
      return shared === null ? false : shared.done(name).catch(() => false);
    },
    backup: () => records.backup(),
    close: () => records.close(),
  };
}
