import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Conditional GET, written once for every answer that carries a validator: the /api answers (the
 * representations plugin), the site's feeds, sitemap, robots.txt and manifest (through that plugin),
 * the rendered pages (site/render/answer.ts) and the timeline's files (timeshift/plugin.ts).
 */

/** Weak: the bytes differ once compressed, the content does not. */
export function etagOf(body: string | Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Whether an If-None-Match header names this ETag (weak comparison, as for GET; lists and `*` understood). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/** What a 200 and its 304 both carry. */
export interface Validators {
  /** The body's ETag (etagOf). */
  etag: string;
  /** Its Cache-Control, when the caller has not set it already. */
  cacheControl?: string;
  /** Other headers written on both answers (`X-Cache`). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * Writes the validators and cache headers; when the request's If-None-Match names the ETag, answers
 * 304 without a body and returns true. Otherwise returns false: the caller sends the body.
 */
export function answeredNotModified(
  request: FastifyRequest,
  reply: FastifyReply,
  { etag, cacheControl, headers = {} }: Validators,
): boolean {
  if (cacheControl !== undefined) reply.header('Cache-Control', cacheControl);
  reply.header('ETag', etag);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  if (!matchesEtag(request.headers['if-none-match'], etag)) return false;
  void reply.code(304).send();
  return true;
}

/**
 * Answers 304 when the client has the body, else the body: a string or buffer sent with `type`, or
 * what `send` writes (a status, an encoding of its own).
 */
export function sendConditional(
  request: FastifyRequest,
  reply: FastifyReply,
  validators: Validators,
  body: { type: string; body: string | Buffer } | (() => FastifyReply),
): FastifyReply {
  if (answeredNotModified(request, reply, validators)) return reply;
  return typeof body === 'function' ? body() : reply.type(body.type).send(body.body);
}
