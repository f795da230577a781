import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import * as v from 'valibot';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { PodcastItem, Release } from '@collectif/shared';
import { RADIO_SETTINGS_PATH } from '@collectif/shared/config';
import { latest, podcastsByName } from '@collectif/shared/feed';
import { DemoAudio } from './demo/audio';
import type { LiveOptions } from './demo/live';
import type { ApiConfig } from './env';
import { ApiHttpError, UpstreamError, upstreamErrorReply } from './errors';
import { RepresentationMemo, cacheControlFor, sendError, sendRepresentation, type Representation } from './http/reply';
import { NowPlayingHub } from './http/sse';
import { validationMessage } from './http/validation';
import { xsrfCheck } from './http/xsrf';
import { createSources, type Sources } from './sources';
import { type ValibotJsonTypeProvider } from './schemas/provider';
import { releasesContent } from './schemas/releases';
import { routeSchemas } from './schemas/routes';
import { UNKNOWN } from './upstream/azuracast';
import { TRACK_URN } from './upstream/soundcloud';

export { readApiConfig, type ApiConfig } from './env';

/** Options for tests and the benchmark; production passes only `config`. */
export interface ApiPluginOptions {
  config: ApiConfig;
  prefix?: string;
  /** The clock (demo rotation, caches, the live stream's position). */
  now?: () => number;
  /** Day the demo feed counts back from (default: today). */
  demoAnchor?: Date;
  live?: Partial<LiveOptions>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const RSS_TYPE = 'application/rss+xml; charset=utf-8';

/** The label's releases (server/content/releases.json, schema-checked at build and test time). */
export function loadReleases(file: string): Release[] {
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!v.is(releasesContent, data)) throw new Error(`${file} : liste de sorties invalide (voir releases.schema.json)`);
  return data;
}

/**
 * An answer's body as Fastify serialises it with the route's 200 schema (fast-json-stringify): only
 * the defined fields, in their order. Done once per representation, which then carries its ETag.
 */
function serialized(reply: FastifyReply, value: object): string {
  return reply.serializeInput(value as Record<string, unknown>, '200') as string;
}

/** Headers of a response written by hand (streams): everything hooks set so far, plus the stream's. */
function rawHeaders(reply: FastifyReply, extra: Record<string, string>): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value : String(value);
  }
  return { ...headers, ...extra };
}

const routes: FastifyPluginAsync<ApiPluginOptions> = async (instance: FastifyInstance, options) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const errorSchema = routeSchemas.error;
  const { config } = options;
  const now = options.now ?? Date.now;
  const releases = loadReleases(config.releasesFile);
  const sources: Sources = createSources(config, {
    releases,
    now,
    ...(options.demoAnchor === undefined ? {} : { anchor: options.demoAnchor }),
  });
  const audio = new DemoAudio(config.demo.audioDir, {
    maxListeners: config.limits.liveListeners,
    now,
    ...options.live,
  });
  if (config.demo.generateAudio && !audio.isComplete()) {
    app.log.info('Audio de démonstration absent : génération en arrière-plan');
    void audio.generate().then((done) => {
      if (!done) app.log.warn('La génération de l’audio de démonstration a échoué (npm run build)');
    });
  }
  const hub = new NowPlayingHub(async () => (await sources.nowPlaying.get()).value, {
    pollMs: config.azuracast === null ? Math.min(config.ttlMs.nowPlaying, 5000) : config.ttlMs.nowPlaying,
    pingMs: config.ssePingMs,
    maxPerClient: config.limits.sseConnectionsPerClient,
    fallback: { artist: UNKNOWN, title: UNKNOWN },
  });
  const memo = new RepresentationMemo();
  // Build the demo feed now (it reads the residences) so the first visitor does not wait for it.
  if (config.rss === null) await sources.feed.get();

  app.addHook('preClose', async () => {
    hub.close();
    audio.close();
    await sources.close();
  });

  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: 'rate_limited',
      message: `Trop de requêtes : réessayez dans ${String(Math.max(1, Math.ceil(context.ttl / 1000)))} s.`,
    }),
  });

  app.addHook('onRequest', async (request, reply) => {
    // Partner sites embedding the player call the API from their own origin.
    reply.header('Access-Control-Allow-Origin', '*');
    reply.header('Access-Control-Expose-Headers', 'ETag, X-Cache');
    xsrfCheck(request, reply);
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    // A response that sets the visitor's XSRF cookie must not be stored by a shared cache.
    const cacheControl = reply.getHeader('cache-control');
    if (reply.hasHeader('set-cookie') && typeof cacheControl === 'string' && cacheControl.startsWith('public')) {
      reply.header('Cache-Control', cacheControl.replace(/^public/, 'private'));
    }
    return payload;
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof ApiHttpError) return sendError(reply, error);
    if (error instanceof UpstreamError) return sendError(reply, upstreamErrorReply(error));
    const fields = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
    if (fields.statusCode === 429) {
      const message = typeof fields.message === 'string' ? fields.message : 'Trop de requêtes.';
      return sendError(reply, new ApiHttpError(429, 'rate_limited', message));
    }
    if (Array.isArray(fields.validation)) {
      const context = typeof fields.validationContext === 'string' ? fields.validationContext : 'requête';
      return sendError(reply, new ApiHttpError(400, 'bad_request', validationMessage(fields.validation, context)));
    }
    if (typeof fields.statusCode === 'number' && fields.statusCode >= 400 && fields.statusCode < 500) {
      return sendError(reply, new ApiHttpError(fields.statusCode, 'bad_request', 'Requête invalide.'));
    }
    request.log.error(error);
    return sendError(reply, new ApiHttpError(500, 'internal', 'Erreur interne du serveur. Réessayez plus tard.'));
  });

  const sendJson = (
    request: FastifyRequest,
    reply: FastifyReply,
    representation: Representation,
    cacheControl: string,
    state?: 'hit' | 'miss' | 'stale',
  ) =>
    sendRepresentation(request, reply, representation, {
      type: JSON_TYPE,
      cacheControl,
      ...(state === undefined ? {} : { state }),
    });

  app.get(
    '/soundcloud-rss',
    { schema: { response: { 200: { type: 'string' }, '5xx': errorSchema } } },
    async (request, reply) => {
      const feed = await sources.feed.get();
      const representation = memo.get(`rss|${String(feed.version)}`, () => feed.value.xml);
      return sendRepresentation(request, reply, representation, {
        type: RSS_TYPE,
        cacheControl: cacheControlFor(feed, config.ttlMs.feed, now()),
        state: feed.state,
      });
    },
  );

  app.get(
    '/podcasts',
    {
      schema: {
        querystring: routeSchemas.podcastsQuery,
        response: { 200: routeSchemas.podcasts, '4xx': errorSchema, '5xx': errorSchema },
      },
    },
    async (request, reply) => {
      const { limit, q } = request.query;
      const feed = await sources.feed.get();
      const name = q?.trim() ?? '';
      const representation = memo.get(`podcasts|${String(feed.version)}|${String(limit)}|${name}`, () => {
        const found: PodcastItem[] = name === '' ? feed.value.podcasts : podcastsByName(feed.value.podcasts, name);
        return serialized(reply, latest(found, limit));
      });
      return sendJson(request, reply, representation, cacheControlFor(feed, config.ttlMs.feed, now()), feed.state);
    },
  );

  app.get(
    '/releases',
    {
      schema: {
        querystring: routeSchemas.releasesQuery,
        response: { 200: routeSchemas.releases, '4xx': errorSchema },
      },
    },
    async (request, reply) => {
      const { limit } = request.query;
      const representation = memo.get(`releases|${String(limit)}`, () => serialized(reply, latest(releases, limit)));
      return sendJson(request, reply, representation, 'public, max-age=300');
    },
  );

  // The radio's settings for the player on partner sites (the site's pages carry them inline).
  // They change only with a restart; a minute of caching lets a move of the stream reach them soon.
  app.get(RADIO_SETTINGS_PATH, { schema: { response: { 200: routeSchemas.radio } } }, async (request, reply) =>
    sendJson(
      request,
      reply,
      memo.get('radio', () => serialized(reply, config.radio)),
      'public, max-age=60',
    ),
  );

  app.get(
    '/islive',
    {
      schema: { response: { 200: routeSchemas.live, '5xx': errorSchema } },
    },
    async (request, reply) => {
      const live = await sources.live.get();
      const representation = memo.get(`live|${String(live.version)}|${String(live.value)}`, () =>
        serialized(reply, { live: live.value }),
      );
      return sendJson(request, reply, representation, cacheControlFor(live, config.ttlMs.live, now()), live.state);
    },
  );

  app.get(
    '/nowplaying',
    { schema: { response: { 200: routeSchemas.nowPlaying, '5xx': errorSchema } } },
    async (request, reply) => {
      const playing = await sources.nowPlaying.get();
      const body = serialized(reply, playing.value);
      const representation = memo.get(`nowplaying|${body}`, () => body);
      return sendJson(
        request,
        reply,
        representation,
        cacheControlFor(playing, config.ttlMs.nowPlaying, now()),
        playing.state,
      );
    },
  );

  app.get(
    '/nowplaying/events',
    {
      config: { rateLimit: { max: config.limits.ssePerMinute, timeWindow: 60_000 } },
      schema: { response: { '4xx': errorSchema } },
    },
    async (request, reply) => {
      if (!hub.accepts(request.ip)) {
        throw new ApiHttpError(429, 'too_many_streams', 'Trop de connexions ouvertes depuis votre adresse.');
      }
      reply.hijack();
      reply.raw.writeHead(
        200,
        rawHeaders(reply, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          'x-accel-buffering': 'no',
          connection: 'keep-alive',
        }),
      );
      if (request.method === 'HEAD') {
        reply.raw.end();
        return;
      }
      await hub.attach(reply.raw, request.ip);
    },
  );

  app.get(
    '/track/:trackUrn',
    {
      config: { rateLimit: { max: config.limits.trackPerMinute, timeWindow: 60_000 } },
      schema: {
        params: routeSchemas.trackParams,
        response: { 200: { type: 'string' }, '4xx': errorSchema, '5xx': errorSchema },
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
      const representation = memo.get(
        `track|${trackUrn}|${String(stream.version)}|${stream.value}`,
        () => stream.value,
      );
      return sendRepresentation(request, reply, representation, {
        type: 'text/plain; charset=utf-8',
        cacheControl: cacheControlFor(stream, Math.min(config.ttlMs.track, 60_000), now()),
        state: stream.state,
      });
    },
  );

  app.get('/demo/live.mp3', async (request, reply) => {
    const live = audio.liveBroadcast();
    if (live === undefined) {
      throw new ApiHttpError(
        503,
        'demo_audio_missing',
        'Le direct de démonstration n’est pas prêt : lancez « npm run build ».',
      );
    }
    if (live.isFull())
      throw new ApiHttpError(503, 'too_many_listeners', 'Trop d’auditeurs sur le direct de démonstration.');
    reply.hijack();
    // Like an Icecast mount: no length, no range, no caching; the stream never ends.
    reply.raw.writeHead(
      200,
      rawHeaders(reply, {
        'content-type': 'audio/mpeg',
        'cache-control': 'no-cache, no-store',
        'accept-ranges': 'none',
        'icy-name': 'Démo du direct',
        'x-content-type-options': 'nosniff',
      }),
    );
    if (request.method === 'HEAD') {
      reply.raw.end();
      return;
    }
    live.attach(reply.raw);
  });

  await app.register(fastifyStatic, {
    root: audio.replaysDir,
    prefix: '/demo/replays/',
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    cacheControl: false,
    allowedPath: (path) => /^\/[a-z0-9-]+\.mp3$/.test(path),
    setHeaders: (res) => {
      res.setHeader('Cache-Control', 'public, max-age=86400');
    },
  });

  if (config.adminToken !== null) {
    const adminToken = config.adminToken;
    app.post(
      '/admin/live',
      {
        schema: {
          headers: routeSchemas.adminHeaders,
          body: routeSchemas.adminLive,
          response: { 200: routeSchemas.live, '4xx': errorSchema },
        },
      },
      async (request, reply) => {
        const digest = (text: string) => createHash('sha256').update(text).digest();
        const given = request.headers.authorization ?? '';
        if (!timingSafeEqual(digest(given), digest(`Bearer ${adminToken}`))) {
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
  }
};

/**
 * The site's /api (see the README, "API"): the upstream adapters with their caches, the embedded
 * demo, and the security rules (XSRF, rate limits). Registered once by app.ts under /api.
 */
const api: FastifyPluginAsync<ApiPluginOptions> = async (app, options) => {
  await app.register(routes, { ...options, prefix: options.prefix ?? '/api' });
};

export const apiPlugin = fp(api, { name: 'api' });
