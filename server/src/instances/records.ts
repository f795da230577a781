import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import * as v from 'valibot';
import { writeWhole } from '../files/whole';
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
 * - An instance that finds Redis empty and its file full gives the file to Redis, in one
 *   transaction (never half of it); a backup that finds Redis rebuilt from nothing since the last
 *   (no version counted) gives Redis what this instance last saw rather than emptying the file.
 * - Every row read back, from the file or from Redis, is checked by its owner's `read`: what does not
 *   open or does not fit is left out and counted in the log.
 */

/** The records' side of Redis: one hash and its version, made by the feature's Redis half. */
export interface SharedRecords {
  put(id: string, text: string): Promise<void>;
  /** Writes many at once, all or none (a backup given back to a Redis rebuilt from nothing). */
  putAll(entries: readonly { id: string; text: string }[]): Promise<void>;
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
    async putAll(entries) {
      const batch = redis.multi();
      for (const { id, text } of entries) batch.hset(hash, id, seals.seal(hash, text));
      await batch.incr(versionKey).exec();
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
  /** The rows' field in the file (`proposals`, `subscriptions`), and how many it may hold. */
  rows: string;
  maxRows: number;
  /** Rows taken from the file at most (the store's bound). */
  keep?: number;
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
  /** Writes one record (Redis first when shared: a refusal there throws and keeps nothing). */
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
  const records = new Map<string, T>();
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  let backedUpVersion = -1;
  const fileSchema = v.looseObject({ [options.rows]: v.pipe(v.array(v.unknown()), v.maxLength(options.maxRows)) });

  // The file, read once at start: each row checked; what fails is left out and counted in the log.
  let fromFile: T[] = [];
  try {
    const parsed = v.safeParse(fileSchema, parse(readFileSync(file, 'utf8')));
    if (!parsed.success || (extra !== undefined && !extra.load(parsed.output))) {
      log.warn(`${file} illisible : ${words.fresh}`);
    } else {
      const rows = parsed.output[options.rows] as unknown[];
      fromFile = rows.map(read).filter((record): record is T => record !== null);
      const refused = rows.length - fromFile.length;
      if (refused > 0) log.warn(`${file} : ${words.refused(refused, 'file')} à la lecture`);
      fromFile = fromFile.slice(0, options.keep ?? fromFile.length);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.warn(`${file} illisible : ${String(error)}`);
  }
  for (const record of fromFile) records.set(idOf(record), record);

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

  // A Redis rebuilt from nothing takes the file's records, all in one transaction; Redis away, it
  // is tried again at the next use.
  let restoring: Promise<void> | null = null;
  let restored = shared === null || fromFile.length === 0;
  const ready = (): Promise<void> => {
    if (restored || shared === null) return Promise.resolve();
    restoring ??= shared
      .count()
      .then(async (count) => {
        if (count === 0) {
          await shared.putAll(entriesOf(fromFile));
          log.warn(`Redis vide : ${words.restored(fromFile.length, 'file')} du fichier`);
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
        if (version === 0 && records.size > 0) {
          // Every write counts a version: none means a Redis rebuilt from nothing since the last
          // backup. It takes what this instance last saw, rather than emptying the file.
          await shared.putAll(entriesOf(records.values()));
          log.warn(`Redis vide : ${words.restored(records.size, 'backup')} de la dernière sauvegarde`);
        } else if (version !== backedUpVersion) {
          const fresh = await fromShared();
          records.clear();
          for (const record of fresh) records.set(idOf(record), record);
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
    async put(record) {
      const id = idOf(record);
      if (shared !== null) await shared.put(id, JSON.stringify(record));
      records.set(id, record);
      later();
    },
    async remove(ids) {
      let had = 0;
      for (const id of ids) if (records.delete(id)) had += 1;
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
