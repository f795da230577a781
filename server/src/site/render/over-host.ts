import type { FetchFile } from './containers';
import type { RenderOptions } from './page';
import type { RenderHost } from './tasks';

/**
 * A task's ways out, all through its host (docs/rendering.md, « Renderers »): a renderer has no
 * network, so the page's /api and another origin's files are asked of the server.
 */

/** The page's /api, answered by the host's server in its own process (docs/rendering.md, « State per request »). */
export function apiOver(own: RenderHost, origin: string): RenderOptions['api'] {
  return {
    base: new URL('/api', origin).href,
    transport: async (request) => {
      const { status, headers, body } = await own.api(request.url);
      return new Response(new Uint8Array(body), { status, headers });
    },
  };
}

/** A part's file on another origin, fetched by the host's server (a renderer has no network). */
export function fileOver(host: () => RenderHost | undefined): FetchFile {
  return async (url, etag) => {
    const own = host();
    if (own === undefined) throw new Error('aucune tâche en cours');
    const { status, headers, body } = await own.file(url, etag);
    return { status, etag: headers.etag ?? null, text: new TextDecoder().decode(body) };
  };
}
