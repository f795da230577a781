import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Registry } from 'prom-client';
import { processMetrics } from './metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request comes from this machine: its peer, not what a header says. */
function fromLoopback(request: FastifyRequest): boolean {
  const peer = request.socket.remoteAddress ?? '';
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  // A request nginx passed on comes from the loopback too: it must then carry the token.
  return !forwarded && (peer === '127.0.0.1' || peer === '::1' || peer === '::ffff:127.0.0.1');
}

/**
 * GET /metrics (docs/deploy.md, « Metrics »): Prometheus' text format, for the loopback, or with
 * the admins' token (METRICS_TOKEN) as a bearer; refused otherwise, with nothing said of what it holds.
 */
export const metricsPlugin = fp(
  (app: FastifyInstance, { token }: { token: string | null }, done: (error?: Error) => void) => {
    const process = processMetrics();
    const expected = token === null ? null : digest(`Bearer ${token}`);
    const unwatch = app.metrics.site.redisUp.watch(() =>
      app.shared === null ? [] : [{ value: app.shared.available() ? 1 : 0 }],
    );
    app.addHook('onClose', (_instance, closed) => {
      unwatch();
      closed();
    });
    app.get('/metrics', async (request, reply) => {
      const given = request.headers.authorization;
      const allowed =
        (expected !== null && typeof given === 'string' && timingSafeEqual(digest(given), expected)) ||
        (given === undefined && fromLoopback(request));
      if (!allowed) {
        return reply
          .code(403)
          .header('Cache-Control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send('Accès refusé : les métriques se lisent depuis la machine même, ou avec le jeton des admins.\n');
      }
      // The app's own metrics and the process's, in one text.
      const registry = Registry.merge([process, app.metrics.registry]);
      return reply
        .header('Cache-Control', 'no-store')
        .type(registry.contentType)
        .send(await registry.metrics());
    });
    done();
  },
  { name: 'metrics', dependencies: ['sources'] },
);
