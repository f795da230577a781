import type { FastifyPluginCallback } from 'fastify';
import { cacheControlFor } from '../../upstream/cache';
import type { ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { routeSchemas } from '../../api/schemas/routes';

const RSS_TYPE = 'application/rss+xml; charset=utf-8';

/** GET /api/soundcloud-rss: the whole feed as RSS (the real one, or the demo's). */
const soundcloudRss: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { sources, apiConfig: config, clock } = app;
  app.get(
    '/soundcloud-rss',
    { schema: { produces: ['application/rss+xml'], response: { 200: { type: 'string' }, '5xx': routeSchemas.error } } },
    async (_request, reply) => {
      const feed = await sources.feed.get();
      return reply.representation(`rss|${String(feed.version)}`, () => feed.value.xml, {
        type: RSS_TYPE,
        cacheControl: cacheControlFor(feed, config.ttlMs.feed, clock()),
        state: feed.state,
      });
    },
  );
  done();
};

export default soundcloudRss;
