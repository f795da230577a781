import fp from 'fastify-plugin';
import type { FastifyPluginCallback } from 'fastify';

/**
 * Liveness: the process answers. Readiness: it can answer pages, and which parts render on the
 * server (docs/rendering.md, « Readiness »), as the pages' responder knows it.
 */
const healthPlugin: FastifyPluginCallback = (app, _options, done) => {
  app.get('/healthz', (_req, reply) => reply.send({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const state = await app.siteReadiness();
    // Which version of each part is live (docs/deploy.md): `construit` for its dist/ as built.
    const live = Object.fromEntries(app.partsStatus().map((part) => [part.name, part.live?.version ?? null]));
    return reply
      .header('Cache-Control', 'no-store')
      .code(state.status === 'ready' ? 200 : 503)
      .send({ ...state, live });
  });
  done();
};

export const siteHealth = fp(healthPlugin, { name: 'site-health', dependencies: ['site-page-routes', 'site-deploys'] });
