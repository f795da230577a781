import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { normalizeIP } from '@fastify/rate-limit';
import * as v from 'valibot';
import { writeWhole } from '../files/whole';
import type { SharedProposals } from '../instances/shared-state';
import {
  BOUNDS,
  KINDS,
  NUMBER_PATTERN,
  PREFIX,
  STATES,
  numberOf,
  type ProposalFields,
  type ProposalKind,
} from './fields';

/**
 * The proposals (docs/proposals.md, « What is kept, and for how long »), one store for one instance
 * or several, as « Me prévenir »'s subscriptions are kept (push/subscriptions.ts): without Redis this
 * process's memory, written whole to `proposals.json` in CONTENT_DIR (mode 0600: the proposers'
 * addresses) a few seconds after each change and at close; with Redis the proposals live there,
 * signed, and the file follows Redis as its backup, written by the instance that sends the mails.
 * An instance that finds Redis empty and its file full gives the file to Redis.
 *
 * A change (a state, a note, a mail sent) reads the proposal and writes it whole: two volunteers who
 * change one proposal in the same instant keep the last write (Redis's ACL has no WATCH; a note lost
 * that way is typed again, which is rare enough for a team of volunteers).
 */

/** One e-mail of a proposal and where its sending is (docs/proposals.md, « E-mail »). */
const mailSchema = v.strictObject({
  sent: v.boolean(),
  tries: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000)),
  /** When the next try is due (ms), 0 at once. */
  nextAt: v.pipe(v.number(), v.minValue(0)),
  /** Gave up after the last try. */
  failed: v.optional(v.boolean()),
});
export type MailState = v.InferOutput<typeof mailSchema>;

const noteSchema = v.strictObject({
  text: v.pipe(v.string(), v.maxLength(BOUNDS.note)),
  author: v.pipe(v.string(), v.maxLength(200)),
  at: v.pipe(v.string(), v.isoTimestamp()),
});
export type ProposalNote = v.InferOutput<typeof noteSchema>;

export const proposalSchema = v.strictObject({
  number: v.pipe(v.string(), v.regex(NUMBER_PATTERN)),
  kind: v.picklist(KINDS),
  name: v.pipe(v.string(), v.maxLength(BOUNDS.name)),
  makers: v.pipe(v.string(), v.maxLength(BOUNDS.makers)),
  style: v.pipe(v.string(), v.maxLength(BOUNDS.style)),
  links: v.pipe(
    v.array(v.pipe(v.string(), v.maxLength(BOUNDS.link), v.startsWith('https://'))),
    v.maxLength(BOUNDS.linksMax),
  ),
  when: v.optional(v.pipe(v.string(), v.maxLength(BOUNDS.when))),
  email: v.pipe(v.string(), v.maxLength(BOUNDS.email)),
  message: v.pipe(v.string(), v.maxLength(BOUNDS.message)),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  state: v.picklist(STATES),
  notes: v.pipe(v.array(noteSchema), v.maxLength(BOUNDS.notesMax)),
  deleteToken: v.pipe(v.string(), v.regex(/^[\w-]{32}$/)),
  mails: v.strictObject({ team: mailSchema, ack: mailSchema }),
});
export type Proposal = v.InferOutput<typeof proposalSchema>;

const fileSchema = v.object({
  proposals: v.pipe(v.array(v.unknown()), v.maxLength(1_000_000)),
  /** The last rank given, by letter and year (`E-2026`): the numbers without Redis. */
  counters: v.record(v.pipe(v.string(), v.regex(/^[ED]-\d{4}$/)), v.pipe(v.number(), v.integer(), v.minValue(0))),
});

export interface ProposalStore {
  /** Numbers and keeps a new proposal: its number is given once, by Redis when shared. */
  create(kind: ProposalKind, make: (number: string) => Proposal): Promise<Proposal>;
  get(number: string): Promise<Proposal | null>;
  /** Every proposal, newest first. */
  list(): Promise<Proposal[]>;
  /** Reads, changes and writes one proposal (`change` returns the new value, or null: unchanged). */
  update(number: string, change: (proposal: Proposal) => Proposal | null): Promise<Proposal | null>;
  remove(number: string): Promise<boolean>;
  /** Deletes the proposals made before `before` (ms); how many. */
  sweep(before: number): Promise<number>;
  /** Counts one proposal from this address's network today; the count after. */
  network(address: string): Promise<number>;
  /** Marks a verified challenge used until it expires: true when it was not used yet. */
  useChallenge(signature: string, ms: number): Promise<boolean>;
  putDraft(id: string, text: string, ms: number): Promise<void>;
  draft(id: string): Promise<string | null>;
  backup(): Promise<void>;
  close(): Promise<void>;
}

export interface ProposalStoreOptions {
  /** The file (`<CONTENT_DIR>/proposals.json`). */
  file: string;
  shared: SharedProposals | null;
  /** The key of the networks' hash (SITE_SECRET). */
  secret: string;
  now: () => number;
  writeAfterMs?: number;
  log: { warn(message: string): void };
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

export const proposalOf = (value: unknown): Proposal | null => {
  const read = v.safeParse(proposalSchema, value);
  return read.success ? read.output : null;
};

/** The order of the list: newest first (createdAt, then number, descending). */
export const newestFirst = (a: Pick<Proposal, 'createdAt' | 'number'>, b: Pick<Proposal, 'createdAt' | 'number'>) =>
  b.createdAt.localeCompare(a.createdAt) || b.number.localeCompare(a.number);

export function createProposalStore(options: ProposalStoreOptions): ProposalStore {
  const { file, shared, log, now } = options;
  const writeAfterMs = options.writeAfterMs ?? 2_000;
  const records = new Map<string, Proposal>();
  const counters = new Map<string, number>();
  const networks = new Map<string, number>();
  const used = new Map<string, number>();
  const drafts = new Map<string, { text: string; until: number }>();
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  let backedUpVersion = -1;

  let fromFile: Proposal[] = [];
  try {
    const read = v.safeParse(fileSchema, parse(readFileSync(file, 'utf8')));
    if (!read.success) {
      log.warn(`${file} illisible : les propositions repartent de zéro`);
    } else {
      fromFile = read.output.proposals.map(proposalOf).filter((entry): entry is Proposal => entry !== null);
      const refused = read.output.proposals.length - fromFile.length;
      if (refused > 0) log.warn(`${file} : ${String(refused)} proposition(s) refusée(s) à la lecture`);
      for (const [series, rank] of Object.entries(read.output.counters)) counters.set(series, rank);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.warn(`${file} illisible : ${String(error)}`);
  }
  for (const proposal of fromFile) records.set(proposal.number, proposal);

  const write = (rows: Iterable<Proposal>): Promise<void> => {
    const text = `${JSON.stringify({ proposals: [...rows], counters: Object.fromEntries(counters) })}\n`;
    // Readable by the server's user only: the proposers' addresses and texts.
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
    }, writeAfterMs);
    timer.unref();
  };

  const fromShared = async (): Promise<Proposal[]> => {
    if (shared === null) return [...records.values()];
    const { texts, forged } = await shared.all();
    const rows = texts.map((text) => proposalOf(parse(text))).filter((entry): entry is Proposal => entry !== null);
    const refused = forged + texts.length - rows.length;
    if (refused > 0) log.warn(`Redis : ${String(refused)} proposition(s) refusée(s) à la lecture`);
    return rows;
  };

  async function backup(): Promise<void> {
    let rows: Iterable<Proposal> = records.values();
    await restore();
    // Not before the file was given back: an empty Redis would empty the file, the only copy.
    if (shared !== null && restoredDone) {
      try {
        const version = await shared.version();
        if (version === 0 && records.size > 0) {
          // Every write counts a version: none means a Redis rebuilt from nothing since the last
          // backup. It takes what this instance last saw, rather than emptying the file.
          await shared.putAll(
            [...records.values()].map((proposal) => ({ id: proposal.number, text: JSON.stringify(proposal) })),
          );
          log.warn(`Redis vide : ${String(records.size)} proposition(s) reprise(s) de la dernière sauvegarde`);
        } else if (version !== backedUpVersion) {
          const read = await fromShared();
          records.clear();
          for (const proposal of read) records.set(proposal.number, proposal);
          backedUpVersion = version;
          rows = read;
        }
      } catch {
        // Redis away: the file keeps what it had.
      }
    }
    await write(rows);
  }

  // A Redis rebuilt from nothing takes the file's proposals, all in one transaction (never half of
  // them); Redis away, it is tried again at the next use.
  let restoring: Promise<void> | null = null;
  let restoredDone = shared === null || fromFile.length === 0;
  const restore = (): Promise<void> => {
    if (restoredDone || shared === null) return Promise.resolve();
    restoring ??= shared
      .count()
      .then(async (count) => {
        if (count === 0) {
          await shared.putAll(fromFile.map((proposal) => ({ id: proposal.number, text: JSON.stringify(proposal) })));
          log.warn(`Redis vide : ${String(fromFile.length)} proposition(s) reprise(s) du fichier`);
        }
        restoredDone = true;
      })
      .catch(() => {
        restoring = null;
      });
    return restoring;
  };
  void restore();

  const networkName = (address: string) => {
    const day = new Date(now()).toISOString().slice(0, 10);
    return createHmac('sha256', options.secret)
      .update(`proposals\n${day}\n${normalizeIP(address)}`)
      .digest('base64url');
  };

  /** The next free number of a kind this year: Redis's counter, or this process's (with the file's). */
  const nextNumber = async (kind: ProposalKind): Promise<string> => {
    const year = new Date(now()).getUTCFullYear();
    const series = `${PREFIX[kind]}-${String(year)}`;
    // A counter restarted from nothing (a Redis rebuilt, a file lost) skips the numbers still kept.
    for (let tries = 0; tries < 10_000; tries += 1) {
      let rank: number;
      if (shared !== null) {
        rank = await shared.next(series);
        const number = numberOf(kind, year, rank);
        if (!(await shared.has(number))) return number;
        continue;
      }
      rank = (counters.get(series) ?? 0) + 1;
      counters.set(series, rank);
      const number = numberOf(kind, year, rank);
      if (!records.has(number)) return number;
    }
    throw new Error('aucun numéro libre');
  };

  const get = async (number: string): Promise<Proposal | null> => {
    await restore();
    if (!NUMBER_PATTERN.test(number)) return null;
    if (shared === null) return records.get(number) ?? null;
    const text = await shared.get(number);
    return text === null ? null : proposalOf(parse(text));
  };
  const list = async (): Promise<Proposal[]> => {
    await restore();
    return (await fromShared()).sort(newestFirst);
  };
  const remove = async (number: string): Promise<boolean> => {
    await restore();
    if (!NUMBER_PATTERN.test(number)) return false;
    const had = records.delete(number);
    const removed = shared === null ? had : await shared.remove(number);
    later();
    return removed;
  };

  return {
    async create(kind, make) {
      await restore();
      const proposal = make(await nextNumber(kind));
      if (shared !== null) await shared.put(proposal.number, JSON.stringify(proposal));
      records.set(proposal.number, proposal);
      later();
      return proposal;
    },
    get,
    list,
    async update(number, change) {
      const before = await get(number);
      if (before === null) return null;
      const after = change(before);
      if (after === null) return before;
      if (shared !== null) await shared.put(number, JSON.stringify(after));
      records.set(number, after);
      later();
      return after;
    },
    remove,
    async sweep(before) {
      const old = (await list()).filter((proposal) => Date.parse(proposal.createdAt) < before);
      for (const proposal of old) await remove(proposal.number);
      return old.length;
    },
    async network(address) {
      const name = networkName(address);
      if (shared !== null) {
        try {
          return await shared.network(name);
        } catch {
          // Redis away: this instance counts alone until it is back.
        }
      }
      const count = (networks.get(name) ?? 0) + 1;
      if (networks.size > 100_000) networks.clear();
      networks.set(name, count);
      return count;
    },
    async useChallenge(signature, ms) {
      const at = now();
      for (const [name, until] of used) if (until <= at) used.delete(name);
      if (used.has(signature)) return false;
      // Redis away: the challenge is refused rather than maybe used twice (the proposer tries again).
      if (shared !== null && !(await shared.use(signature, ms))) return false;
      used.set(signature, at + ms);
      return true;
    },
    async putDraft(id, text, ms) {
      if (shared !== null) {
        await shared.putDraft(id, text, ms);
        return;
      }
      const at = now();
      for (const [name, draft] of drafts) if (draft.until <= at) drafts.delete(name);
      if (drafts.size > 10_000) drafts.clear();
      drafts.set(id, { text, until: at + ms });
    },
    async draft(id) {
      if (shared !== null) return shared.draft(id);
      const draft = drafts.get(id);
      return draft !== undefined && draft.until > now() ? draft.text : null;
    },
    backup,
    async close() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await restore();
      await backup();
      await writing.catch(() => undefined);
    },
  };
}

export type { ProposalFields };
