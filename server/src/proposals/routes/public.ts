import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { errorCodes, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { readCookie } from '@collectif/shared';
import { ApiHttpError } from '../../http/errors';
import { jsonSchema, type ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { BOUNDS, KINDS, NUMBER_PATTERN, readFields, type FieldErrors, type ProposalKind } from '../fields';
import { FORM_COOKIE, HONEYPOT, MAX_FILL_MS } from '../spam';
import { RecordRefused } from '../../instances/records';
import type { Proposal } from '../store';

/**
 * « Proposer une émission » and « Envoyer une démo »'s routes (docs/proposals.md, « The API »): the
 * challenge, a proposal sent by the page's script (JSON) or by the form without JavaScript
 * (urlencoded, answered by redirects), the proposer's deletion, the refused form read back by the
 * page (the volunteers' side: ./editor.ts). Every body is the public's: bounded
 * before it is read whole, each field checked (proposals/fields.ts), refused in French field by field.
 */

/** The largest JSON body: every field at its bound fits in it, with the proof of work. */
export const PROPOSAL_BODY_MAX = 24 * 1024;
/** The largest form body: stricter, the form carries no proof of work (docs/proposals.md, « Spam »). */
export const PROPOSAL_FORM_MAX = 16 * 1024;
/** Posts one address may make a minute, beside the bound per network and day. */
export const PROPOSAL_POSTS_PER_MIN = 10;
/** How long a refused form is kept for the page that shows it again (ms). */
export const DRAFT_MS = 15 * 60_000;

const FORM = 'application/x-www-form-urlencoded';
/** The fields a refused form gives back to its page, each cut to twice its bound. */
const DRAFT_FIELDS = {
  name: BOUNDS.name,
  makers: BOUNDS.makers,
  style: BOUNDS.style,
  links: 3000,
  when: BOUNDS.when,
  email: BOUNDS.email,
  message: BOUNDS.message,
} as const;

const kindParams = v.strictObject({ kind: v.picklist(KINDS, 'Type de proposition inconnu : emission ou demo.') });
const draftParams = v.strictObject({ id: v.pipe(v.string(), v.regex(/^[\w-]{22}$/)) });

/**
 * A proposal stored, as the page's script reads it: its number, the proposer's deletion link, and
 * whether e-mails are sent (`off` without SMTP_HOST: the « Merci ! » page then promises none).
 */
const createdAnswer = v.strictObject({
  number: v.string(),
  deleteUrl: v.string(),
  /** `skipped`: e-mails are sent, but this address had its acknowledgement of the day already. */
  mail: v.picklist(['on', 'off', 'skipped']),
});

/** The challenge's answer (the ALTCHA widget's `challengeurl`), with the form's `startedAt`. */
const challengeAnswer = v.object({
  algorithm: v.string(),
  challenge: v.string(),
  maxnumber: v.optional(v.number()),
  salt: v.string(),
  signature: v.string(),
  startedAt: v.string(),
});

/** The proposals at their memory's bound (PROPOSALS_STORE_MB): try again in an hour. */
const FULL_RETRY_S = 3600;
const fullMessage =
  'Le site ne peut plus recevoir de propositions pour le moment : réessayez plus tard, ou écrivez-nous.';
const unavailable = () =>
  new ApiHttpError(
    503,
    'unavailable',
    'La proposition ne peut pas être enregistrée pour le moment : réessayez dans un instant.',
  );

/** A refusal of the public routes, said once for JSON (its status) and for the form (a redirect). */
class Refusal {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly message: string,
    readonly fields?: FieldErrors,
  ) {}
}

const sameToken = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** A form's fields as a record: `links` repeated or one per line; any other field once. */
function formFields(text: string): Record<string, unknown> {
  const params = new URLSearchParams(text);
  const record: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    record[key] = key === 'links' && all.length > 1 ? all : all[0];
  }
  return record;
}

/** The public's routes: the challenge, a proposal posted, its refused form read back, its deletion. */
export function publicRoutes(instance: FastifyInstance): void {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  // The form without JavaScript: its own parser, in this context only, bounded before it is read whole.
  // The route's own bound (PROPOSAL_BODY_MAX) stops the reading; the form's stricter one is checked
  // on what was read, and on the announced length before any of it is.
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: PROPOSAL_FORM_MAX }, (request, body, parsed) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    const announced = Number(request.headers['content-length'] ?? '0');
    if (Buffer.byteLength(text) > PROPOSAL_FORM_MAX || announced > PROPOSAL_FORM_MAX) {
      parsed(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
      return;
    }
    parsed(null, formFields(text));
  });
  const service = () => app.proposals;
  const isForm = (request: FastifyRequest) =>
    (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === FORM;
  // Posted only from the site's own pages (api/http/site-only.ts), bounded per address and minute.
  const publicPosts = {
    xsrf: false,
    siteOnly: true,
    rateLimit: { max: PROPOSAL_POSTS_PER_MIN, timeWindow: 60_000 },
  };
  const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');

  app.get(
    '/proposals/challenge',
    { config: { siteOnly: true }, schema: { response: { 200: jsonSchema(challengeAnswer) } } },
    async (_request, reply) => noStore(reply).send(await service().spam.challenge()),
  );

  /** Keeps a refused form and sends its page back to it (303), with the draft's id. */
  const backToForm = async (
    reply: FastifyReply,
    kind: ProposalKind,
    body: Record<string, unknown>,
    refusal: Refusal,
  ) => {
    const values: Record<string, string> = {};
    for (const [key, max] of Object.entries(DRAFT_FIELDS)) {
      const value = body[key];
      const text = Array.isArray(value) ? value.filter((entry) => typeof entry === 'string').join('\n') : value;
      if (typeof text === 'string') values[key] = text.slice(0, max * 2);
    }
    const id = randomBytes(16).toString('base64url');
    const draft = { kind, values, error: refusal.error, message: refusal.message, fields: refusal.fields ?? {} };
    // Redis away: the page says the fault without what was typed.
    const kept = await service()
      .store.putDraft(id, JSON.stringify(draft), DRAFT_MS)
      .then(
        () => true,
        () => false,
      );
    const query: Record<string, string> = kept ? { brouillon: id } : { erreur: refusal.error };
    return noStore(reply).redirect(await service().formPath(kind, '', query), 303);
  };

  app.post(
    '/proposals/:kind',
    {
      bodyLimit: PROPOSAL_BODY_MAX,
      config: publicPosts,
      schema: { params: jsonSchema(kindParams), response: { 201: jsonSchema(createdAnswer) } },
      // A form announced over its bound is refused before a byte of it is read.
      onRequest: (request, _reply, next) => {
        const announced = Number(request.headers['content-length'] ?? '0');
        next(
          isForm(request) && announced > PROPOSAL_FORM_MAX ? new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE() : undefined,
        );
      },
    },
    async (request, reply) => {
      const { kind } = request.params;
      const form = isForm(request);
      const raw: unknown = request.body;
      const body =
        raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
      const { spam, store, config } = service();
      const refuse = async (refusal: Refusal, reason: string) => {
        app.metrics.proposals.refused.inc({ reason });
        if (form) return backToForm(reply, kind, body, refusal);
        return noStore(reply)
          .code(refusal.status)
          .send({
            error: refusal.error,
            message: refusal.message,
            ...(refusal.fields === undefined ? {} : { fields: refusal.fields }),
          });
      };
      // The hidden field: a person never fills it (docs/proposals.md, « Spam »).
      const trap = body[HONEYPOT];
      if (trap !== undefined && trap !== '') {
        return refuse(new Refusal(400, 'refused', 'Envoi refusé : un champ caché a été rempli.'), 'honeypot');
      }
      // The time the form took, from its single-use token: the form's cookie without JavaScript, the
      // challenge's `startedAt` with it. Either is used once, when the proposal is kept.
      const token = form
        ? spam.formFilled(readCookie(FORM_COOKIE, request.headers.cookie ?? ''))
        : {
            verdict: spam.filled(body.startedAt),
            name: `started:${createHash('sha256').update(String(body.startedAt)).digest('base64url')}`,
          };
      const filled = token.verdict;
      if (filled === 'bad') {
        return refuse(
          new Refusal(
            400,
            'expired_form',
            'Le formulaire a expiré ou est incomplet : rechargez la page, puis renvoyez-le.',
          ),
          'fast',
        );
      }
      if (filled === 'fast') {
        return refuse(
          new Refusal(
            400,
            'too_fast',
            'Envoyé trop vite : relisez votre proposition quelques secondes, puis renvoyez-la.',
          ),
          'fast',
        );
      }
      const read = readFields(kind, body);
      if (!read.ok) {
        return refuse(new Refusal(400, 'invalid', 'Certains champs sont à corriger.', read.errors), 'fields');
      }
      if (!form) {
        // The proof of work, used once (without JavaScript there is none: the stricter bound below).
        const verdict = await spam
          .verify(body.altcha, (name, ms) => store.useChallenge(name, ms))
          .catch(() => 'bad' as const);
        if (verdict !== 'ok') {
          const message =
            verdict === 'used'
              ? 'Cette vérification anti-robot a déjà servi : la page en refait une, renvoyez la proposition.'
              : verdict === 'expired'
                ? 'La vérification anti-robot a expiré : la page en refait une, renvoyez la proposition.'
                : 'La vérification anti-robot manque ou n’est pas valable : rechargez la page, puis renvoyez la proposition.';
          return refuse(new Refusal(400, verdict === 'used' ? 'challenge_used' : 'challenge', message), 'challenge');
        }
      }
      const count = await store.network(request.ip);
      if (count.network > (form ? config.perNetworkForm : config.perNetwork) || count.wide > config.perWideNetwork) {
        return refuse(
          new Refusal(
            429,
            'too_many',
            'Trop de propositions envoyées depuis ce réseau aujourd’hui : réessayez demain, ou écrivez-nous.',
          ),
          'network',
        );
      }
      // Used once: the same token again (a form sent twice, a page of another site replaying one) is refused.
      if (!(await store.useChallenge(token.name, MAX_FILL_MS).catch(() => false))) {
        return refuse(
          new Refusal(
            400,
            'form_used',
            'Ce formulaire a déjà servi : rechargez la page, puis renvoyez votre proposition.',
          ),
          'fast',
        );
      }
      let proposal: Proposal;
      try {
        proposal = await service().submit(kind, read.fields);
      } catch (error) {
        const full = error instanceof RecordRefused;
        if (full) void reply.header('Retry-After', String(FULL_RETRY_S));
        const refusal = full
          ? new Refusal(503, 'full', fullMessage)
          : new Refusal(503, 'unavailable', unavailable().message);
        if (form) return backToForm(reply, kind, body, refusal);
        throw new ApiHttpError(503, refusal.error, refusal.message);
      }
      app.metrics.proposals.received.inc({ kind, form: form ? 'form' : 'json' });
      const mail = service().mail === 'off' ? 'off' : proposal.mails.ack.skipped === true ? 'skipped' : 'on';
      if (form) {
        // `courriel=non`: the « Merci ! » page says no confirmation e-mail leaves (the demo); `deja`: this
        // address had its acknowledgement of the day already.
        const words = { on: null, off: 'non', skipped: 'deja' } as const;
        const said = words[mail];
        const search: Record<string, string> =
          said === null ? { numero: proposal.number } : { numero: proposal.number, courriel: said };
        return noStore(reply).redirect(await service().formPath(kind, 'merci', search), 303);
      }
      return noStore(reply)
        .code(201)
        .send({ number: proposal.number, deleteUrl: await service().deleteUrl(proposal), mail });
    },
  );

  app.get('/proposals/drafts/:id', { schema: { params: jsonSchema(draftParams) } }, async (request, reply) => {
    const text = await service().store.draft(request.params.id);
    if (text === null) throw new ApiHttpError(404, 'not_found', 'Ce formulaire a expiré : remplissez-le de nouveau.');
    return noStore(reply).type('application/json; charset=utf-8').send(text);
  });

  app.post('/proposals/delete', { bodyLimit: 2048, config: publicPosts }, async (request, reply) => {
    const form = isForm(request);
    const raw: unknown = request.body;
    const body = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const number = typeof body.number === 'string' && NUMBER_PATTERN.test(body.number) ? body.number : null;
    const token = typeof body.token === 'string' ? body.token : '';
    const { store } = service();
    const proposal = number === null ? null : await store.get(number);
    const kind: ProposalKind = number?.startsWith('D') === true ? 'demo' : 'emission';
    const mine = proposal !== null && sameToken(proposal.deleteToken, token);
    if (mine) await store.remove(proposal.number);
    if (form) {
      const page = await service().formPath(kind, 'supprimer', {
        numero: number ?? '',
        etat: mine ? 'supprimee' : 'introuvable',
      });
      return noStore(reply).redirect(page, 303);
    }
    // The same answer for an unknown number and a wrong token: nothing says which numbers exist.
    if (!mine)
      throw new ApiHttpError(404, 'not_found', 'Cette proposition n’existe plus, ou ce lien n’est pas le bon.');
    return noStore(reply).send({ deleted: true });
  });
}
