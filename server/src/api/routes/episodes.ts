import type { FastifyPluginCallback } from 'fastify';
import { isSlug } from '@collectif/shared/addresses';
import { catalogueVersion, cleanQuery } from '../episodes/catalogue';
import { ApiHttpError } from '../errors';
import { cacheControlFor } from '../http/reply';
import type { ValibotJsonTypeProvider } from '../schemas/provider';
import { routeSchemas } from '../schemas/routes';

/** The type of the Podcast Index JSON chapters, as the feed's `<podcast:chapters>` says it. */
export const CHAPTERS_TYPE = 'application/json+chapters';
/** How long a browser keeps an answer holding a tracklist before it revalidates. */
const TRACKLIST_MAX_AGE_MS = 60_000;

const notFound = () =>
  new ApiHttpError(404, 'episode_not_found', 'Cette émission n’existe pas ou n’est plus dans le flux.');

/**
 * The archive (docs/episodes.md): GET /api/episodes?q=&style=&residence=&page= (one page of a
 * search), GET /api/episodes/:slug (one episode), GET /api/styles (the styles and their counts).
 */
const episodes: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { sources, apiConfig: config, clock } = app;
  const error = { '4xx': routeSchemas.error, '5xx': routeSchemas.error };
  // Answers that hold tracklists' words change with the feed and with a tracklist's save (catalogueVersion).
  // A resident's correction of a tracklist reaches a browser within a minute (then its ETag).
  const withTracklists = Math.min(config.ttlMs.feed, TRACKLIST_MAX_AGE_MS);

  app.get(
    '/episodes',
    { schema: { querystring: routeSchemas.episodesQuery, response: { 200: routeSchemas.episodes, ...error } } },
    async (request, reply) => {
      const { q, style = '', residence = '', page = 1 } = request.query;
      const catalogue = await sources.episodes.get();
      const text = cleanQuery(q);
      const key = JSON.stringify(['episodes', catalogueVersion(catalogue), text, style.trim(), residence.trim(), page]);
      return reply.representation(
        key,
        () => {
          const found = catalogue.value.query({ q: text, style, residence, page });
          return reply.serialized(found);
        },
        { cacheControl: cacheControlFor(catalogue, config.ttlMs.feed, clock()), state: catalogue.state },
      );
    },
  );

  app.get(
    '/episodes/:slug',
    { schema: { params: routeSchemas.episodeParams, response: { 200: routeSchemas.episode, ...error } } },
    async (request, reply) => {
      const { slug } = request.params;
      // Anything that cannot be a slug (HTML, `../`, capitals) is unknown without a look.
      if (!isSlug(slug)) throw notFound();
      const catalogue = await sources.episodes.get();
      const episode = catalogue.value.detail(slug);
      if (episode === undefined) throw notFound();
      return reply.representation(`episode|${catalogueVersion(catalogue)}|${slug}`, () => reply.serialized(episode), {
        cacheControl: cacheControlFor(catalogue, withTracklists, clock()),
        state: catalogue.state,
      });
    },
  );

  // An episode's tracklist as Podcast Index JSON chapters (docs/tracklists.md, « Chapters »), named
  // by the show's feed in `<podcast:chapters>`.
  app.get(
    '/episodes/:slug/chapters.json',
    { schema: { params: routeSchemas.episodeParams, response: { 200: routeSchemas.chapters, ...error } } },
    async (request, reply) => {
      const { slug } = request.params;
      if (!isSlug(slug)) throw notFound();
      const catalogue = await sources.episodes.get();
      if (catalogue.value.find(slug) === undefined) throw notFound();
      const chapters = catalogue.value.chapters(slug);
      if (chapters === undefined) {
        throw new ApiHttpError(404, 'chapters_not_found', 'Cette émission n’a pas de liste de titres.');
      }
      return reply.representation(`chapters|${catalogueVersion(catalogue)}|${slug}`, () => reply.serialized(chapters), {
        type: CHAPTERS_TYPE,
        cacheControl: cacheControlFor(catalogue, withTracklists, clock()),
        state: catalogue.state,
      });
    },
  );

  app.get('/styles', { schema: { response: { 200: routeSchemas.styles, ...error } } }, async (_request, reply) => {
    const catalogue = await sources.episodes.get();
    return reply.representation(`styles|${String(catalogue.version)}`, () => reply.serialized(catalogue.value.styles), {
      cacheControl: cacheControlFor(catalogue, config.ttlMs.feed, clock()),
      state: catalogue.state,
    });
  });
  done();
};

export default episodes;
