import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as v from 'valibot';
import type { SharedCacheStore } from '../instances/shared-state';
import { writeWholeSync } from '../files/whole';

/**
 * What the site keeps of the payments (docs/support.md, « What is kept »): counts and sums by month
 * and by residence, and, to count each order once and take a refund back, each counted order's
 * month, kind, amount and residence, by its HelloAsso id, for 13 months. No name, no e-mail, no
 * payer: HelloAsso keeps those. Plus the references of the intents made in the last two days (the
 * residence each names), so that a notification's metadata is believed only for an intent the site
 * made.
 *
 * Out of the content's versioned store: a file in CONTENT_DIR (`support-counts.json`), and with
 * Redis the one copy every instance changes, under a lock, signed like every shared value; the
 * file then follows it as each instance's backup.
 */

const COUNTS_KEY = 'support:counts';
/** Redis keeps the counts for ten years: they are no cache. */
const KEPT_MS = 10 * 365 * 24 * 3600 * 1000;
const LOCK_MS = 5000;
/** A counted order is kept 13 months (a refund comes within that), then only its month's figures. */
const ORDER_KEPT_MS = 400 * 24 * 3600 * 1000;
/** An intent's reference is kept two days: its payment is done or abandoned by then. */
export const REFERENCE_KEPT_MS = 2 * 24 * 3600 * 1000;
const ORDERS_MAX = 100_000;
const REFERENCES_MAX = 20_000;
const RESIDENCES_MAX = 500;

const count = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const residenceId = v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,60}$/));
const month = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}$/));

const figuresSchema = v.object({ donations: count, sum: count });
const monthSchema = v.object({
  donations: count,
  sum: count,
  members: count,
  residences: v.pipe(
    v.record(residenceId, figuresSchema),
    v.check((record) => Object.keys(record).length <= RESIDENCES_MAX),
  ),
});
const orderSchema = v.object({
  month,
  kind: v.picklist(['don', 'adhesion']),
  amount: count,
  residence: v.optional(residenceId),
  at: count,
});
const referenceSchema = v.object({ residence: v.optional(residenceId), amount: count, until: count });
export const countsSchema = v.object({
  months: v.pipe(
    v.record(month, monthSchema),
    v.check((record) => Object.keys(record).length <= 1200),
  ),
  orders: v.pipe(
    v.record(v.pipe(v.string(), v.regex(/^\d{1,16}$/)), orderSchema),
    v.check((record) => Object.keys(record).length <= ORDERS_MAX),
  ),
  references: v.pipe(
    v.record(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/)), referenceSchema),
    v.check((record) => Object.keys(record).length <= REFERENCES_MAX),
  ),
});
export type Counts = v.InferOutput<typeof countsSchema>;
export type CountedOrder = v.InferOutput<typeof orderSchema>;

const EMPTY = (): Counts => ({ months: {}, orders: {}, references: {} });

/** The counts in `text`, or null when it is not them (a hostile or broken value is taken as absent). */
export function parseCounts(text: string | null | undefined): Counts | null {
  if (text === null || text === undefined) return null;
  try {
    const read = v.safeParse(countsSchema, JSON.parse(text));
    return read.success ? read.output : null;
  } catch {
    return null;
  }
}

/** A month's figures, made when first needed. */
function monthOf(counts: Counts, key: string) {
  counts.months[key] ??= { donations: 0, sum: 0, members: 0, residences: {} };
  return counts.months[key];
}

/** Adds (sign 1) or takes back (sign -1) an order's figures. */
function apply(counts: Counts, order: CountedOrder, sign: 1 | -1): void {
  const figures = monthOf(counts, order.month);
  if (order.kind === 'adhesion') {
    figures.members = Math.max(0, figures.members + sign);
    return;
  }
  figures.donations = Math.max(0, figures.donations + sign);
  figures.sum = Math.max(0, figures.sum + sign * order.amount);
  if (order.residence !== undefined) {
    const residence = (figures.residences[order.residence] ??= { donations: 0, sum: 0 });
    residence.donations = Math.max(0, residence.donations + sign);
    residence.sum = Math.max(0, residence.sum + sign * order.amount);
  }
}

/** Drops what is past keeping: orders after 13 months (their months' figures stay), old references. */
function prune(counts: Counts, now: number): void {
  counts.orders = Object.fromEntries(
    Object.entries(counts.orders).filter(([, order]) => order.at >= now - ORDER_KEPT_MS),
  );
  counts.references = Object.fromEntries(
    Object.entries(counts.references).filter(([, reference]) => reference.until >= now),
  );
}

export interface CountsStore {
  read(): Promise<Counts>;
  /** Counts an order (again: its new amount), or takes it back with `null`; whether anything changed. */
  record(orderId: number, order: Omit<CountedOrder, 'at'> | null): Promise<boolean>;
  /** Keeps an intent's reference and the residence it names. */
  remember(reference: string, value: { residence?: string; amount: number }): Promise<void>;
}

export function createCountsStore(options: {
  file: string;
  shared: SharedCacheStore | null;
  now: () => number;
}): CountsStore {
  const { file, shared, now } = options;
  let local: Counts = parseCounts(readText(file)) ?? EMPTY();
  // One change at a time in this process; with Redis, one at a time across the instances.
  let queue: Promise<unknown> = Promise.resolve();

  function writeFile(counts: Counts): void {
    mkdirSync(dirname(file), { recursive: true });
    writeWholeSync(file, JSON.stringify(counts));
  }

  async function fromShared(): Promise<Counts | null> {
    if (shared === null) return null;
    const { entry } = await shared.read(COUNTS_KEY);
    return parseCounts(entry?.value);
  }

  async function change(edit: (counts: Counts) => boolean): Promise<boolean> {
    const run = async (): Promise<boolean> => {
      let locked = false;
      let current: Counts | null = null;
      if (shared !== null) {
        try {
          for (let tries = 0; tries < 40 && !locked; tries += 1) {
            locked = await shared.lock(COUNTS_KEY, LOCK_MS);
            if (!locked) await new Promise((resolve) => setTimeout(resolve, 50));
          }
          current = await fromShared();
        } catch {
          // Redis is away: this instance counts alone, in its file.
        }
      }
      // Without Redis's copy, the file as it is now: another instance of the machine may have changed it.
      local = current ?? parseCounts(readText(file)) ?? local;
      try {
        const counts = structuredClone(local);
        const before = JSON.stringify(counts);
        prune(counts, now());
        const changed = edit(counts);
        local = counts;
        // A change that changes nothing (a notification repeated, a return page read again) writes
        // nothing: neither the file nor Redis's copy (docs/support.md, « Notifications »).
        if (JSON.stringify(counts) === before) return changed;
        writeFile(counts);
        if (shared !== null && locked) {
          await shared
            .write(COUNTS_KEY, { value: JSON.stringify(counts), version: now(), expiresAt: now() + KEPT_MS }, KEPT_MS)
            .catch(() => undefined);
        }
        return changed;
      } finally {
        if (shared !== null && locked) await shared.unlock(COUNTS_KEY).catch(() => undefined);
      }
    };
    const done = queue.then(run, run);
    queue = done.catch(() => undefined);
    return done;
  }

  return {
    async read() {
      let theirs: Counts | null = null;
      try {
        theirs = await fromShared();
      } catch {
        // Redis is away: the file.
      }
      local = theirs ?? parseCounts(readText(file)) ?? local;
      return local;
    },
    record(orderId, order) {
      return change((counts) => {
        const key = String(orderId);
        const before = counts.orders[key];
        if (order === null) {
          if (before === undefined) return false;
          apply(counts, before, -1);
          counts.orders = Object.fromEntries(Object.entries(counts.orders).filter(([each]) => each !== key));
          return true;
        }
        // A residence, once read from a source the site trusts, stays with its order.
        const residence = order.residence ?? before?.residence;
        if (
          before !== undefined &&
          before.amount === order.amount &&
          before.residence === residence &&
          before.kind === order.kind
        ) {
          return false;
        }
        if (before !== undefined) apply(counts, before, -1);
        const counted: CountedOrder = {
          ...order,
          ...(residence === undefined ? {} : { residence }),
          at: before?.at ?? now(),
        };
        if (Object.keys(counts.orders).length >= ORDERS_MAX) return false;
        counts.orders[key] = counted;
        apply(counts, counted, 1);
        return true;
      });
    },
    async remember(reference, value) {
      await change((counts) => {
        // Past the bound (intents asked from many addresses), the oldest references make room.
        const kept = Object.entries(counts.references);
        if (kept.length >= REFERENCES_MAX) {
          kept.sort(([, a], [, b]) => b.until - a.until);
          counts.references = Object.fromEntries(kept.slice(0, REFERENCES_MAX - 1));
        }
        counts.references[reference] = { ...value, until: now() + REFERENCE_KEPT_MS };
        return true;
      });
    },
  };
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** `YYYY-MM` of an instant, in Paris (the collective's year and months). */
export function monthKey(at: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .formatToParts(new Date(at))
    .reduce<Record<string, string>>((all, part) => ({ ...all, [part.type]: part.value }), {});
  return `${parts.year ?? '1970'}-${parts.month ?? '01'}`;
}
