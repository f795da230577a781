import type { FastifyPluginCallback } from 'fastify';
import { cacheControlFor } from '../../upstream/cache';
import type { ValibotJsonTypeProvider } from '../schemas/provider';
import { routeSchemas } from '../schemas/routes';

/** GET /api/islive: `{ live }`, from Twitch or the demo switch. */
const islive: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { sources, apiConfig: config, clock } = app;
  app.get(
    '/islive',
    { schema: { response: { 200: routeSchemas.live, '5xx': routeSchemas.error } } },
    async (_request, reply) => {
      const live = await sources.live.get();
      return reply.representation(
        `live|${String(live.version)}|${String(live.value)}`,
        () => reply.serialized({ live: live.value }),
        { cacheControl: cacheControlFor(live, config.ttlMs.live, clock()), state: live.state },
      );
    },
  );
  done();
};

export default islive;
