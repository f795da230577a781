import type { FastifyInstance } from 'fastify';
import type { ApiAnswer } from './renderer';

/**
 * A renderer's /api requests, answered in-process (app.inject) exactly as to an anonymous visitor:
 * a GET of the site's /api, no cookie, no credential, no header of the renderer's (its code is a
 * part's: docs/rendering.md, « Renderers »). Any other address is refused (403).
 */
export function visitorApi(app: FastifyInstance) {
  return async (href: string): Promise<ApiAnswer> => {
    const url = new URL(href);
    if (!url.pathname.startsWith('/api/')) {
      return { status: 403, headers: {}, body: new TextEncoder().encode('{"error":"api"}') };
    }
    const answer = await app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { accept: 'application/json' },
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (typeof value === 'string') headers[name] = value;
    }
    return { status: answer.statusCode, headers, body: new Uint8Array(answer.rawPayload) };
  };
}
