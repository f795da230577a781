import { XSRF_PATH, apiUrl, sendWithXsrf } from '@collectif/shared';

/*
 * A write of the site's own client outside the API slice (the editor's requests, the support page's
 * intents): JSON to /api under the XSRF rule (docs/api.md, « XSRF »), never cached, and the site's
 * refusal read in its own French words. One way for every part that writes.
 */

/** What the site's own client says when the site cannot be reached. */
export const UNREACHABLE = 'Le site ne répond pas : vérifiez votre connexion, puis réessayez.';

/** An answer of /api, read: its JSON (undefined for 204), or the refusal and its French message. */
export type CallAnswer =
  | { ok: true; status: number; data: unknown }
  | { ok: false; status: number; code: string; message: string; data: unknown };

/** How a request is sent: `type`, bytes sent as they are (a picture); `send`, in place of fetch (tests). */
export interface CallOptions {
  type?: string;
  send?: (request: Request) => Promise<Response>;
}

/**
 * Sends one request to /api (`path` under the API's base), its body as JSON unless `type` says
 * otherwise; never rejects. A site out of reach is status 0 with UNREACHABLE; a refusal keeps the
 * `error` and `message` the site sent, or says its HTTP status.
 */
export async function callApi(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  { type, send }: CallOptions = {},
): Promise<CallAnswer> {
  const request = new Request(apiUrl(path), {
    method,
    credentials: 'same-origin',
    cache: 'no-store',
    ...(body === undefined
      ? {}
      : type === undefined
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
        : { headers: { 'content-type': type }, body: body as BodyInit }),
  });
  let response: Response;
  try {
    response = await sendWithXsrf(request, apiUrl(XSRF_PATH), send);
  } catch {
    return { ok: false, status: 0, code: 'network', message: UNREACHABLE, data: null };
  }
  const data: unknown = response.status === 204 ? undefined : await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, data };
  const refusal = (data ?? {}) as { error?: unknown; message?: unknown };
  return {
    ok: false,
    status: response.status,
    code: typeof refusal.error === 'string' ? refusal.error : 'error',
    message:
      typeof refusal.message === 'string' && refusal.message !== ''
        ? refusal.message
        : `Le site a refusé la demande (HTTP ${String(response.status)}).`,
    data,
  };
}
