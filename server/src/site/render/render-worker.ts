import type { MessagePort } from 'node:worker_threads';
import { wrap, type Remote } from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import type { PageMatch, PageRef, PartName, RemotesConfig } from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import { createBundles, type Bundles } from './bundles';
import { renderPage, type RenderOutcome } from './page';

/**
 * A render worker's side (docs/rendering.md, « Rendering in workers »): it loads the parts' server
 * bundles (files or another origin, read again when they change) and renders one page per task.
 * What the page's store asks of /api, and what the worker tells while it works, are calls on the
 * task's host (Comlink over the task's port): the API answers on the main thread, once for every
 * worker, from the same upstream cache.
 */

export interface RenderTask {
  pathname: string;
  search: string;
  origin: string;
  match: PageMatch | null;
  radio: RadioSettings;
  pages: readonly PageRef[];
  remotes: RemotesConfig;
  distDirs: Record<PartName, string>;
  dataDeadlineMs: number;
  renderDeadlineMs: number;
  /** Server bundles whose evaluation never ended, as `part@version`: not evaluated again. */
  disabled: readonly string[];
  /** The host's end of the task's channel (RenderHost, through Comlink). */
  port: MessagePort;
}

/** An /api answer, as it crosses threads. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** What a render calls on the server that gave it its task. */
export interface RenderHost {
  /** The task has left the queue: its deadline starts now. */
  started(): void;
  /** The page's /api request, answered by the main thread. */
  api(url: string): Promise<ApiAnswer>;
  log(level: 'warn' | 'debug', message: string): void;
  /** A part's server bundle is being evaluated: if the task is abandoned now, that version is at fault. */
  reading(part: PartName, version: string, where: string): void;
  read(part: PartName, version: string, where: string, problem: string | null): void;
}

/** Server bundles of the task in progress never to evaluate (`part@version`). */
let disabled = new Set<string>();
let bundles: { key: string; files: Bundles } | undefined;
/**
 * The hosts of the tasks in progress (one in a thread; several when the server renders in its own
 * thread, RENDER_WORKERS=0): the bundles, made once, speak to the latest.
 */
const hosts: Remote<RenderHost>[] = [];
const host = (): Remote<RenderHost> | undefined => hosts.at(-1);

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
          void host()?.log('warn', message);
        },
        reading: {
          disabled: (part, version) => disabled.has(`${part}@${version}`),
          start: (part, version, file) => {
            where.set(part, file);
            void host()?.reading(part, version, file);
          },
          end: (part, version, problem) => {
            void host()?.read(part, version, where.get(part) ?? '', problem);
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

/** One task: a page rendered, with what the host answers and is told. */
export async function runTask(task: RenderTask | WarmUp): Promise<RenderOutcome | null> {
  if ('warmUp' in task) return null;
  const own = wrap<RenderHost>(nodeEndpoint(task.port));
  void own.started();
  hosts.push(own);
  disabled = new Set(task.disabled);
  try {
    return await renderPage({
      pathname: task.pathname,
      search: task.search,
      origin: task.origin,
      match: task.match,
      api: {
        base: new URL('/api', task.origin).href,
        transport: async (request) => {
          const { status, headers, body } = await own.api(request.url);
          return new Response(new Uint8Array(body), { status, headers });
        },
      },
      environment: { radio: task.radio, pages: task.pages },
      bundles: bundlesFor(task),
      dataDeadlineMs: task.dataDeadlineMs,
      renderDeadlineMs: task.renderDeadlineMs,
      log: {
        warn: (message) => void own.log('warn', message),
        debug: (message) => void own.log('debug', message),
      },
    });
  } finally {
    hosts.splice(hosts.indexOf(own), 1);
    task.port.close();
  }
}
