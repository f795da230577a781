import type { FastifyInstance } from 'fastify';
import { PARTS, type PartName, type RemotesConfig } from '@collectif/shared';
import { SERVER_CONTAINER } from './containers';
import type { HostAnswer, RenderHost } from './protocol';

// What the server answers a renderer's requests with (docs/rendering.md, « What a renderer may ask »).

/** The largest container fetched for a renderer. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
const FILE_TIMEOUT_MS = 5000;

export const statusOnly = (code: number): HostAnswer => ({ status: code, headers: {}, body: new Uint8Array() });

/** The addresses of the server containers that the remote map puts on another origin. */
export function containerUrls(remotes: RemotesConfig): Set<string> {
  return new Set(
    Object.values(remotes)
      .filter((url) => /^https?:\/\//.test(url))
      .map((url) => new URL(SERVER_CONTAINER, url).href),
  );
}

/** A server container on another origin, for a renderer: only at an address of the remote map, bounded. */
export async function answerFile(remotes: RemotesConfig, url: string, etag: string | null): Promise<HostAnswer> {
  if (!containerUrls(remotes).has(url)) return statusOnly(403);
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(FILE_TIMEOUT_MS),
      headers: etag === null ? {} : { 'if-none-match': etag },
      redirect: 'error',
    });
    const length = Number(response.headers.get('content-length') ?? '0');
    if (length > MAX_FILE_BYTES) return statusOnly(413);
    const body = new Uint8Array(await response.arrayBuffer());
    if (body.byteLength > MAX_FILE_BYTES) return statusOnly(413);
    const tag = response.headers.get('etag');
    return { status: response.status, headers: tag === null ? {} : { etag: tag }, body };
  } catch {
    return statusOnly(502);
  }
}

/**
 * The address a lane's /api requests come from (RFC 5737's TEST-NET-1, which no visitor has): one per
 * lane, so that the API's per-address limits and the server's log tell the lanes apart, and a lane
 * that floods /api meets its own limits, not another's.
 */
export function laneAddress(lane: PartName | null): string {
  const index = lane === null ? -1 : PARTS.findIndex((part) => part.name === lane);
  return `192.0.2.${String(index === -1 ? 200 : index + 1)}`;
}

/**
 * A renderer's /api requests, answered in-process (app.inject) as to an anonymous visitor at its
 * lane's address: a GET of the site's /api, no cookie, no credential, no header of the renderer's
 * (its code is a part's: docs/rendering.md, « Renderers »). Any other address is refused (403).
 */
export function visitorApi(app: FastifyInstance) {
  return async (href: string, lane: PartName | null = null): Promise<HostAnswer> => {
    const url = new URL(href);
    if (!url.pathname.startsWith('/api/')) {
      return { status: 403, headers: {}, body: new TextEncoder().encode('{"error":"api"}') };
    }
    const answer = await app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { accept: 'application/json' },
      remoteAddress: laneAddress(lane),
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (typeof value === 'string') headers[name] = value;
    }
    return { status: answer.statusCode, headers, body: new Uint8Array(answer.rawPayload) };
  };
}

/** The host of a warm-up, which asks nothing. */
export const idleHost: RenderHost = {
  api: () => Promise.resolve(statusOnly(403)),
  file: () => Promise.resolve(statusOnly(403)),
  log: () => undefined,
  reading: () => undefined,
  read: () => undefined,
};
