import type { FastifyPluginCallback } from 'fastify';
import { PLAYED_ARTIST_SLUG, PLAYED_ARTIST_SLUG_MAX } from '@collectif/shared/schemas';
import { cleanQuery } from '../episodes/catalogue';
import { ApiHttpError } from '../http/errors';
import { cacheControlFor } from '../upstream/cache';
import type { ValibotJsonTypeProvider } from '../api/schemas/provider';
import { routeSchemas } from '../api/schemas/routes';

/** As an episode's answer: a corrected tracklist or a merge reaches a browser within a minute. */
const ARTISTS_MAX_AGE_MS = 60_000;

const notFound = () => new ApiHttpError(404, 'artist_not_found', 'Cet artiste n’a pas de page sur le site.');

/**
 * The played artists (docs/artists.md): GET /api/artists?q=&page= (a page of them A–Z, 50 a page)
 * and GET /api/artists/:slug (one, with their plays, releases and residence).
 */
const playedArtists: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { apiConfig: config, clock } = app;
  const error = { '4xx': routeSchemas.error, '5xx': routeSchemas.error };
  const maxAge = Math.min(config.ttlMs.feed, ARTISTS_MAX_AGE_MS);

  app.get(
    '/artists',
    {
      config: { editor: true, public: true },
      schema: {
        querystring: routeSchemas.playedArtistsQuery,
        response: { 200: routeSchemas.playedArtists, ...error },
      },
    },
    async (request, reply) => {
      const { q, page = 1 } = request.query;
      const text = cleanQuery(q);
      const current = await app.playedArtists.get();
      const found = current.value.page({ q: text, page });
      if (found === undefined) {
        throw new ApiHttpError(404, 'artists_page_not_found', 'Cette page de la liste des artistes n’existe pas.');
      }
      return reply.representation(JSON.stringify(['artists', current.key, text, page]), () => reply.serialized(found), {
        cacheControl: cacheControlFor(current.catalogue, maxAge, clock()),
        state: current.catalogue.state,
      });
    },
  );

  app.get(
    '/artists/:slug',
    {
      config: { editor: true, public: true },
      schema: { params: routeSchemas.playedArtistParams, response: { 200: routeSchemas.playedArtist, ...error } },
    },
    async (request, reply) => {
      const { slug } = request.params;
      // Anything that cannot be a slug (markup, control characters, a long text) is unknown without a look.
      if (slug.length > PLAYED_ARTIST_SLUG_MAX || !PLAYED_ARTIST_SLUG.test(slug)) throw notFound();
      const current = await app.playedArtists.get();
      const artist = current.value.find(slug);
      if (artist === undefined) throw notFound();
      return reply.representation(`artist|${current.key}|${slug}`, () => reply.serialized(artist), {
        cacheControl: cacheControlFor(current.catalogue, maxAge, clock()),
        state: current.catalogue.state,
      });
    },
  );
  done();
};

export default playedArtists;
