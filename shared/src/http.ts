/** The XSRF rule (docs/api.md), shared by every part that calls /api. */

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

/**
 * The XSRF cookie's name: over https `__Host-XSRF-TOKEN`, which a browser keeps only if it is
 * Secure, for `/` and without a Domain, so that no sibling host (the public site's, for the editor's
 * origin) can set or shadow it; over http (a site on this machine) the plain name.
 */
export function xsrfCookieName(secure: boolean): string {
  return secure ? `__Host-${XSRF_COOKIE}` : XSRF_COOKIE;
}

/** The XSRF cookie's name for this page's origin. */
const ownXsrfCookie = (): string => xsrfCookieName(globalThis.location.protocol === 'https:');

export function readCookie(name: string, cookie: string = globalThis.document.cookie): string | null {
  for (const part of cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** A request that must carry the token: not a read, and to this site's own origin. */
function isWrite(request: Request, origin: string): boolean {
  const method = request.method.toUpperCase();
  return method !== 'GET' && method !== 'HEAD' && new URL(request.url).origin === origin;
}

/**
 * Adds X-XSRF-TOKEN (from the XSRF-TOKEN cookie) to non-GET requests for this site's own origin,
 * i.e. the requests the app makes to relative URLs. Other origins never see the token.
 */
export function withXsrf(request: Request, origin: string = globalThis.location.origin): Request {
  if (!isWrite(request, origin)) return request;
  const token = readCookie(ownXsrfCookie());
  if (token === null || request.headers.has(XSRF_HEADER)) return request;
  const headers = new Headers(request.headers);
  headers.set(XSRF_HEADER, token);
  return new Request(request, { headers });
}

/** Where, under the API's base, the site's own client asks for an XSRF cookie (docs/api.md, « XSRF »). */
export const XSRF_PATH = '/xsrf';

/** Whether an answer is the server's refusal for a missing or wrong XSRF token (403 `xsrf`). */
async function refusedForXsrf(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: unknown } | null;
  return body?.error === 'xsrf';
}

/**
 * How the site's own client sends a request to /api (docs/api.md, « XSRF »). A write to this origin
 * carries X-XSRF-TOKEN. A browser that holds no XSRF cookie yet (a new phone, a private window that
 * opened an invitation's link) first asks `tokenUrl` (GET /api/xsrf) for one; a write refused for
 * XSRF (a cookie that changed in another tab meanwhile) gets a fresh cookie and is sent once more.
 * Anything else goes as it is. A failure to reach the site rejects, as fetch does.
 */
export async function sendWithXsrf(
  request: Request,
  tokenUrl: string,
  send: (request: Request) => Promise<Response> = (r) => fetch(r),
  origin: string = globalThis.location.origin,
): Promise<Response> {
  if (!isWrite(request, origin)) return send(request);
  const fresh = (): Promise<Response> =>
    send(new Request(new URL(tokenUrl, origin), { credentials: 'same-origin', cache: 'no-store' }));
  const again = request.clone();
  if (!readCookie(ownXsrfCookie())) await fresh();
  const response = await send(withXsrf(request, origin));
  if (!(await refusedForXsrf(response))) return response;
  await fresh();
  return send(withXsrf(again, origin));
}
