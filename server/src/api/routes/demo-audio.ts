import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DemoAudio, type DemoMount } from '../demo/audio';
import { ApiHttpError } from '../../http/errors';
import { rawHeaders } from '../http/reply';

/**
 * Demo only: the synthesised live stream's two mounts (GET /api/demo/live.mp3 at 128 kb/s, and
 * GET /api/demo/live-econome.mp3 at 48 kb/s, the light one) and the replays of the demo feed
 * (GET /api/demo/replays/<name>.mp3, with byte ranges). Generated at start-up when missing.
 */
const demoAudio: FastifyPluginAsync = async (app) => {
  const { apiConfig: config, clock } = app;
  const audio = new DemoAudio(config.demo.audioDir, { maxListeners: config.limits.liveListeners, now: clock });
  if (config.demo.generateAudio && !audio.isComplete()) {
    app.log.info('Audio de démonstration absent : génération en arrière-plan');
    void audio.generate().then((done) => {
      if (!done) app.log.warn('La génération de l’audio de démonstration a échoué (npm run build)');
    });
  }
  app.addHook('preClose', (done) => {
    audio.close();
    done();
  });

  /** A live mount, served like an Icecast mount; both on the same clock, at the same point of the loop. */
  const serveLive = (mount: DemoMount, name: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const live = audio.liveBroadcast(mount);
    if (live === undefined) {
      throw new ApiHttpError(
        503,
        'demo_audio_missing',
        'Le direct de démonstration n’est pas prêt : lancez « npm run build ».',
      );
    }
    if (audio.isLiveFull())
      throw new ApiHttpError(503, 'too_many_listeners', 'Trop d’auditeurs sur le direct de démonstration.');
    reply.hijack();
    // Like an Icecast mount: no length, no range, no caching; the stream never ends.
    reply.raw.writeHead(
      200,
      rawHeaders(reply, {
        'content-type': 'audio/mpeg',
        'cache-control': 'no-cache, no-store',
        'accept-ranges': 'none',
        'icy-name': name,
        'x-content-type-options': 'nosniff',
      }),
    );
    if (request.method === 'HEAD') {
      reply.raw.end();
      return;
    }
    live.attach(reply.raw);
  };
  app.get('/demo/live.mp3', serveLive('normale', 'Démo du direct'));
  app.get('/demo/live-econome.mp3', serveLive('econome', 'Démo du direct (économe)'));

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
};

export default demoAudio;
