import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiHttpError } from '../errors';
import type { Cached } from '../upstream/cache';

/** A response body ready to send, with its validator. */
export interface Representation {
  body: string;
  etag: string;
}

/** Weak: the bytes differ once compressed, the content does not. */
export function etagOf(body: string): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Whether an If-None-Match header names this ETag (weak comparison, as for GET). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/**
 * Bodies derived from a cached value, memoised on the value's version and the request's options:
 * a warm /api/podcasts?limit=8 costs a map lookup, not a filter, a JSON.stringify and a hash.
 * Bounded, since the options come from visitors.
 */
export class RepresentationMemo {
  private readonly entries = new Map<string, Representation>();

  constructor(private readonly maxEntries = 256) {}

  get(key: string, make: () => string): Representation {
    const known = this.entries.get(key);
    if (known !== undefined) return known;
    const body = make();
    const representation = { body, etag: etagOf(body) };
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, representation);
    return representation;
  }
}

/** Cache-Control for a value from an upstream cache: never longer than we keep it ourselves. */
export function cacheControlFor(cached: Cached<unknown>, maxAgeMs: number, now = Date.now()): string {
  if (cached.state === 'stale') return 'public, max-age=0, must-revalidate';
  const remaining = Math.min(cached.expiresAt - now, maxAgeMs);
  return `public, max-age=${String(Math.max(0, Math.floor(remaining / 1000)))}`;
}

const X_CACHE = { hit: 'HIT', miss: 'MISS', stale: 'STALE' } as const;

/** Sends a representation with its validators, or 304 when the client already has it. */
export function sendRepresentation(
  request: FastifyRequest,
  reply: FastifyReply,
  representation: Representation,
  options: { type: string; cacheControl: string; state?: Cached<unknown>['state'] },
): FastifyReply {
  reply.header('Cache-Control', options.cacheControl).header('ETag', representation.etag);
  if (options.state !== undefined) reply.header('X-Cache', X_CACHE[options.state]);
  if (matchesEtag(request.headers['if-none-match'], representation.etag)) return reply.code(304).send();
  return reply.type(options.type).send(representation.body);
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
