import fp from 'fastify-plugin';
import type { FastifyPluginCallback } from 'fastify';
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import { ApiHttpError } from '../../http/errors';
import { siteOnlyCheck } from '../http/site-only';
import { SAFE_METHODS, xsrfCheck } from '../http/xsrf';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: the route takes no XSRF token and is bounded otherwise (a beacon, HelloAsso's
     * notifications, the demo's HelloAsso; docs/api.md, « XSRF »).
     */
    xsrf?: boolean;
    /**
     * true: the route is the site's own (the proposals' posts and their challenge): no CORS for other
     * origins, and a post from another site's page is refused (http/site-only.ts, docs/api.md).
     */
    siteOnly?: boolean;
  }
}

/**
 * @fastify/rate-limit's options (registered by app.ts): limits only where a route asks for one
 * (/api/track, the now-playing channel), refused with a French message.
 */
export const rateLimitOptions: RateLimitPluginOptions = {
  global: false,
  errorResponseBuilder: (_request, context) =>
    new ApiHttpError(
      429,
      'rate_limited',
      `Trop de requêtes : réessayez dans ${String(Math.max(1, Math.ceil(context.ttl / 1000)))} s.`,
    ),
};

/**
 * CORS and XSRF for every /api route (docs/api.md, « XSRF »), and the routes taken from the site's
 * own pages only (`siteOnly`). `siteOrigin`: SITE_ORIGIN, an origin those routes accept beside the
 * address the browser reached.
 */
const security: FastifyPluginCallback<{ siteOrigin?: string | null }> = (app, options, done) => {
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.siteOnly === true) {
      // No CORS: another site's page can neither read a challenge nor post a proposal.
      siteOnlyCheck(request, options.siteOrigin ?? null);
    } else {
      // Partner sites embedding the player call the API from their own origin.
      reply.header('Access-Control-Allow-Origin', '*');
      reply.header('Access-Control-Expose-Headers', 'ETag, X-Cache');
    }
    // A read takes no token and gets no cookie; a route that says `xsrf: false` is bounded otherwise
    // (HelloAsso's notifications, docs/support.md).
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config.xsrf === false) return;
    xsrfCheck(request);
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    // A response that sets a cookie (GET /api/xsrf's, an editor's session, a donor's) must not be
    // stored by a shared cache.
    const cacheControl = reply.getHeader('cache-control');
    if (reply.hasHeader('set-cookie') && typeof cacheControl === 'string' && cacheControl.startsWith('public')) {
      reply.header('Cache-Control', cacheControl.replace(/^public/, 'private'));
    }
    return payload;
  });
  done();
};

export const securityPlugin = fp(security, { name: 'security', dependencies: ['@fastify/rate-limit'] });
