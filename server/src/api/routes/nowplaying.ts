import type { FastifyPluginCallback } from 'fastify';
import { ApiHttpError } from '../../http/errors';
import { rawHeaders } from '../http/reply';
import { cacheControlFor } from '../../upstream/cache';
import { NowPlayingHub } from '../http/sse';
import type { ValibotJsonTypeProvider } from '../schemas/provider';
import { routeSchemas } from '../schemas/routes';
import { UNKNOWN } from '../../upstream/azuracast';

/** GET /api/nowplaying and its channel, GET /api/nowplaying/events (server-sent events). */
const nowplaying: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { sources, apiConfig: config, clock } = app;
  // « N à l'écoute » rides on the channel when an admin turned it on (docs/figures.md).
  const listening = async () => (app.hasDecorator('figures') ? app.figures.liveListeners() : undefined);
  const hub = new NowPlayingHub(
    async () => {
      const [playing, listeners] = await Promise.all([sources.nowPlaying.get(), listening()]);
      return listeners === undefined ? playing.value : { ...playing.value, listeners };
    },
    {
      pollMs: config.azuracast === null ? Math.min(config.ttlMs.nowPlaying, 5000) : config.ttlMs.nowPlaying,
      pingMs: config.ssePingMs,
      maxPerClient: config.limits.sseConnectionsPerClient,
      fallback: { artist: UNKNOWN, title: UNKNOWN },
      ...(app.shared === null ? {} : { channel: app.shared.nowPlaying }),
      // Every value read and every event heard is recorded (docs/content.md, « What the radio played »).
      observe: (data) => {
        app.played.observe(data, clock());
      },
    },
  );
  const unwatch = app.metrics.site.liveChannel.watch(() => [{ value: hub.size }]);
  app.addHook('preClose', (done) => {
    unwatch();
    hub.close();
    done();
  });

  app.get(
    '/nowplaying',
    { schema: { response: { 200: routeSchemas.nowPlaying, '5xx': routeSchemas.error } } },
    async (_request, reply) => {
      // The same as the channel's messages, « N à l'écoute » included: the player reads both into one
      // answer, and a reading without it would hide the count until the next message.
      const [playing, listeners] = await Promise.all([sources.nowPlaying.get(), listening()]);
      const body = reply.serialized(listeners === undefined ? playing.value : { ...playing.value, listeners });
      return reply.representation(`nowplaying|${body}`, () => body, {
        cacheControl: cacheControlFor(playing, config.ttlMs.nowPlaying, clock()),
        state: playing.state,
      });
    },
  );

  app.get(
    '/nowplaying/events',
    {
      config: { rateLimit: { max: config.limits.ssePerMinute, timeWindow: 60_000 } },
      schema: { response: { '4xx': routeSchemas.error } },
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
      const lastEventId = request.headers['last-event-id'];
      await hub.attach(reply.raw, request.ip, typeof lastEventId === 'string' ? lastEventId.slice(0, 64) : undefined);
    },
  );
  done();
};

export default nowplaying;
