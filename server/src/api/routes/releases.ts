import type { FastifyPluginCallback } from 'fastify';
import { latest } from '../../feed';
import type { ValibotJsonTypeProvider } from '../schemas/provider';
import { routeSchemas } from '../schemas/routes';

/** GET /api/releases?limit=: the label's releases, newest first. */
const releases: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const all = app.releases;
  app.get(
    '/releases',
    {
      schema: {
        querystring: routeSchemas.releasesQuery,
        response: { 200: routeSchemas.releases, '4xx': routeSchemas.error },
      },
    },
    async (request, reply) => {
      const { limit } = request.query;
      return reply.representation(`releases|${String(limit)}`, () => reply.serialized(latest(all, limit)), {
        cacheControl: 'public, max-age=300',
      });
    },
  );
  done();
};

export default releases;
