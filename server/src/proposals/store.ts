import { createHmac } from 'node:crypto';
import { normalizeIP } from '@fastify/rate-limit';
import * as v from 'valibot';
import { createRecords } from '../instances/records';
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
 * or several, kept as « Me prévenir »'s subscriptions are (instances/records.ts): without Redis this
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

/** The last rank given, by letter and year (`E-2026`): the numbers without Redis, in the file. */
const countersSchema = v.record(
  v.pipe(v.string(), v.regex(/^[ED]-\d{4}$/)),
  v.pipe(v.number(), v.integer(), v.minValue(0)),
);

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

export const proposalOf = (value: unknown): Proposal | null => {
  const read = v.safeParse(proposalSchema, value);
  return read.success ? read.output : null;
};

/** The order of the list: newest first (createdAt, then number, descending). */
export const newestFirst = (a: Pick<Proposal, 'createdAt' | 'number'>, b: Pick<Proposal, 'createdAt' | 'number'>) =>
  b.createdAt.localeCompare(a.createdAt) || b.number.localeCompare(a.number);

export function createProposalStore(options: ProposalStoreOptions): ProposalStore {
  const { shared, now } = options;
  const counters = new Map<string, number>();
  const networks = new Map<string, number>();
  const used = new Map<string, number>();
  const drafts = new Map<string, { text: string; until: number }>();
  const records = createRecords<Proposal>({
    file: options.file,
    rows: 'proposals',
    maxRows: 1_000_000,
    shared,
    read: proposalOf,
    idOf: (proposal) => proposal.number,
    extra: {
      load(file) {
        const read = v.safeParse(countersSchema, file.counters);
        if (!read.success) return false;
        for (const [series, rank] of Object.entries(read.output)) counters.set(series, rank);
        return true;
      },
      save: () => ({ counters: Object.fromEntries(counters) }),
    },
    writeAfterMs: options.writeAfterMs ?? 2_000,
    words: {
      fresh: 'les propositions repartent de zéro',
      refused: (count) => `${String(count)} proposition(s) refusée(s)`,
      restored: (count) => `${String(count)} proposition(s) reprise(s)`,
    },
    log: options.log,
  });

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
      if (!(await records.has(number))) return number;
    }
    throw new Error('aucun numéro libre');
  };

  const get = async (number: string): Promise<Proposal | null> => {
    await records.ready();
    return NUMBER_PATTERN.test(number) ? records.get(number) : null;
  };
  const list = async (): Promise<Proposal[]> => (await records.all()).sort(newestFirst);
  const remove = async (number: string): Promise<boolean> => {
    await records.ready();
    return NUMBER_PATTERN.test(number) && (await records.remove([number])) > 0;
  };

  return {
    async create(kind, make) {
      await records.ready();
      const proposal = make(await nextNumber(kind));
      await records.put(proposal);
      return proposal;
    },
    get,
    list,
    async update(number, change) {
      const before = await get(number);
      if (before === null) return null;
      const after = change(before);
      if (after === null) return before;
      await records.put(after);
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
    backup: () => records.backup(),
    close: () => records.close(),
  };
}

export type { ProposalFields };
