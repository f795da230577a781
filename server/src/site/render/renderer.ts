import type { PageMatch, PageRef, PartName, RemotesConfig } from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import { runTrial, type TrialOutcome, type TrialTask } from '../../deploy/trial';
import { createBundles, type Bundles } from './containers';
import { renderPage, type RenderOptions, type RenderOutcome } from './page';
import type { FromRenderer, RendererTask, ToRenderer } from './renderers';

/**
 * What a renderer does (docs/rendering.md, « Renderers »): it loads the parts' server containers
 * (files or another origin, read again when they change) and renders one page per task. It runs in a
 * sandboxed process of its own (renderer.ts), or in the server's for a debugger (RENDER_WORKERS=0).
 * What the page's store asks of /api, and what the renderer tells while it works, are calls on the
 * task's host: the server answers the API as it answers an anonymous visitor, from the same
 * upstream cache.
 */

/** What any task renders with: the site's settings, its table of pages, where the parts are. */
export interface RenderSettings {
  origin: string;
  radio: RadioSettings;
  pages: readonly PageRef[];
  remotes: RemotesConfig;
  distDirs: Record<PartName, string>;
  dataDeadlineMs: number;
  renderDeadlineMs: number;
}

export interface RenderTask extends RenderSettings {
  pathname: string;
  search: string;
  match: PageMatch | null;
  /** Server containers whose loading never ended, as `part@version`: not loaded again. */
  disabled: readonly string[];
  /**
   * The versions of the parts' containers on this server that may be evaluated (`part@version`): tried
   * off the serving threads, or there when the server started (docs/deploy.md, « The trial »); null:
   * any (no renderer process). A part whose bundle is in another version renders in the browser.
   */
  allowed: readonly string[] | null;
}

/** An /api answer, as it crosses processes. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** What a render calls on the server that gave it its task. */
export interface RenderHost {
  /** The task has left the queue: its deadline starts now. */
  started(): void;
  /** The page's /api request (a GET with no credentials), answered by the server. */
  api(url: string): Promise<ApiAnswer>;
  log(level: 'warn' | 'debug', message: string): void;
  /** A part's server container is being evaluated: if the task is abandoned now, that version is at fault. */
  reading(part: PartName, version: string, where: string): void;
  read(part: PartName, version: string, where: string, problem: string | null): void;
}

/** Server bundles of the task in progress never to evaluate (`part@version`). */
let disabled = new Set<string>();
/** Versions of containers on this server that may be loaded (`part@version`); null: any. */
let allowed: Set<string> | null = null;
let bundles: { key: string; files: Bundles } | undefined;
/**
 * The hosts of the tasks in progress (one in a renderer; several when the server renders in its own
 * process, RENDER_WORKERS=0): the bundles, made once, speak to the latest.
 */
const hosts: RenderHost[] = [];
const host = (): RenderHost | undefined => hosts.at(-1);

function bundlesFor(task: RenderTask): Bundles {
  const key = JSON.stringify([task.remotes, task.distDirs]);
  const where = new Map<string, string>();
  if (bundles?.key !== key) {
    bundles = {
      key,
      files: createBundles({
        remotes: task.remotes,
        distDirs: task.distDirs,
        warn: (message) => {
          host()?.log('warn', message);
        },
        reading: {
          disabled: (part, version) => disabled.has(`${part}@${version}`),
          awaitingTrial: (part, version) => allowed !== null && !allowed.has(`${part}@${version}`),
          start: (part, version, file) => {
            where.set(part, file);
            host()?.reading(part, version, file);
          },
          end: (part, version, problem) => {
            host()?.read(part, version, where.get(part) ?? '', problem);
          },
        },
      }),
    };
  }
  return bundles.files;
}

/** A task that only makes the worker ready (its modules loaded), before the first page's deadline runs. */
export interface WarmUp {
  warmUp: true;
}

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

/** One task: a page rendered (or a container tried), with what the host answers and is told. */
export async function runTask(task: TrialTask, own: RenderHost): Promise<TrialOutcome>;
export async function runTask(task: RenderTask | WarmUp, own: RenderHost): Promise<RenderOutcome | null>;
export async function runTask(
  task: RenderTask | WarmUp | TrialTask,
  own: RenderHost,
): Promise<RenderOutcome | TrialOutcome | null> {
  if ('warmUp' in task) return null;
  own.started();
  if ('trial' in task) return runTrial(task, own);
  hosts.push(own);
  disabled = new Set(task.disabled);
  allowed = task.allowed === null ? null : new Set(task.allowed);
  try {
    return await renderPage({
      pathname: task.pathname,
      search: task.search,
      origin: task.origin,
      match: task.match,
      api: apiOver(own, task.origin),
      environment: { radio: task.radio, pages: task.pages },
      bundles: bundlesFor(task),
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
    hosts.splice(hosts.indexOf(own), 1);
  }
}

const send = (message: FromRenderer): void => {
  process.send?.(message);
};

/** The page's /api requests waiting for the server's answer, by request number. */
const waiting = new Map<number, (answer: ApiAnswer) => void>();
let requests = 0;

function hostOf(id: number): RenderHost {
  return {
    started: () => {
      send({ type: 'event', id, event: 'started', args: [] });
    },
    log: (level, message) => {
      send({ type: 'event', id, event: 'log', args: [level, message] });
    },
    reading: (part, version, where) => {
      send({ type: 'event', id, event: 'reading', args: [part, version, where] });
    },
    read: (part, version, where, problem) => {
      send({ type: 'event', id, event: 'read', args: [part, version, where, problem] });
    },
    api: (url) =>
      new Promise<ApiAnswer>((resolve) => {
        requests += 1;
        waiting.set(requests, resolve);
        send({ type: 'api', id, request: requests, url });
      }),
  };
}

/**
 * A renderer process's life (docs/rendering.md, « Renderers »): started by renderers.ts with
 * RENDERER_FLAG, sandboxed (no secret in its environment, Node's permission model: it reads the
 * parts' folders and its own code, writes nothing, starts nothing), it renders one task at a time,
 * told and answered over its IPC channel only. What a part's code does here reaches no secret:
 * there is none.
 */
function serveOverIpc(): void {
  process.on('message', (message: ToRenderer) => {
    if (message.type === 'api') {
      waiting.get(message.request)?.(message.answer);
      waiting.delete(message.request);
      return;
    }
    const { id, task } = message;
    (runTask as (task: RendererTask, own: RenderHost) => Promise<unknown>)(task, hostOf(id)).then(
      (value) => {
        send({ type: 'done', id, value });
      },
      (error: unknown) => {
        const text = (error as { message?: unknown } | null)?.message;
        send({ type: 'failed', id, message: typeof text === 'string' ? text : String(error) });
      },
    );
  });

  // The server gone (stopped, or crashed), its renderers go too.
  process.on('disconnect', () => {
    process.exit(0);
  });

  // Its code loaded (React, the shared package): the server may give it pages, whose deadline counts
  // from a ready renderer.
  send({ type: 'ready' });
}

/** The argument a renderer process is started with (renderers.ts): this file is then its entry. */
export const RENDERER_FLAG = '--site-renderer';

// Only in a renderer process: the server imports this file too, to render in its own process with
// RENDER_WORKERS=0 (its code is bundled into the server's).
if (process.argv.includes(RENDERER_FLAG)) serveOverIpc();
