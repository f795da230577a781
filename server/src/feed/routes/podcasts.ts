import type { FastifyPluginCallback } from 'fastify';
import type { PodcastItem } from '@collectif/shared';
import { latest, podcastsByName } from '..';
import { cacheControlFor } from '../../upstream/cache';
import type { ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { routeSchemas } from '../../api/schemas/routes';

/** GET /api/podcasts?limit=&q=: the feed's podcasts, newest first, optionally by show name. */
const podcasts: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { sources, apiConfig: config, clock } = app;
  app.get(
    '/podcasts',
    {
      schema: {
        querystring: routeSchemas.podcastsQuery,
        response: { 200: routeSchemas.podcasts, '4xx': routeSchemas.error, '5xx': routeSchemas.error },
      },
    },
    async (request, reply) => {
      const { limit, q } = request.query;
      const feed = await sources.episodes.get();
      const catalogue = feed.value;
      const name = q?.trim() ?? '';
      return reply.representation(
        `podcasts|${String(feed.version)}|${String(limit)}|${name}`,
        () => {
          const found: readonly PodcastItem[] =
            name === '' ? catalogue.episodes : podcastsByName(catalogue.episodes, name);
          // Each with its page's slug (docs/episodes.md); the schema leaves the episode's other facts out.
          return reply.serialized(latest(found, limit));
        },
        { cacheControl: cacheControlFor(feed, config.ttlMs.feed, clock()), state: feed.state },
      );
    },
  );
  done();
};

export default podcasts;
