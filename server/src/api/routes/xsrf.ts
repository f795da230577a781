import type { FastifyPluginCallback } from 'fastify';
import { XSRF_PATH } from '@collectif/shared';
import { issueXsrfCookie } from '../http/xsrf';

/**
 * GET /api/xsrf (docs/api.md, « XSRF »): 204 and a fresh XSRF cookie, never stored by any cache.
 * The site's own client asks it before its first write when the browser has no cookie yet, and
 * again when a write was refused for XSRF. Fresh even when the browser sent one, so that a cookie
 * the browser keeps twice or one that changed meanwhile is replaced.
 */
const xsrf: FastifyPluginCallback = (app, _options, done) => {
  app.get(XSRF_PATH, { config: { editor: true, public: true } }, async (request, reply) => {
    // The security hook has already given one to a browser that had none.
    if (!reply.hasHeader('set-cookie')) issueXsrfCookie(request, reply);
    return reply.code(204).header('Cache-Control', 'no-store').send();
  });
  done();
};

export default xsrf;
