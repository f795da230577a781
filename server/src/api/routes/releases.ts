import type { FastifyPluginCallback } from 'fastify';
import type { Release } from '@collectif/shared';
import { latest } from '../../feed';
import type { ValibotJsonTypeProvider } from '../schemas/provider';
import { routeSchemas } from '../schemas/routes';

/** GET /api/releases?limit=: the label's releases, newest first, as the label team last saved them. */
const releases: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  app.get(
    '/releases',
    {
      config: { editor: true, public: true },
      schema: {
        querystring: routeSchemas.releasesQuery,
        response: { 200: routeSchemas.releases, '4xx': routeSchemas.error },
      },
    },
    async (request, reply) => {
      const { limit } = request.query;
      const { id, data } = app.content.current('releases');
      // Each release links to its artist's page (docs/artists.md): the index of the same version.
      // The releases are the collective's own content; only those links need the index, which
      // needs the feed: with the feed down and no index yet, the releases go without their links,
      // kept by no cache, so that the next answer has them (docs/api.md, « What an answer depends on »).
      const artists = await app.playedArtists.get().catch(() => null);
      if (artists === null) {
        return reply.header('cache-control', 'no-store').send(latest(data as Release[], limit));
      }
      return reply.representation(
        `releases|${id}|${artists.key}|${String(limit)}`,
        () =>
          reply.serialized(
            latest(data as Release[], limit).map((release) => {
              const artistSlug = artists.value.slugOf(release.artist);
              return artistSlug === undefined ? release : { ...release, artistSlug };
            }),
          ),
        // Short: a change the label team saves is seen within the minute (docs/content.md).
        { cacheControl: 'public, max-age=60' },
      );
    },
  );
  done();
};

export default releases;
