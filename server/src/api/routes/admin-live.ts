import type { FastifyPluginCallback } from 'fastify';
import { ApiHttpError } from '../../http/errors';
import { JSON_TYPE } from '../plugins/representations';
import type { ValibotJsonTypeProvider } from '../schemas/provider';
import { routeSchemas } from '../schemas/routes';

/**
 * Demo only, and only with ADMIN_TOKEN: POST /api/admin/live `{ live }` switches the demo's live
 * status (409 when Twitch gives it). The token is checked as on every route that takes it
 * (`app.adminToken`, routes/editor.ts: wrong ones throttled and logged).
 */
const adminLive: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { sources } = app;
  app.post(
    '/admin/live',
    {
      schema: {
        headers: routeSchemas.adminHeaders,
        body: routeSchemas.adminLive,
        response: { 200: routeSchemas.live, '4xx': routeSchemas.error },
      },
    },
    async (request, reply) => {
      if (!(await app.adminToken(request))) {
        throw new ApiHttpError(401, 'unauthorized', 'Jeton d’administration absent ou invalide.');
      }
      if (sources.demoLive === undefined) {
        throw new ApiHttpError(409, 'not_demo', 'Le statut du direct vient de Twitch : il ne se bascule pas ici.');
      }
      sources.demoLive.set(request.body.live);
      request.log.info({ live: request.body.live }, 'statut du direct de démonstration changé');
      return reply.header('Cache-Control', 'no-store').type(JSON_TYPE).send({ live: request.body.live });
    },
  );
  done();
};

export default adminLive;
