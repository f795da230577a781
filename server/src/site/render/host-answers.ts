import type { RemotesConfig } from '@collectif/shared';
import { SERVER_BUNDLE } from './containers';
import type { ApiAnswer } from './tasks';

/**
 * What the server answers a renderer's requests with (docs/rendering.md, « What a renderer may
 * ask »): the page's /api as to an anonymous visitor (`answerApi`, visitor-api.ts), and a part's
 * server container on another origin, fetched here because a renderer has no network. Nothing
 * else: a file is fetched only at an address the remote map names for a container.
 */

/** The largest container fetched for a renderer. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
const FILE_TIMEOUT_MS = 5000;

const status = (code: number): ApiAnswer => ({ status: code, headers: {}, body: new Uint8Array() });

/** The addresses of the server containers that the remote map puts on another origin. */
export function containerUrls(remotes: RemotesConfig): Set<string> {
  return new Set(
    Object.values(remotes)
      .filter((url) => /^https?:\/\//.test(url))
      .map((url) => new URL(SERVER_BUNDLE, url).href),
  );
}

/** A server container on another origin, for a renderer: only at an address of the remote map, bounded. */
export async function answerFile(remotes: RemotesConfig, url: string, etag: string | null): Promise<ApiAnswer> {
  if (!containerUrls(remotes).has(url)) return status(403);
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(FILE_TIMEOUT_MS),
      headers: etag === null ? {} : { 'if-none-match': etag },
      redirect: 'error',
    });
    const length = Number(response.headers.get('content-length') ?? '0');
    if (length > MAX_FILE_BYTES) return status(413);
    const body = new Uint8Array(await response.arrayBuffer());
    if (body.byteLength > MAX_FILE_BYTES) return status(413);
    const tag = response.headers.get('etag');
    return { status: response.status, headers: tag === null ? {} : { etag: tag }, body };
  } catch {
    return status(502);
  }
}

/** The page's /api through the server, a failure answered as a 502 (the page shows its error state). */
export function answerApiSafely(answerApi: (url: string) => Promise<ApiAnswer>) {
  return (url: string): Promise<ApiAnswer> => answerApi(url).catch(() => status(502));
}
