import { readFileSync, statSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { ComponentType } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import {
  api,
  findPage,
  fullHead,
  makeStore,
  type ApiAccess,
  type PageMatch,
  type PageRef,
  type PartName,
  type SiteEnvironment,
} from '@collectif/shared';
import {
  handOver,
  type RemoteServerContainer,
  type ServerApp,
  type ServerPage,
  type ShellServerContainer,
} from '@collectif/shared/server';
import { scriptJson } from '@collectif/shared/seo';
import { fillPath } from '@collectif/shared/addresses';
import {
  createServerContainers,
  loadContainer,
  SERVER_CONTAINER,
  type ServerContainers,
  type FetchFile,
} from './containers';
import { fileVersion } from '../../files/watched-file';
import { HOST_CONNECTIONS } from './protocol';
import type {
  HostAnswer,
  HostMessage,
  RenderHost,
  RenderOutcome,
  RendererTask,
  RenderTask,
  TrialOutcome,
  TrialTask,
  VersionsSnapshot,
} from './protocol';

/**
 * What a renderer does (docs/rendering.md, « Renderers »): it loads the parts' server containers
 * (files, or another origin's through its server, read again when they change) and renders one page
 * per task. It runs in a sandboxed process of its own (sandbox.ts, render-pool.ts), or in the
 * server's for a debugger (RENDERERS=0). What the page's store asks of /api, and what the
 * renderer tells while it works, are calls on the task's host. Which versions it may evaluate comes
 * with each task (`VersionsSnapshot`): it keeps nothing between tasks but the containers it has loaded.
 */

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
  // evaluated in the order the server believes their readings in (render-pool.ts), so that a
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

/*
 * A trial (docs/deploy.md, « The trial »): what a trial's renderer does with a part's new server
 * container. The server asks for it through its pool (deploy/trial.ts); the deploy's other checks
 * are in deploy/.
 */

const reasonOf = (error: unknown): string => {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
};

/** A page's address with every parameter filled with a made-up value (the page says « introuvable »). */
function trialPath(page: PageRef): string {
  return fillPath(
    page.path,
    Object.fromEntries([...page.path.matchAll(/:(\w+)/g)].map((found) => [found[1] ?? '', 'essai'])),
  );
}

/**
 * A part's new server container tried in a renderer of its own (docs/deploy.md, « The trial »):
 * loaded, then each of its pages rendered once with the other parts' containers in use, from the
 * page table it would make. Refused when it throws, exposes nothing, renders nothing of its own or
 * warns.
 */
export async function tryContainer(task: TrialTask, own: RenderHost): Promise<TrialOutcome> {
  const { part, dir } = task.trial;
  const file = join(dir, SERVER_CONTAINER);
  let version: string;
  let exports: Record<string, unknown>;
  try {
    version = fileVersion(statSync(file)).id;
  } catch {
    return { ok: false, reason: `pas de conteneur serveur (${SERVER_CONTAINER})` };
  }
  try {
    exports = await loadContainer(readFileSync(file, 'utf8'), file, part);
  } catch (error) {
    return { ok: false, reason: `son conteneur serveur échoue au chargement : ${reasonOf(error)}` };
  }
  const modules = exports.modules as Record<string, unknown> | null | undefined;
  if (
    part === 'shell'
      ? typeof exports.renderApp !== 'function'
      : typeof modules !== 'object' || modules === null || Object.keys(modules).length === 0
  ) {
    return {
      ok: false,
      reason: `son conteneur serveur n'expose pas ${part === 'shell' ? 'renderApp (./server)' : 'ses modules'}`,
    };
  }
  const others = createServerContainers({
    remotes: task.remotes,
    distDirs: task.distDirs,
    fetchFile: fileOver(() => own),
  });
  const withPart = (value: Record<string, unknown>): RenderOptions['containers'] =>
    ({ get: async (name: PartName) => (name === part ? value : others.get(name)) }) as unknown as ServerContainers;
  const home = task.pages.filter((page) => page.path === '');
  const pages = part === 'shell' || part === 'player' ? home : task.pages.filter((page) => page.remote === part);
  const render = async (pathname: string, match: PageMatch, containers: RenderOptions['containers']) => {
    const warnings: string[] = [];
    const outcome = await renderPage({
      pathname,
      search: '',
      origin: task.origin,
      match,
      api: apiOver(own, task.origin),
      environment: { radio: task.radio, pages: task.pages },
      containers,
      dataDeadlineMs: task.dataDeadlineMs,
      renderDeadlineMs: task.renderDeadlineMs,
      log: { warn: (message) => warnings.push(message), debug: () => undefined },
    });
    return { outcome, warnings };
  };
  for (const page of pages) {
    const pathname = trialPath(page);
    const match = findPage(pathname, task.pages);
    if (match === null) continue;
    const { outcome, warnings } = await render(pathname, match, withPart(exports));
    if (outcome.kind !== 'page') {
      return {
        ok: false,
        reason: `la page ${pathname} ne se rend pas : ${outcome.kind === 'browser' ? outcome.reason : outcome.kind}`,
      };
    }
    if (warnings.length > 0) return { ok: false, reason: `la page ${pathname} : ${warnings[0] ?? ''}` };
    // What renders nothing gives the page its part's area left empty: the same page as a module that
    // renders null.
    const module = part === 'player' ? 'Player' : part === 'shell' ? null : page.module;
    if (module !== null && modules !== undefined) {
      const blank = { ...exports, modules: { ...modules, [module]: () => null } };
      const empty = await render(pathname, match, withPart(blank));
      if (empty.outcome.kind === 'page' && empty.outcome.body === outcome.body) {
        return { ok: false, reason: `la page ${pathname} ne rend rien de « ${module} »` };
      }
    } else if (outcome.body.trim() === '') {
      return { ok: false, reason: `la page ${pathname} ne rend rien` };
    }
  }
  return { ok: true, version, pages: pages.length };
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

/**
 * What renders the pages, in a renderer process or in the server's: the containers it has loaded,
 * and the tasks in progress (one in a renderer process; several when the server renders in its own
 * process, RENDERERS=0), whose latest host and versions the containers, made once, answer to.
 */
export function createPageRenderer() {
  let containers: { key: string; files: ServerContainers } | undefined;
  const tasks: { host: RenderHost; versions: VersionsSnapshot }[] = [];
  const latest = () => tasks.at(-1);

  function containersFor(task: RenderTask): ServerContainers {
    const key = JSON.stringify([task.remotes, task.distDirs]);
    if (containers?.key === key) return containers.files;
    const where = new Map<string, string>();
    const files = createServerContainers({
      remotes: task.remotes,
      distDirs: task.distDirs,
      fetchFile: fileOver(() => latest()?.host),
      warn: (message) => {
        latest()?.host.log('warn', message);
      },
      reading: {
        disabled: (part, version) => latest()?.versions.disabled.includes(`${part}@${version}`) === true,
        awaitingTrial: (part, version) => {
          const allowed = latest()?.versions.allowed ?? null;
          return allowed !== null && !allowed.includes(`${part}@${version}`);
        },
        start: (part, version, file) => {
          where.set(part, file);
          return latest()?.host.reading(part, version, file);
        },
        end: (part, version, problem) => {
          latest()?.host.read(part, version, where.get(part) ?? '', problem);
        },
      },
    });
    containers = { key, files };
    return files;
  }

  async function renderTask(task: RenderTask, own: RenderHost): Promise<RenderOutcome> {
    const entry = { host: own, versions: { disabled: task.disabled, allowed: task.allowed } };
    tasks.push(entry);
    try {
      return await renderPage({
        pathname: task.pathname,
        search: task.search,
        origin: task.origin,
        match: task.match,
        api: apiOver(own, task.origin),
        environment: { radio: task.radio, pages: task.pages },
        containers: containersFor(task),
        dataDeadlineMs: task.dataDeadlineMs,
        renderDeadlineMs: task.renderDeadlineMs,
        log: {
          warn: (message) => {
            own.log('warn', message);
          },
          debug: (message) => {
            own.log('debug', message);
          },
        },
      });
    } finally {
      tasks.splice(tasks.indexOf(entry), 1);
    }
  }

  function run(task: TrialTask, own: RenderHost): Promise<TrialOutcome>;
  function run(task: RenderTask, own: RenderHost): Promise<RenderOutcome>;
  function run(task: RendererTask, own: RenderHost): Promise<RenderOutcome | TrialOutcome | null>;
  async function run(task: RendererTask, own: RenderHost): Promise<RenderOutcome | TrialOutcome | null> {
    if ('warmUp' in task) return null;
    if ('trial' in task) return tryContainer(task, own);
    return renderTask(task, own);
  }
  return { run };
}

export type PageRenderer = ReturnType<typeof createPageRenderer>;

/** A whole body read (from the server, on the render channel). */
async function bodyOf(message: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A renderer process's life (docs/rendering.md, « The channel »): started by render-pool.ts with
 * RENDERER_FLAG inside its sandbox, it answers one task at a time on the render channel (fd 3, an
 * HTTP server), and asks its server on the host channel (fd 4 to fd 7, keep-alive connections, one
 * request at a time on each). Both are taken before any part's code is loaded; a part that writes to them
 * anyway is checked by the server like everything else.
 */
function serveOverChannels(): void {
  // The name its server gave it: its answers carry it, so that a bad one is laid at this process's door.
  const name = process.argv[process.argv.indexOf(RENDERER_FLAG) + 1] ?? '';
  const render = new Socket({ fd: 3, readable: true, writable: true });
  // The host channel's connections, kept: the agent sends the task's requests on them side by side.
  const back = Array.from(
    { length: HOST_CONNECTIONS },
    (_, n) => new Socket({ fd: 4 + n, readable: true, writable: true }),
  );
  const agent = new Agent({ keepAlive: true, maxSockets: HOST_CONNECTIONS });
  agent.createConnection = () => {
    const next = back.shift();
    if (next === undefined) throw new Error('canal vers le serveur fermé');
    return next;
  };
  const ask = (message: HostMessage) =>
    new Promise<HostAnswer>((resolve, reject) => {
      const body = JSON.stringify(message);
      const asked = httpRequest(
        {
          agent,
          method: 'POST',
          path: '/',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(answer.headers))
              if (typeof value === 'string') headers[name] = value;
            resolve({ status: answer.statusCode ?? 502, headers, body: new Uint8Array(Buffer.concat(chunks)) });
          });
          answer.on('error', reject);
        },
      );
      asked.on('error', reject);
      asked.end(body);
    });
  /** What each task has told and the server has not acknowledged yet: its answer waits for them. */
  const told = new Map<string, Set<Promise<unknown>>>();
  const tell = (message: HostMessage) => {
    const sent = ask(message).catch(() => undefined);
    if (message.type === 'ready') return;
    const pending = told.get(message.task) ?? new Set<Promise<unknown>>();
    told.set(message.task, pending);
    pending.add(sent);
    void sent.then(() => pending.delete(sent));
  };
  // On Node 20, which has no --disable-sigusr1: a listener keeps the inspector closed.
  process.on('SIGUSR1', () => undefined);
  const pages = createPageRenderer();
  const hostOf = (task: string): RenderHost => ({
    log: (level, message) => {
      tell({ type: 'log', task, level, message });
    },
    // Answered before the container is evaluated (containers.ts): the server knows whom to blame
    // before code that may never end runs.
    reading: (part, version, where) => ask({ type: 'reading', task, part, version, where }).catch(() => undefined),
    read: (part, version, where, problem) => {
      tell({ type: 'read', task, part, version, where, problem });
    },
    api: (url) => ask({ type: 'api', task, url }).catch(() => ({ status: 502, headers: {}, body: new Uint8Array() })),
    file: (url, etag) => ask({ type: 'file', task, url, etag }),
  });

  const server = createServer((request, response) => {
    void (async () => {
      const { token, task } = JSON.parse(await bodyOf(request)) as { token: string; task: RendererTask };
      const answer = await pages.run(task, hostOf(token)).then(
        (value) => ({ ok: true, value }),
        (error: unknown) => {
          const text = (error as { message?: unknown } | null)?.message;
          return { ok: false, message: typeof text === 'string' ? text : String(error) };
        },
      );
      // What the task told reaches the server before its answer, which ends the task there.
      await Promise.all([...(told.get(token) ?? new Set<Promise<unknown>>())]);
      told.delete(token);
      response.setHeader('content-type', 'application/json');
      response.setHeader('x-renderer', name);
      response.end(JSON.stringify(answer));
    })();
  });
  // The connection stays as long as the server keeps it.
  server.keepAliveTimeout = 0;
  server.emit('connection', render);
  // The server gone (stopped, or crashed), or its channel closed: this renderer goes too.
  render.on('close', () => {
    process.exit(0);
  });
  // Its code loaded (React, the shared package): the server may give it tasks.
  tell({ type: 'ready' });
}

/** The argument a renderer process is started with (render-pool.ts): this file is then its entry. */
export const RENDERER_FLAG = '--site-renderer';

// Only in a renderer process: the server imports this file too, to render in its own process with
// RENDERERS=0 (its code is bundled into the server's).
if (process.argv.includes(RENDERER_FLAG)) serveOverChannels();
