import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { ApiHttpError } from '../../http/errors';
import { jsonSchema, type ValibotJsonTypeProvider } from '../../api/schemas/provider';
import type { Editor } from '../../content/editors';
import { BOUNDS, KINDS, NUMBER_PATTERN, STATES, readNote, type ProposalKind } from '../fields';
import { replyOf, type MailName } from '../mail';
import { RecordRefused } from '../../instances/records';
import { newestFirst, type Proposal } from '../store';
import { editorProposalListSchema } from '@collectif/shared/proposals/schema';
import { sealer } from '../../instances/seal';

const numberParams = v.strictObject({ number: v.pipe(v.string(), v.regex(NUMBER_PATTERN)) });
/** Proposals in one answer of the editor's list, at most. */
export const PROPOSALS_PAGE = 30;
/** A cursor of the list: its signature, a dot, then where the page ends (base64url), bounded. */
const CURSOR = /^[\w-]{43}\.[\w-]{1,150}$/;
const listQuery = v.strictObject({
  kind: v.optional(v.picklist(KINDS)),
  state: v.optional(v.picklist(STATES)),
  /** Where the previous page ended: its `next`, opaque. */
  apres: v.optional(v.pipe(v.string(), v.maxLength(200), v.regex(CURSOR))),
});
/** A page of proposals as the editor reads it (`forEditor`): its shape is shared with the editor. */
const listAnswer = editorProposalListSchema;
const stateBody = v.strictObject({ state: v.picklist(STATES) });
const noteBody = v.strictObject({ text: v.pipe(v.string(), v.maxLength(BOUNDS.note)) });

/** Who sees which kind (docs/proposals.md, « Who sees what »): admins both, each team its own. */
export function kindsSeenBy(editor: Editor): readonly ProposalKind[] {
  if (editor.role === 'admin') return KINDS;
  if (editor.role === 'programmation') return ['emission'];
  if (editor.role === 'label') return ['demo'];
  return [];
}

const forbidden = (kind?: ProposalKind) =>
  new ApiHttpError(
    403,
    'forbidden',
    kind === 'emission'
      ? 'Les propositions d’émission sont réservées à l’équipe de programmation.'
      : kind === 'demo'
        ? 'Les démos sont réservées à l’équipe du label.'
        : 'Les propositions sont réservées aux équipes de programmation et du label.',
  );

/** Not there, and not the volunteer's kind, alike: nothing says which numbers exist. */
const notFound = () =>
  new ApiHttpError(404, 'not_found', 'Cette proposition n’existe pas, plus, ou n’est pas de votre équipe.');
/** A proposal as the editor reads it: without its deletion token, each mail's state in a word. */
function forEditor(proposal: Proposal, mail: 'on' | 'off') {
  const { deleteToken: _token, mails, ...rest } = proposal;
  const stateOf = (name: MailName) =>
    mail === 'off'
      ? 'off'
      : mails[name].sent
        ? 'sent'
        : mails[name].skipped === true
          ? 'skipped'
          : mails[name].failed === true
            ? 'failed'
            : 'waiting';
  // « Répondre »: the editor opens `mailto:<email>?subject=…&body=…` with these (encoded).
  return { ...rest, mails: { team: stateOf('team'), ack: stateOf('ack') }, reply: replyOf(proposal) };
}

/** Where a page of the list ends, in a cursor read back: a proposal's date and number. */
const positionSchema = v.strictObject({
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  number: v.pipe(v.string(), v.regex(NUMBER_PATTERN)),
});
const CURSOR_CONTEXT = 'proposals:list';

/**
 * The list's cursors (docs/proposals.md, « The editor »): the last proposal of a page, signed with
 * SITE_SECRET, so that a cursor the server did not give is refused rather than read.
 */
function cursors(secret: string) {
  const seals = sealer(secret);
  return {
    of: (proposal: Proposal) =>
      seals.seal(
        CURSOR_CONTEXT,
        Buffer.from(JSON.stringify({ createdAt: proposal.createdAt, number: proposal.number })).toString('base64url'),
      ),
    read(cursor: string): v.InferOutput<typeof positionSchema> | null {
      const text = seals.open(CURSOR_CONTEXT, cursor);
      if (text === null) return null;
      try {
        const read = v.safeParse(positionSchema, JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
        return read.success ? read.output : null;
      } catch {
        return null;
      }
    },
  };
}

/** The volunteers' routes in the editor: the list, a proposal, its state, its notes, its deletion. */
export function editorRoutes(instance: FastifyInstance): void {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const service = () => app.proposals;
  const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');

  // The volunteers' side (editor routes: a signed-in editor, the editor's origin rules).
  const editorOnly = { editor: true };
  const mail = () => service().mail;
  const readable = async (request: FastifyRequest, number: string) => {
    const editor = await app.editorOf(request);
    const proposal = await service().store.get(number);
    // Another team's proposal answers as one that is not there (docs/proposals.md, « Who sees what »).
    if (proposal === null || !kindsSeenBy(editor).includes(proposal.kind)) throw notFound();
    return { editor, proposal };
  };

  const cursor = cursors(app.apiConfig.siteSecret);
  app.get(
    '/editor/proposals',
    { config: editorOnly, schema: { querystring: jsonSchema(listQuery), response: { 200: jsonSchema(listAnswer) } } },
    async (request, reply) => {
      const editor = await app.editorOf(request);
      const seen = kindsSeenBy(editor);
      const { kind, state, apres } = request.query;
      if (seen.length === 0) throw forbidden();
      if (kind !== undefined && !seen.includes(kind)) throw forbidden(kind);
      const from = apres === undefined ? null : cursor.read(apres);
      if (apres !== undefined && from === null) {
        throw new ApiHttpError(400, 'bad_request', 'Cette suite de la liste n’est pas valable : rechargez la liste.');
      }
      const all = await service().store.list();
      // The filters first, then the page: newest first, after the cursor's proposal.
      const after = all
        .filter((proposal) => seen.includes(proposal.kind))
        .filter(
          (proposal) =>
            (kind === undefined || proposal.kind === kind) && (state === undefined || proposal.state === state),
        )
        .filter((proposal) => from === null || newestFirst(from, proposal) < 0);
      const page = after.slice(0, PROPOSALS_PAGE);
      const last = page.at(-1);
      const next = after.length > PROPOSALS_PAGE && last !== undefined ? cursor.of(last) : null;
      return noStore(reply).send({
        mail: mail(),
        proposals: page.map((proposal) => forEditor(proposal, mail())),
        next,
      });
    },
  );

  app.get(
    '/editor/proposals/:number',
    { config: editorOnly, schema: { params: jsonSchema(numberParams) } },
    async (request, reply) => {
      const { proposal } = await readable(request, request.params.number);
      return noStore(reply).send({ mail: mail(), proposal: forEditor(proposal, mail()) });
    },
  );

  app.put(
    '/editor/proposals/:number/state',
    { config: editorOnly, bodyLimit: 1024, schema: { params: jsonSchema(numberParams), body: jsonSchema(stateBody) } },
    async (request, reply) => {
      const { number } = request.params;
      await readable(request, number);
      const { state } = request.body;
      const after = await service().store.update(number, (proposal) =>
        proposal.state === state ? null : { ...proposal, state },
      );
      if (after === null) throw notFound();
      return noStore(reply).send({ mail: mail(), proposal: forEditor(after, mail()) });
    },
  );

  app.post(
    '/editor/proposals/:number/notes',
    {
      config: editorOnly,
      bodyLimit: 16 * 1024,
      schema: { params: jsonSchema(numberParams), body: jsonSchema(noteBody) },
    },
    async (request, reply) => {
      const { number } = request.params;
      const { editor } = await readable(request, number);
      const text = readNote(request.body.text);
      if (text === null) {
        throw new ApiHttpError(400, 'bad_request', `Une note est un texte de 1 à ${String(BOUNDS.note)} caractères.`);
      }
      const refused = { full: false };
      const after = await service()
        .store.update(number, (proposal) => {
          if (proposal.notes.length >= BOUNDS.notesMax) {
            refused.full = true;
            return null;
          }
          const note = { text, author: editor.account, at: new Date(app.clock()).toISOString() };
          return { ...proposal, notes: [...proposal.notes, note] };
        })
        .catch((error: unknown) => {
          // Past its memory's bound (PROPOSAL_RECORD_MAX, or the proposals' in all).
          if (!(error instanceof RecordRefused)) throw error;
          refused.full = true;
          return null;
        });
      if (refused.full)
        throw new ApiHttpError(
          409,
          'full',
          `Cette proposition ne prend plus de note : elle en garde au plus ${String(BOUNDS.notesMax)}, dans la place qui lui est comptée.`,
        );
      if (after === null) throw notFound();
      return noStore(reply)
        .code(201)
        .send({ mail: mail(), proposal: forEditor(after, mail()) });
    },
  );

  app.delete(
    '/editor/proposals/:number',
    { config: editorOnly, schema: { params: jsonSchema(numberParams) } },
    async (request, reply) => {
      const { number } = request.params;
      await readable(request, number);
      await service().store.remove(number);
      return noStore(reply).code(204).send();
    },
  );
}
