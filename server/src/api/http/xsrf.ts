import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { XSRF_HEADER, readCookie, xsrfCookieName } from '@collectif/shared';
import { ApiHttpError } from '../../http/errors';

/**
 * The methods that take no token: they write nothing, and they get no cookie either (the site's
 * client asks GET /api/xsrf for one before its first write), so that their answers stay `public`.
 */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Gives the browser a new XSRF cookie: random, for the whole site, SameSite=Strict (never sent with
 * another site's request), Secure over https. Readable by this site's scripts only, which is what
 * the double submit needs; never written in a body, which any site may read through CORS.
 */
export function issueXsrfCookie(request: FastifyRequest, reply: FastifyReply): void {
  const https = request.protocol === 'https';
  const token = randomBytes(24).toString('base64url');
  reply.header('Set-Cookie', `${xsrfCookieName(https)}=${token}; Path=/; SameSite=Strict${https ? '; Secure' : ''}`);
}

/**
 * The server half of the XSRF rule (docs/api.md, « XSRF »; a double-submit cookie) for a request that
 * writes (any method but `SAFE_METHODS`): it must echo the XSRF-TOKEN cookie in X-XSRF-TOKEN. A page
 * on another site can neither read the cookie nor send the header without our consent. The site's
 * own client asks GET /api/xsrf for a cookie before a write when it has none, and once more when a
 * write is refused, so a refusal that reaches a person says what mends it: cookies allowed for the
 * site (none came back), or another try (the two differed).
 */
export function xsrfCheck(request: FastifyRequest): void {
  const cookie = readCookie(xsrfCookieName(request.protocol === 'https'), request.headers.cookie ?? '');
  if (cookie === null || cookie === '') {
    throw new ApiHttpError(
      403,
      'xsrf',
      'Jeton XSRF absent : ce navigateur n’a pas gardé le cookie du site. Autorisez les cookies de ce site, puis réessayez.',
    );
  }
  const header = request.headers[XSRF_HEADER.toLowerCase()];
  if (typeof header !== 'string' || !same(header, cookie)) {
    throw new ApiHttpError(403, 'xsrf', 'Jeton XSRF invalide : réessayez.');
  }
}
