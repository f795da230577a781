import * as v from 'valibot';
import { NUMBER_PATTERN } from './number';

// A proposal's shape, written once (docs/proposals.md, « In the editor »; docs/contract.md, « Shared
// shapes »): its kinds, its states, its bounds and the proposal as the editor reads it. The server
// keeps it with its own fields added (the deletion's token, the mails' sending) and answers the
// editor with this schema; the editor's types are inferred from it.

/** The kinds of proposal: a show, a demo. */
export const KINDS = ['emission', 'demo'] as const;
export type ProposalKind = (typeof KINDS)[number];

/** The states a volunteer moves a proposal through (docs/proposals.md, « The volunteers' side »). */
export const STATES = ['nouvelle', 'en écoute', 'retenue', 'déclinée', 'répondue'] as const;
export type ProposalState = (typeof STATES)[number];

/** Where a proposal's e-mail is, as the editor reads it (docs/proposals.md, « E-mail »). */
export const MAIL_STATES = ['sent', 'waiting', 'failed', 'off', 'skipped'] as const;

/** Bounds, in characters (docs/proposals.md, « Bounds »). */
export const BOUNDS = {
  name: 120,
  makers: 200,
  style: 120,
  link: 500,
  linksMin: 2,
  linksMax: 5,
  when: 300,
  email: 254,
  message: 4000,
  note: 2000,
  notesMax: 100,
} as const;

/** A volunteer's note, signed with the volunteer's name. */
export const noteSchema = v.strictObject({
  text: v.pipe(v.string(), v.maxLength(BOUNDS.note)),
  author: v.pipe(v.string(), v.maxLength(200)),
  at: v.pipe(v.string(), v.isoTimestamp()),
});
export type ProposalNote = v.InferOutput<typeof noteSchema>;

/** The fields every proposal has, kept and shown alike (the public's fields, its state, its notes). */
export const proposalEntries = {
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
};

/** A proposal as the editor reads it: where its two e-mails are, and « Répondre »'s subject and text. */
export const editorProposalSchema = v.strictObject({
  ...proposalEntries,
  mails: v.strictObject({ team: v.picklist(MAIL_STATES), ack: v.picklist(MAIL_STATES) }),
  reply: v.strictObject({ subject: v.string(), text: v.string() }),
});
export type EditorProposal = v.InferOutput<typeof editorProposalSchema>;

/** A page of the editor's list (GET /api/editor/proposals). */
export const editorProposalListSchema = v.strictObject({
  mail: v.picklist(['on', 'off']),
  proposals: v.array(editorProposalSchema),
  /** The cursor of the next page (`apres`), or null at the oldest. */
  next: v.nullable(v.string()),
});
export type EditorProposalList = v.InferOutput<typeof editorProposalListSchema>;
