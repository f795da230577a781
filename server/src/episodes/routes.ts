import type { FastifyPluginCallback } from 'fastify';
import { isSlug } from '@collectif/shared/addresses';
import { catalogueVersion, cleanQuery } from './catalogue';
import { ApiHttpError } from '../http/errors';
import { cacheControlFor } from '../upstream/cache';
import type { ValibotJsonTypeProvider } from '../api/schemas/provider';
import { routeSchemas } from '../api/schemas/routes';

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
    {
      config: { editor: true, public: true },
      schema: { querystring: routeSchemas.episodesQuery, response: { 200: routeSchemas.episodes, ...error } },
    },
    async (request, reply) => {
      const { q, style = '', residence = '', page = 1 } = request.query;
      // The played artists' index holds the catalogue it was made with (docs/artists.md).
      const artists = await app.playedArtists.get();
      const catalogue = artists.catalogue;
      const text = cleanQuery(q);
      const key = JSON.stringify(['episodes', artists.key, text, style.trim(), residence.trim(), page]);
      return reply.representation(
        key,
        () => {
          const found = catalogue.value.query({ q: text, style, residence, page });
          // A search's first page also names the artists' pages it finds (docs/artists.md, « Search »).
          const named = page === 1 && style.trim() === '' && residence.trim() === '' ? artists.value.search(text) : [];
          return reply.serialized(named.length === 0 ? found : { ...found, artists: named });
        },
        { cacheControl: cacheControlFor(catalogue, config.ttlMs.feed, clock()), state: catalogue.state },
      );
    },
  );

  app.get(
    '/episodes/:slug',
    {
      config: { editor: true, public: true },
      schema: { params: routeSchemas.episodeParams, response: { 200: routeSchemas.episode, ...error } },
    },
    async (request, reply) => {
      const { slug } = request.params;
      // Anything that cannot be a slug (HTML, `../`, capitals) is unknown without a look.
      if (!isSlug(slug)) throw notFound();
      const artists = await app.playedArtists.get();
      const catalogue = artists.catalogue;
      const found = catalogue.value.detail(slug);
      if (found === undefined) throw notFound();
      // Each row links to its played artist's page (docs/artists.md).
      const episode =
        found.tracks === undefined
          ? found
          : {
              ...found,
              tracks: found.tracks.map((row) => {
                const artistSlug = artists.value.slugOf(row.artist);
                return artistSlug === undefined ? row : { ...row, artistSlug };
              }),
            };
      return reply.representation(`episode|${artists.key}|${slug}`, () => reply.serialized(episode), {
        cacheControl: cacheControlFor(catalogue, withTracklists, clock()),
        state: catalogue.state,
      });
    },
  );

  // An episode's tracklist as Podcast Index JSON chapters (docs/tracklists.md, « Chapters »), named
  // by the show's feed in `<podcast:chapters>`.
  app.get(
    '/episodes/:slug/chapters.json',
    {
      config: { editor: true, public: true },
      schema: { params: routeSchemas.episodeParams, response: { 200: routeSchemas.chapters, ...error } },
    },
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
