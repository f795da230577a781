import type { FastifyReply } from 'fastify';
import type { ApiHttpError } from '../../http/errors';

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
