import { readFileSync, statSync } from 'node:fs';
import type { Redis } from 'ioredis';
import * as v from 'valibot';
import { setAsideSync, writeWhole } from '../files/whole';
import type { Sealer } from './seal';

/**
 * Records kept in this process's memory or, signed, in Redis, with a JSON file as their backup
 * (docs/server.md, « Records with a backup file »): the one way of the proposals
 * (proposals/store.ts) and of « Me prévenir »'s subscriptions (push/subscriptions.ts).
 *
 * - Without Redis the records live in this process's memory, written whole (files/whole.ts) to
 *   their file, readable by the server's user only (0600), a few seconds after each change and at
 *   close; the file is read back at start.
 * - With Redis they live in one hash, each value signed for it (seal.ts) as every value the
 *   instances write whole, each write counting a version; the file follows Redis as its backup.
 * - A Redis rebuilt from nothing (no version counted since) is given the records it lacks, in one
 *   transaction (never half of it), by each instance that starts with its file and by each backup
 *   (what that instance last saw), rather than the file being emptied. None overwrites another's
 *   and none counts a version, so Redis gets their union until its first write: the first instance
 *   to give back may know only its own writes.
 * - Every row read back, from the file or from Redis, is checked by its owner's `read`: what does not
 *   open or does not fit is left out and counted in the log.
 * - The records are bounded by the memory they may take (`budget`): each record's cost is an upper
 *   bound of what V8 holds for it (`recordCost`), a record costs at most `recordMax`, and the records
 *   together at most `bytes`. Past it a new record is refused (`fits`, `RecordRefused`) and nothing
 *   kept is lost. A start that finds more in the file than it may hold keeps what fits, in the file's
 *   order, and writes the rest beside the file (`<file>.beyond-<time>.json`) rather than dropping it;
 *   a file larger than the budget itself is not read at all but set aside whole, so that a server
 *   that fell for want of memory never falls again at each restart.
 */

/**
 * What a record costs in memory, at most (bytes): twice its JSON's length (a string of two-byte
 * characters) and 512 bytes for the objects around it. Measured on Node 24 (bench/push.mjs): the
 * largest subscription takes about 1.4 times its JSON, the largest proposal about 1.05 times.
 */
export const recordCost = (text: string): number => 2 * text.length + 512;

/** Why a record is refused: the records are full, or this one alone is over its budget. */
export type RecordRoom = 'ok' | 'full' | 'too_large';

/** A record refused by its store's budget (the caller answers 503 `full`, or 4xx `too_large`). */
export class RecordRefused extends Error {
  constructor(readonly reason: Exclude<RecordRoom, 'ok'>) {
    super(reason === 'full' ? 'records full' : 'record too large');
  }
}

/** The memory the records may take (bytes), all together and each. */
export interface RecordBudget {
  bytes: number;
  recordMax: number;
}

/** The records' side of Redis: one hash and its version, made by the feature's Redis half. */
export interface SharedRecords {
  put(id: string, text: string): Promise<void>;
  /** Writes the absent records in one transaction, counting no version (a Redis rebuilt from
   * nothing gets the union of what each instance and file kept); how many were absent. */
  addAll(entries: readonly { id: string; text: string }[]): Promise<number>;
  /** Deletes records by id; how many were there. */
  remove(ids: readonly string[]): Promise<number>;
  /** One record's JSON, or null when absent or its signature does not hold. */
  get(id: string): Promise<string | null>;
  has(id: string): Promise<boolean>;
  /** Every record's id and JSON whose signature holds, and how many did not. */
  all(): Promise<{ entries: { id: string; text: string }[]; forged: number }>;
  count(): Promise<number>;
  /** A number that changes with every write of the records (the backup file follows it). */
  version(): Promise<number>;
}

/** A version read back: whole and within reason, else one no backup has seen (read again). */
const COUNT_PATTERN = /^\d{1,15}$/;

/** The records in the hash `hash`, their version counted at `versionKey` (both full key names). */
export function sharedRecords(redis: Redis, hash: string, versionKey: string, seals: Sealer): SharedRecords {
  return {
    async put(id, text) {
      await redis.multi().hset(hash, id, seals.seal(hash, text)).incr(versionKey).exec();
    },
    async addAll(entries) {
      if (entries.length === 0) return 0;
      const batch = redis.multi();
      for (const { id, text } of entries) batch.hsetnx(hash, id, seals.seal(hash, text));
      const answers = (await batch.exec()) ?? [];
      return answers.filter(([error, added]) => error === null && added === 1).length;
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
    async has(id) {
      return (await redis.hexists(hash, id)) === 1;
    },
    async all() {
      const values = Object.entries(await redis.hgetall(hash));
      const entries = values.flatMap(([id, sealed]) => {
        const text = seals.open(hash, sealed);
        return text === null ? [] : [{ id, text }];
      });
      return { entries, forged: values.length - entries.length };
    },
    count: () => redis.hlen(hash),
    async version() {
      const text = await redis.get(versionKey);
      return text === null ? 0 : COUNT_PATTERN.test(text) ? Number(text) : -2;
    },
  };
}

/** What the log says of the records, in French (« 3 proposition(s) refusée(s) »). */
export interface RecordWords {
  /** The file unreadable: « les propositions repartent de zéro ». */
  fresh: string;
  /** `count` rows refused as they were read (`where`: the file's or Redis's). */
  refused(count: number, where: 'file' | 'redis'): string;
  /** `count` rows given to an empty Redis (`from`: the file, or this instance's last backup). */
  restored(count: number, from: 'file' | 'backup'): string;
}

export interface RecordsOptions<T> {
  /** The backup file (`<CONTENT_DIR>/<name>.json`). */
  file: string;
  /** The rows' field in the file (`proposals`, `subscriptions`). */
  rows: string;
  budget: RecordBudget;
  shared: SharedRecords | null;
  /** A row read back (file or Redis), checked: null refuses it. */
  read: (value: unknown) => T | null;
  idOf: (record: T) => string;
  /**
   * The file's other fields, beside the rows (the proposals' counters, the marks of what was sent):
   * `load` takes them from the file read at start (false: the file is unreadable), `save` gives them.
   */
  extra?: { load(file: Record<string, unknown>): boolean; save(): Record<string, unknown> };
  /** How long after a change the file is written (ms). */
  writeAfterMs: number;
  words: RecordWords;
  log: { warn(message: string): void };
}

export interface Records<T> {
  /** Once the file was given to an empty Redis (tried again at each use while Redis is away). */
  ready(): Promise<void>;
  get(id: string): Promise<T | null>;
  has(id: string): Promise<boolean>;
  /** Every record (with Redis: Redis's, each checked). */
  all(): Promise<T[]>;
  count(): Promise<number>;
  /** Whether a record (new, or replacing the one of its id) fits the budget. */
  fits(record: T): RecordRoom;
  /** The memory this instance's records take, by their cost (bytes). */
  held(): number;
  /**
   * Writes one record (Redis first when shared: a refusal there throws and keeps nothing); one that
   * does not fit the budget throws RecordRefused.
   */
  put(record: T): Promise<void>;
  /** Deletes records by id; how many were there (throws when Redis does). */
  remove(ids: readonly string[]): Promise<number>;
  /** Says the file is to be written (the extra fields changed). */
  changed(): void;
  /** Writes the file now (with Redis: Redis's records, when they changed since the last). */
  backup(): Promise<void>;
  close(): Promise<void>;
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

export function createRecords<T>(options: RecordsOptions<T>): Records<T> {
  const { file, shared, read, idOf, words, log, extra } = options;
  const { budget } = options;
  const records = new Map<string, T>();
  // Each record's cost, and their sum: the records' memory, bounded by the budget.
  const costs = new Map<string, number>();
  let total = 0;
  const hold = (id: string, record: T, cost = recordCost(JSON.stringify(record))) => {
    total += cost - (costs.get(id) ?? 0);
    costs.set(id, cost);
    records.set(id, record);
  };
  const drop = (id: string): boolean => {
    total -= costs.get(id) ?? 0;
    costs.delete(id);
    return records.delete(id);
  };
  const roomFor = (id: string, cost: number): RecordRoom =>
    cost > budget.recordMax ? 'too_large' : total - (costs.get(id) ?? 0) + cost > budget.bytes ? 'full' : 'ok';
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  let backedUpVersion = -1;
  const fileSchema = v.looseObject({ [options.rows]: v.array(v.unknown()) });
  /** Rows kept aside, beside the file, so that none is lost (a start over the budget). */
  const setAside = (rows: readonly T[]) => {
    const aside = `${file}.beyond-${String(Date.now())}.json`;
    void writeWhole(aside, `${JSON.stringify({ [options.rows]: rows })}\n`, { mode: 0o600 }).catch((error: unknown) => {
      log.warn(`${aside} non écrit : ${String(error)}`);
    });
    log.warn(
      `${file} : ${words.refused(rows.length, 'file')} au-delà de la mémoire permise, mis de côté dans ${aside}`,
    );
  };

  // The file, read once at start: each row checked; what fails is left out and counted in the log.
  let fromFile: T[] = [];
  try {
    // Larger than the budget: not parsed (a string and its objects would take several times as
    // much), set aside whole; the server starts with none rather than falling.
    if (statSync(file).size > budget.bytes) {
      const aside = `${file}.beyond-${String(Date.now())}.json`;
      setAsideSync(file, aside);
      log.warn(`${file} plus grand que la mémoire permise : mis de côté dans ${aside}, ${words.fresh}`);
    } else {
      const parsed = v.safeParse(fileSchema, parse(readFileSync(file, 'utf8')));
      if (!parsed.success || (extra !== undefined && !extra.load(parsed.output))) {
        log.warn(`${file} illisible : ${words.fresh}`);
      } else {
        const rows = parsed.output[options.rows] as unknown[];
        const checked = rows.map(read).filter((record): record is T => record !== null);
        const refused = rows.length - checked.length;
        if (refused > 0) log.warn(`${file} : ${words.refused(refused, 'file')} à la lecture`);
        const beyond: T[] = [];
        for (const record of checked) {
          const id = idOf(record);
          const cost = recordCost(JSON.stringify(record));
          if (beyond.length === 0 && roomFor(id, cost) === 'ok') hold(id, record, cost);
          else beyond.push(record);
        }
        if (beyond.length > 0) setAside(beyond);
        fromFile = [...records.values()];
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.warn(`${file} illisible : ${String(error)}`);
  }

  const write = (rows: Iterable<T>): Promise<void> => {
    const text = `${JSON.stringify({ [options.rows]: [...rows], ...extra?.save() })}\n`;
    // Readable by the server's user only: the records are the visitors'.
    const put = () => writeWhole(file, text, { mode: 0o600 });
    writing = writing.then(put, put);
    return writing.catch((error: unknown) => {
      log.warn(`${file} non écrit : ${String(error)}`);
    });
  };
  const later = () => {
    if (timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      void backup();
    }, options.writeAfterMs);
    timer.unref();
  };
  const entriesOf = (rows: Iterable<T>) =>
    [...rows].map((record) => ({ id: idOf(record), text: JSON.stringify(record) }));

  /**
   * A record read from Redis under `id`, or null. A signed value is a record only under its own
   * id: one copied over another record's field by whoever may write to Redis without the secret is
   * refused.
   */
  const readAs = (id: string, text: string): T | null => {
    const record = read(parse(text));
    return record !== null && idOf(record) === id ? record : null;
  };

  /** Redis's records, each checked; what fails its seal or its check is left out. */
  const fromShared = async (): Promise<T[]> => {
    if (shared === null) return [...records.values()];
    const { entries, forged } = await shared.all();
    const rows = entries.map(({ id, text }) => readAs(id, text)).filter((record): record is T => record !== null);
    const refused = forged + entries.length - rows.length;
    if (refused > 0) log.warn(`Redis : ${words.refused(refused, 'redis')} à la lecture`);
    return rows;
  };

  // A Redis rebuilt from nothing (no write counted since) takes the file's records it lacks, all in
  // one transaction: added to what other instances gave back first, never over it. Redis away, it is
  // tried again at the next use.
  let restoring: Promise<void> | null = null;
  let restored = shared === null || fromFile.length === 0;
  const ready = (): Promise<void> => {
    if (restored || shared === null) return Promise.resolve();
    restoring ??= shared
      .version()
      .then(async (version) => {
        if (version === 0) {
          const added = await shared.addAll(entriesOf(fromFile));
          if (added > 0) log.warn(`Redis vide : ${words.restored(added, 'file')} du fichier`);
        }
        restored = true;
      })
      .catch(() => {
        restoring = null;
      });
    return restoring;
  };
  void ready();

  async function backup(): Promise<void> {
    let rows: Iterable<T> = records.values();
    await ready();
    // Not before the file was given back: an empty Redis would empty the file, the only copy.
    if (shared !== null && restored) {
      try {
        const version = await shared.version();
        // Every write counts a version: none means a Redis rebuilt from nothing since the last backup.
        // This instance adds what it last saw and Redis lacks, as every instance and file does until
        // the first write, rather than emptying the file; the file then follows what Redis holds.
        if (version === 0 && records.size > 0) {
          const added = await shared.addAll(entriesOf(records.values()));
          if (added > 0) log.warn(`Redis vide : ${words.restored(added, 'backup')} de la dernière sauvegarde`);
        }
        if (version === 0 || version !== backedUpVersion) {
          const fresh = await fromShared();
          records.clear();
          costs.clear();
          total = 0;
          for (const record of fresh) hold(idOf(record), record);
          backedUpVersion = version;
          rows = fresh;
        }
      } catch {
        // Redis away: the file keeps the records it had; the extra fields are written.
      }
    }
    await write(rows);
  }

  return {
    ready,
    async get(id) {
      await ready();
      if (shared === null) return records.get(id) ?? null;
      const text = await shared.get(id);
      return text === null ? null : readAs(id, text);
    },
    async has(id) {
      return shared === null ? records.has(id) : shared.has(id);
    },
    async all() {
      await ready();
      return fromShared();
    },
    async count() {
      return shared === null ? records.size : shared.count();
    },
    fits(record) {
      return roomFor(idOf(record), recordCost(JSON.stringify(record)));
    },
    held: () => total,
    async put(record) {
      const id = idOf(record);
      const text = JSON.stringify(record);
      const cost = recordCost(text);
      const room = roomFor(id, cost);
      if (room !== 'ok') throw new RecordRefused(room);
      if (shared !== null) await shared.put(id, text);
      hold(id, record, cost);
      later();
    },
    async remove(ids) {
      let had = 0;
      for (const id of ids) if (drop(id)) had += 1;
      try {
        return shared === null ? had : await shared.remove(ids);
      } finally {
        later();
      }
    },
    changed: later,
    backup,
    async close() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await ready();
      await backup();
      await writing.catch(() => undefined);
    },
  };
}
