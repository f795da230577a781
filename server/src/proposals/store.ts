import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { drawNumber } from '@collectif/shared/proposals/number';
import { proposalEntries } from '@collectif/shared/proposals/schema';
import { createDailyCounts, networksOf } from '../instances/daily';
import { RecordRefused, createRecords, type RecordBudget } from '../instances/records';
import type { SharedProposals } from '../instances/shared-state';
import { NUMBER_PATTERN, PREFIX, type ProposalFields, type ProposalKind } from './fields';

/**
 * The proposals (docs/proposals.md, « What is kept, and for how long »), one store for one instance
 * or several, kept as « Me prévenir »'s subscriptions are (instances/records.ts): without Redis this
 * process's memory, written whole to `proposals.json` in CONTENT_DIR (mode 0600: the proposers'
 * addresses) a few seconds after each change and at close; with Redis the proposals live there,
 * signed, and the file follows Redis as its backup, written by the instance that sends the mails.
 * An instance that finds Redis empty and its file full gives the file to Redis. The proposals
 * together are bounded by the memory they may take (PROPOSALS_STORE_MB), one proposal with its notes
 * by PROPOSAL_RECORD_MAX (docs/proposals.md, « What is kept, and for how long »).
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
  /** Never to be sent: the acknowledgement's recipient had one already that day (docs/proposals.md, « E-mail »). */
  skipped: v.optional(v.boolean()),
});
export type MailState = v.InferOutput<typeof mailSchema>;

/** A kept proposal: the shape the editor reads (shared, proposals/schema.ts), with the deletion's token and the mails' sending. */
export const proposalSchema = v.strictObject({
  ...proposalEntries,
  deleteToken: v.pipe(v.string(), v.regex(/^[\w-]{32}$/)),
  mails: v.strictObject({ team: mailSchema, ack: mailSchema }),
});
export type Proposal = v.InferOutput<typeof proposalSchema>;

/**
 * What one proposal with its notes may cost in memory (instances/records.ts, `recordCost`): the
 * public's fields at their bounds cost about 16 KB (32 KB in characters outside Latin-1), and the
 * volunteers' notes fill the rest; a note past it is refused.
 */
export const PROPOSAL_RECORD_MAX = 64 * 1024;

export interface ProposalStore {
  /**
   * Numbers and keeps a new proposal: its number is drawn at random, never one kept. Throws
   * RecordRefused when the proposals are at their memory's bound.
   */
  create(kind: ProposalKind, make: (number: string) => Proposal): Promise<Proposal>;
  get(number: string): Promise<Proposal | null>;
  /** Every proposal, newest first. */
  list(): Promise<Proposal[]>;
  /**
   * Reads, changes and writes one proposal (`change` returns the new value, or null: unchanged);
   * throws RecordRefused when the new value does not fit.
   */
  update(number: string, change: (proposal: Proposal) => Proposal | null): Promise<Proposal | null>;
  remove(number: string): Promise<boolean>;
  /** Deletes the proposals made before `before` (ms); how many. */
  sweep(before: number): Promise<number>;
  /** Counts one proposal from this address's network and its wider one today; the counts after. */
  network(address: string): Promise<{ network: number; wide: number }>;
  /** Counts one acknowledgement to this address today; the count after (keyed by a hash, never the address). */
  recipient(email: string): Promise<number>;
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
  /** The memory the proposals may take (PROPOSALS_STORE_MB), all together and each. */
  budget: RecordBudget;
  /** The key of the networks' hash (SITE_SECRET). */
  secret: string;
  now: () => number;
  writeAfterMs?: number;
  log: { warn(message: string): void };
}

/** Refused forms this process keeps at most without Redis (a quarter of an hour each). */
const DRAFTS_MAX = 10_000;

export const proposalOf = (value: unknown): Proposal | null => {
  const read = v.safeParse(proposalSchema, value);
  return read.success ? read.output : null;
};

/** The order of the list: newest first (createdAt, then number, descending). */
export const newestFirst = (a: Pick<Proposal, 'createdAt' | 'number'>, b: Pick<Proposal, 'createdAt' | 'number'>) =>
  b.createdAt.localeCompare(a.createdAt) || b.number.localeCompare(a.number);

export function createProposalStore(options: ProposalStoreOptions): ProposalStore {
  const { shared, now } = options;
  const counted = shared === null ? null : (name: string) => shared.network(name);
  const networks = createDailyCounts({ scope: 'proposals', secret: options.secret, now, shared: counted });
  const recipients = createDailyCounts({ scope: 'proposals:ack', secret: options.secret, now, shared: counted });
  const used = new Map<string, number>();
  const drafts = new Map<string, { text: string; until: number }>();
  const records = createRecords<Proposal>({
    file: options.file,
    rows: 'proposals',
    budget: options.budget,
    shared,
    read: proposalOf,
    idOf: (proposal) => proposal.number,
    writeAfterMs: options.writeAfterMs ?? 2_000,
    words: {
      fresh: 'les propositions repartent de zéro',
      refused: (count) => `${String(count)} proposition(s) refusée(s)`,
      restored: (count) => `${String(count)} proposition(s) reprise(s)`,
    },
    log: options.log,
  });

  /**
   * A free number of a kind, drawn at random (30 bits): one kept already is drawn again. Two
   * instances drawing the same in the same instant is a chance of one in a billion for each pair.
   */
  const nextNumber = async (kind: ProposalKind): Promise<string> => {
    for (let tries = 0; tries < 100; tries += 1) {
      const number = drawNumber(PREFIX[kind], randomBytes(4));
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
      const room = records.fits(proposal);
      if (room !== 'ok') throw new RecordRefused(room);
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
      const { network, wide } = networksOf(address);
      const [one = Number.MAX_SAFE_INTEGER, around = Number.MAX_SAFE_INTEGER] = await networks.add([
        `network\n${network}`,
        `wide\n${wide}`,
      ]);
      return { network: one, wide: around };
    },
    async recipient(email) {
      const [count = Number.MAX_SAFE_INTEGER] = await recipients.add([email.trim().toLowerCase()]);
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
      // At the bound, the oldest draft goes (a map keeps the order drafts came in), never all of them.
      if (drafts.size >= DRAFTS_MAX) drafts.delete(drafts.keys().next().value ?? '');
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
