import type { FastifyPluginCallback } from 'fastify';
import { ApiHttpError } from '../../http/errors';
import { cacheControlFor } from '../../upstream/cache';
import type { ValibotJsonTypeProvider } from '../schemas/provider';
import { routeSchemas } from '../schemas/routes';
import { TRACK_URN } from '../upstream/soundcloud';

/** GET /api/track/:trackUrn: the stream address of a SoundCloud track, as text (docs/server.md). */
const track: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { sources, apiConfig: config, clock } = app;
  app.get(
    '/track/:trackUrn',
    {
      config: { rateLimit: { max: config.limits.trackPerMinute, timeWindow: 60_000 } },
      schema: {
        params: routeSchemas.trackParams,
        response: { 200: { type: 'string' }, '4xx': routeSchemas.error, '5xx': routeSchemas.error },
      },
    },
    async (request, reply) => {
      const { trackUrn } = request.params;
      if (!TRACK_URN.test(trackUrn)) {
        throw new ApiHttpError(
          400,
          'invalid_track',
          'Identifiant de piste invalide : soundcloud:tracks:<chiffres> attendu.',
        );
      }
      const stream = await sources.track(trackUrn);
      return reply.representation(`track|${trackUrn}|${String(stream.version)}|${stream.value}`, () => stream.value, {
        type: 'text/plain; charset=utf-8',
        cacheControl: cacheControlFor(stream, Math.min(config.ttlMs.track, 60_000), clock()),
        state: stream.state,
      });
    },
  );
  done();
};

export default track;
