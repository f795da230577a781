import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { azuracastListeners } from '../upstream/azuracast';
import { createFigures, type Figures, type OnAir, type Visitor } from './figures';
import { figuresFiles } from './files';
import { icecastListeners } from './sources';
import { memoryTally, sharedTally } from './tally';
import { connectVolatile } from '../instances/shared-state';
import { residenceSlots } from '../schedule/slots';

declare module 'fastify' {
  interface FastifyInstance {
    /** The audience figures (docs/figures.md). */
    figures: Figures;
  }
}

/** Who sent a request, for the figures only: never kept (docs/figures.md, « How »). */
export function visitorOf(request: FastifyRequest): Visitor {
  const agent = request.headers['user-agent'];
  return {
    address: request.ip,
    userAgent: typeof agent === 'string' ? agent.slice(0, 512) : '',
    objects: request.headers['sec-gpc'] === '1',
  };
}

/** What is on air: the schedule's slot at that instant, read through the site's own /api/schedule. */
function onAirFrom(app: FastifyInstance): OnAir {
  let known: { minute: number; residence: string | null } | null = null;
  return async (at) => {
    const minute = Math.floor(at / 60_000);
    if (known?.minute === minute) return known.residence;
    const slots = await residenceSlots(app, at - 60_000, at + 60_000).catch(() => []);
    const residence = slots.find((slot) => slot.start <= at && at < slot.end)?.residence ?? null;
    known = { minute, residence };
    return residence;
  };
}

/**
 * The figures' service (docs/figures.md): decorates `figures`, counts the timeline's listeners from
 * the requests for its playlists (under `npm start`; behind nginx, its mirror asks
 * GET /api/figures/timeline), and samples the live once a period (FIGURES_SAMPLE_SECONDS) once the server listens.
 */
export const figuresPlugin = fp(
  (app: FastifyInstance, _options: unknown, done: (error?: Error) => void) => {
    const config = app.apiConfig;
    // What names a visitor goes only to a Redis that keeps nothing on disk (FIGURES_REDIS_URL),
    // while it says so; otherwise this process keeps it. The day's totals go to the instances' Redis.
    const volatile = config.figures.redisUrl === null ? null : connectVolatile(config.figures.redisUrl, app.log);
    if (volatile === null && app.shared !== null) {
      app.log.warn(
        'FIGURES_REDIS_URL absent : chaque instance compte seule ses visiteurs (le sel du jour ne va jamais dans le Redis de REDIS_URL, qui écrit sur disque)',
      );
    }
    const tally = sharedTally({ visitors: volatile, totals: app.shared }, memoryTally(app.clock));
    const { renditions } = config.radio;
    // The recorder listens to each rendition while the timeline is kept (docs/timeshift.md).
    const recorded = config.timeshift.hours > 0;
    const mounts = renditions.flatMap((rendition) => {
      try {
        return [new URL(rendition.url, 'http://site.invalid').pathname];
      } catch {
        return [];
      }
    });
    const azuracast = config.azuracast === null ? undefined : azuracastListeners(config.azuracast, config.upstream);
    const figures = createFigures({
      tally,
      files: figuresFiles(config.figures.dir ?? join(config.contentDir, 'audience')),
      clock: app.clock,
      sampleMs: config.figures.sampleMs,
      sources: {
        ...(azuracast === undefined
          ? {}
          : {
              azuracast: async () => {
                const count = await azuracast();
                return count === undefined ? undefined : Math.max(0, count - (recorded ? renditions.length : 0));
              },
            }),
        ...(config.figures.icecast === null
          ? {}
          : { icecast: icecastListeners(config.figures.icecast, config.upstream, { mounts, recorded }) }),
      },
      onAir: onAirFrom(app),
      episodeExists: async (slug) => (await app.sources.episodes.get()).value.find(slug) !== undefined,
      showListeners: () => {
        try {
          const data = app.content.current('figures').data as { showListeners?: unknown };
          return data.showListeners === true;
        } catch {
          return false;
        }
      },
      counted: (what) => {
        app.metrics.figures.counted.inc({ what });
      },
      sampled: ({ sources, total }) => {
        for (const [source, value] of Object.entries(sources)) app.metrics.figures.live.set({ source }, value);
        app.metrics.figures.live.set({ source: 'total' }, total);
      },
      warn: (message) => {
        app.log.warn(message);
      },
    });
    app.decorate('figures', figures);

    // The timeline's playlists: each request says its listener is there (the segments are not
    // counted: a playlist is asked for every segment anyway, and is small). Hooked on /direct/'s
    // routes alone, as they are registered: no other request, a page's least of all, runs it.
    const counted = async (request: FastifyRequest) => {
      const path = request.url.split('?', 1)[0] ?? '';
      if (path.endsWith('.m3u8')) await figures.timeline(visitorOf(request)).catch(() => undefined);
    };
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!route.url.startsWith('/direct/') || !methods.includes('GET')) return;
      const own =
        route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
      route.onRequest = [...own, counted];
    });
    app.addHook('onListen', (ready) => {
      if (config.figures.sampling) figures.start();
      ready();
    });
    app.addHook('onClose', async () => {
      await figures.close();
      await volatile?.close();
    });
    done();
  },
  { name: 'figures', dependencies: ['sources'] },
);
