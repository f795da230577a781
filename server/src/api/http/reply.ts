import type { FastifyReply } from 'fastify';
import type { ApiHttpError } from '../../http/errors';
import type { Cached } from '../../upstream/cache';

/** Cache-Control for a value from an upstream cache: never longer than we keep it ourselves. */
export function cacheControlFor(cached: Cached<unknown>, maxAgeMs: number, now = Date.now()): string {
  if (cached.state === 'stale') return 'public, max-age=0, must-revalidate';
  const remaining = Math.min(cached.expiresAt - now, maxAgeMs);
  return `public, max-age=${String(Math.max(0, Math.floor(remaining / 1000)))}`;
}

export function sendError(reply: FastifyReply, error: ApiHttpError): FastifyReply {
  return reply
    .code(error.statusCode)
    .header('Cache-Control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(error.body());
}

/** Headers of a response written by hand (streams): everything hooks set so far, plus the stream's. */
export function rawHeaders(reply: FastifyReply, extra: Record<string, string>): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value : String(value);
  }
  return { ...headers, ...extra };
}
