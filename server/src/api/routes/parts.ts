import { statSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import type {
  FastifyPluginAsync,
  FastifyPluginCallback,
  FastifyReply,
  FastifyRequest,
  preParsingHookHandler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { PARTS, type PartName } from '@collectif/shared';
import type { DeploySettings } from '../../settings/config';
import { ARCHIVE_LIMITS } from '../../deploy/archive';
import { PART_INFO, readPartInfo } from '../../deploy/checks';
import type { Deploys, PartStatus } from '../../deploy/deploys';
import { teamOf } from '../../deploy/tokens';

declare module 'fastify' {
  interface FastifyInstance {
    /** Each part's live version, build and last refused deploy (`GET /api/parts`, `/readyz`). */
    partsStatus: () => PartStatus[];
  }
}

/** How many deploy or rollback attempts a client may make a minute (a wrong token counts). */
export const DEPLOY_ATTEMPTS_PER_MINUTE = 30;

const PART_NAMES = PARTS.map((part) => part.name);

/** A part served from its dist/ as built or copied (no deploys): what its build says of it. */
function builtStatus(distDirs: Record<PartName, string>): PartStatus[] {
  return PARTS.map(({ name }) => {
    const info = readPartInfo(distDirs[name]);
    let since: string | null;
    try {
      since = statSync(join(distDirs[name], PART_INFO)).mtime.toISOString();
    } catch {
      since = null;
    }
    return {
      name,
      source: 'build',
      live:
        info === null || since === null
          ? null
          : {
              version: 'construit',
              builtAt: info.builtAt,
              commit: info.commit,
              contract: info.contract,
              liveSince: since,
              by: 'construction',
            },
      lastRefusal: null,
    };
  });
}

const errorSchema = {
  type: 'object',
  properties: { error: { type: 'string' }, message: { type: 'string' }, advice: { type: 'string' } },
};

/**
 * The parts' versions (docs/deploy.md): `GET /api/parts` for anyone; with DEPLOY_TOKENS, a team's
 * deploy (`PUT /api/parts/:part`, its `dist/` as a gzipped tar) and rollback
 * (`POST /api/parts/:part/rollback`), each with the team's token (`Authorization: Bearer …`). Every
 * deploy and refusal is logged with the team, never the token.
 */
const partsPlugin: FastifyPluginAsync<{
  distDirs: Record<PartName, string>;
  settings: DeploySettings | null;
  deploys: Deploys | null;
}> = async (app, { distDirs, settings, deploys }) => {
  const status = () => (deploys === null ? builtStatus(distDirs) : deploys.status());
  app.decorate('partsStatus', status);

  app.get('/api/parts', (_request, reply) => reply.header('Cache-Control', 'no-store').send({ parts: status() }));

  // No DEPLOY_TOKENS, no deploy endpoint: its addresses are unknown (404).
  if (settings !== null && deploys !== null) await app.register(deployRoutes, { settings, deploys });
};

/** The deploy endpoint, its archive parser and its errors in a context of their own. */
const deployRoutes: FastifyPluginCallback<{ settings: DeploySettings; deploys: Deploys }> = (
  app,
  { settings, deploys },
  done,
) => {
  /** The team of each request whose token was accepted. */
  const teams = new WeakMap<FastifyRequest, string>();

  /** The team a request's token names, or a refusal sent (401, 403). */
  function team(request: FastifyRequest<{ Params: { part: string } }>, reply: FastifyReply): string | null {
    const part = request.params.part;
    if (!(PART_NAMES as readonly string[]).includes(part)) {
      void reply
        .code(404)
        .send({ error: 'not_found', message: `Partie inconnue « ${part} » (${PART_NAMES.join(', ')})` });
      return null;
    }
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const parts = teamOf(settings.tokens, token);
    if (parts === null) {
      request.log.warn({ part }, 'Déploiement refusé : jeton inconnu');
      void reply.code(401).send({
        error: 'unknown_token',
        message: 'Jeton de déploiement inconnu',
        advice: 'vérifiez DEPLOY_TOKEN, ou demandez le jeton de votre équipe aux admins',
      });
      return null;
    }
    const by = `équipe ${[...parts].join('+')}`;
    if (!parts.has(part as PartName)) {
      request.log.warn({ part, team: by }, 'Déploiement refusé : partie d’une autre équipe');
      void reply.code(403).send({
        error: 'other_part',
        message: `Ce jeton déploie ${[...parts].join(', ')}, pas « ${part} »`,
        advice: `utilisez le jeton de l'équipe de « ${part} »`,
      });
      return null;
    }
    teams.set(request, by);
    return by;
  }
  // After the attempts are counted (the rate limit's `onRequest`), before the body is read.
  const checked: preParsingHookHandler<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    { Params: { part: string } }
  > = (request, reply, payload, done) => {
    if (team(request, reply) !== null) done(null, payload);
  };

  // The archive is read only once the token is known good: nobody else makes the server read 50 MB.
  app.addContentTypeParser(
    ['application/gzip', 'application/x-gzip', 'application/x-tar', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: ARCHIVE_LIMITS.maxBytes },
    (_request, body, done) => {
      done(null, body);
    },
  );
  app.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send({
        error: 'too_large',
        message: `Archive de plus de ${String(ARCHIVE_LIMITS.maxBytes / 1024 / 1024)} Mo`,
        advice: 'envoyez le dist/ de la partie seul (npm run deploy l’empaquette)',
      });
    }
    if (error.statusCode === 429) return reply.code(429).send(error);
    if (error.statusCode !== undefined && error.statusCode < 500) {
      return reply.code(error.statusCode).send({ error: 'bad_request', message: error.message });
    }
    request.log.error(error);
    return reply.code(500).send({ error: 'internal', message: 'Erreur du serveur pendant le déploiement' });
  });

  // A team's deploy, with its token: not the public's (docs/api.md, « The description »).
  const limited = { caller: 'deploy' as const, rateLimit: { max: DEPLOY_ATTEMPTS_PER_MINUTE, timeWindow: 60_000 } };
  const answer = (reply: FastifyReply, part: string, outcome: Awaited<ReturnType<Deploys['deploy']>>) =>
    outcome.ok
      ? reply.send({ part, version: outcome.version, message: outcome.message })
      : reply.code(outcome.status).send({
          error: outcome.error,
          message: outcome.message,
          ...(outcome.advice === undefined ? {} : { advice: outcome.advice }),
        });

  app.put<{ Params: { part: string } }>(
    '/api/parts/:part',
    {
      config: limited,
      schema: { response: { 401: errorSchema, 403: errorSchema, 413: errorSchema, 422: errorSchema } },
      preParsing: checked,
    },
    async (request, reply) => {
      const by = teams.get(request) ?? '';
      if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
        return reply.code(400).send({
          error: 'bad_request',
          message: 'Aucune archive reçue (Content-Type: application/gzip attendu)',
        });
      }
      request.log.info({ part: request.params.part, team: by, bytes: request.body.length }, 'Déploiement reçu');
      return answer(
        reply,
        request.params.part,
        await deploys.deploy(request.params.part as PartName, request.body, by),
      );
    },
  );

  app.post<{ Params: { part: string } }>(
    '/api/parts/:part/rollback',
    { config: limited, preParsing: checked },
    async (request, reply) => {
      const by = teams.get(request) ?? '';
      return answer(reply, request.params.part, await deploys.rollback(request.params.part as PartName, by));
    },
  );
  done();
};

export const siteDeploys = fp(partsPlugin, { name: 'site-deploys' });
