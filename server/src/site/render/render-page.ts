import { Writable } from 'node:stream';
import type { ComponentType } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { api, fullHead, makeStore, type ApiAccess, type PageMatch, type SiteEnvironment } from '@collectif/shared';
import {
  handOver,
  type RemoteServerContainer,
  type ServerApp,
  type ServerPage,
  type ShellServerContainer,
} from '@collectif/shared/server';
import { scriptJson } from '@collectif/shared/seo';
import type { ServerContainers } from './containers';
import type { FetchFile } from './part-files';
import type { RenderHost, RenderOutcome } from './protocol';

/**
 * Renders one page on the server (docs/rendering.md, « The router runs the page »): the shell's
 * router runs the page (its loader loads its data through the same RTK Query endpoints as in the
 * browser, answered in-process, and says its status and head), then React renders the shell's tree
 * with the page's and the player's modules from their server containers.
 */

export interface RenderOptions {
  pathname: string;
  /** The page of the table the path names (matched once, by the caller), or none. */
  match: PageMatch | null;
  search: string;
  /** The site's public origin (SITE_ORIGIN), never a request header. */
  origin: string;
  /** How this request's store reaches /api. */
  api: ApiAccess;
  /** The rendering app's radio settings, page table and window. */
  environment: SiteEnvironment;
  containers: ServerContainers;
  /** How long the page's data may take; past it, the page renders with what has arrived. */
  dataDeadlineMs: number;
  /** How long React may take; past it, what has not rendered is left to the browser. */
  renderDeadlineMs: number;
  log: { warn: (message: string) => void; debug: (message: string) => void };
}

function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

const asRemote = (exports: Record<string, unknown> | null): RemoteServerContainer | null =>
  exports !== null && typeof exports.modules === 'object' && exports.modules !== null
    ? (exports as unknown as RemoteServerContainer)
    : null;

/**
 * React announces every eager image of the page with `<link rel="preload">` at the top of its
 * output: on the label page, the first covers, raised to high priority against the scripts. The site's
 * image hints are the page definitions' own (`preloads`, in the head: the one image each page shows
 * first and large), so React's are left out.
 */
export function withoutImagePreloads(html: string): string {
  return html.replace(/^(?:<link rel="preload" as="image"[^>]*>)+/, '');
}

/** Renders a React tree to a string, giving up on what is not ready by the deadline. */
function renderToHtml(element: React.ReactElement, deadlineMs: number, log: RenderOptions['log']): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(Buffer.from(chunk));
        callback();
      },
      final(callback) {
        resolve(Buffer.concat(chunks).toString('utf8'));
        callback();
      },
    });
    const stream = renderToPipeableStream(element, {
      // Every area in place: past this size React would send an area hidden, to be moved by a
      // script, and a visitor without JavaScript would see « Chargement ... » instead of the page.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        clearTimeout(timer);
        stream.pipe(sink);
      },
      onShellError(error) {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
      onError(error) {
        // An area that fails here is sent as its fallback and rendered by the browser.
        const message = error instanceof Error ? error.message : String(error);
        if (message.startsWith('Rendu serveur indisponible')) log.debug(message);
        else log.warn(`Rendu serveur d'une zone abandonné, elle sera rendue dans le navigateur : ${message}`);
      },
    });
    const timer = setTimeout(() => {
      stream.abort(new Error('délai de rendu dépassé'));
    }, deadlineMs);
  });
}

/**
 * A path no page of the table has, or one whose parameters cannot be decoded: answered without any
 * part's code (the server does it itself, before any renderer).
 */
export function withoutPage(pathname: string): RenderOutcome {
  if (!decodable(pathname)) return { kind: 'invalid' };
  // Home, where an unknown path is sent, may itself be missing (no remote declares it yet).
  if (pathname !== '/') return { kind: 'redirect', location: '/' };
  return { kind: 'browser', reason: "aucune page déclarée pour l'accueil" };
}

export async function renderPage(options: RenderOptions): Promise<RenderOutcome> {
  const { pathname, search, origin, containers, log, environment, match } = options;
  if (!decodable(pathname) || match === null) return withoutPage(pathname);
  const { page } = match;

  const shell = (await containers.get('shell')) as Partial<ShellServerContainer> | null;
  if (typeof shell?.renderApp !== 'function') {
    const older = typeof (shell as { createServerApp?: unknown } | null)?.createServerApp === 'function';
    return {
      kind: 'browser',
      reason: older
        ? "conteneur serveur du shell d'une version antérieure (sans renderApp)"
        : 'conteneur serveur du shell absent',
    };
  }
  // The shell, then the player, then the page's part, one after the other: the containers are
  // evaluated in the order the server believes their readings in (renderer-process.ts), so that a
  // container that hangs is the one blamed, never the part loaded beside it.
  const player = asRemote(await containers.get('player'));
  const remote = asRemote(await containers.get(page.remote));

  // What the page renders and its definition, from the parts' server containers: its router runs it.
  const key = `${page.remote}/${page.module}`;
  const modules = new Map<string, ComponentType>();
  const definitions = new Map<string, ServerPage>();
  const pageModule = remote?.modules[page.module];
  if (pageModule !== undefined) modules.set(key, pageModule);
  const definition = pageModule === undefined ? undefined : remote?.definitions?.[page.module];
  if (definition !== undefined) definitions.set(key, definition);
  const playerModule = player?.modules.Player;
  if (playerModule !== undefined) modules.set('player/Player', playerModule);

  const store = makeStore(undefined, { api: options.api });
  try {
    const app: unknown = await shell.renderApp({
      url: new URL(`${pathname}${search}`, origin).href,
      store,
      modules,
      definitions,
      environment,
      origin,
      dataDeadlineMs: options.dataDeadlineMs,
    });
    if (!isServerApp(app)) {
      return { kind: 'browser', reason: "conteneur serveur du shell d'une version antérieure (sans routeur de pages)" };
    }
    const body = withoutImagePreloads(await renderToHtml(app.element, options.renderDeadlineMs, log));
    return {
      kind: 'page',
      status: app.status,
      head: fullHead(page, pathname, origin, app.head),
      preloads: app.preloads,
      body,
      // Without what the page reads back from its own HTML (its definition's `fromHtml`).
      state: scriptJson(handOver(store, { fromHtml: namesOf(definition?.fromHtml) })),
      router: scriptJson(app.hydration),
    };
  } catch (error) {
    return { kind: 'browser', reason: error instanceof Error ? error.message : String(error) };
  } finally {
    // Clears the cache's timers, so that nothing keeps this request's store alive.
    store.dispatch(api.util.resetApiState());
  }
}

/** A definition's `fromHtml`, from a part's server container: its names, nothing else. */
function namesOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
}

/** What the shell's `renderApp` answers since « Each page lives once »; an element alone before. */
function isServerApp(value: unknown): value is ServerApp {
  return typeof value === 'object' && value !== null && 'element' in value && 'status' in value;
}

/** The page's /api, answered by the host's server (docs/rendering.md, « State per request »). */
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
