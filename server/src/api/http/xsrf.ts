import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { XSRF_COOKIE, XSRF_HEADER, readCookie } from '@collectif/shared';
import { ApiHttpError } from '../errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The server half of the XSRF rule (docs/api.md; double-submit cookie): safe requests get an
 * XSRF-TOKEN cookie when they have none; any other request must echo that cookie in X-XSRF-TOKEN.
 * A page on another site can neither read the cookie nor send the header without our consent.
 */
export function xsrfCheck(request: FastifyRequest, reply: FastifyReply): void {
  const cookie = readCookie(XSRF_COOKIE, request.headers.cookie ?? '');
  if (SAFE_METHODS.has(request.method)) {
    if (cookie === null || cookie === '') {
      const secure = request.protocol === 'https' ? '; Secure' : '';
      const token = randomBytes(24).toString('base64url');
      reply.header('Set-Cookie', `${XSRF_COOKIE}=${token}; Path=/; SameSite=Strict${secure}`);
    }
    return;
  }
  const header = request.headers[XSRF_HEADER.toLowerCase()];
  if (cookie === null || cookie === '' || typeof header !== 'string' || !same(header, cookie)) {
    throw new ApiHttpError(403, 'xsrf', 'Jeton XSRF absent ou invalide : rechargez la page puis réessayez.');
  }
}
