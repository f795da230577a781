/** The XSRF rule (docs/api.md), shared by every part that calls /api. */

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

export function readCookie(name: string, cookie: string = globalThis.document.cookie): string | null {
  for (const part of cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/**
 * Adds X-XSRF-TOKEN (from the XSRF-TOKEN cookie) to non-GET requests for this site's own origin,
 * i.e. the requests the app makes to relative URLs. Other origins never see the token.
 */
export function withXsrf(request: Request, origin: string = globalThis.location.origin): Request {
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') return request;
  if (new URL(request.url).origin !== origin) return request;
  const token = readCookie(XSRF_COOKIE);
  if (token === null || request.headers.has(XSRF_HEADER)) return request;
  const headers = new Headers(request.headers);
  headers.set(XSRF_HEADER, token);
  return new Request(request, { headers });
}
