import type { MessagePort } from 'node:worker_threads';
import { JSDOM } from 'jsdom';
import type { ApiAccess, PageMatch, PageRef, PartName, RemotesConfig } from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import { createBundles, type Bundles } from './bundles';
import { renderPage, type RenderOutcome } from './page';

/**
 * A render worker's side (docs/rendering.md, « Rendering in workers »): it loads the parts' server
 * bundles as the server did (files or another origin, read again when they change) and renders one
 * page per task. What the page's store asks of /api goes back to the main thread over the task's
 * port, where the API answers it once for every worker, from the same upstream cache.
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
  /** Carries the page's /api requests to the main thread, and, before a bundle is evaluated, which. */
  port: MessagePort;
}

/** What the main thread answers for one /api request. */
export interface ApiReply {
  id: number;
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** What the worker tells the main thread while it works. */
export type WorkerMessage =
  /** The task has left the queue: its deadline starts now. */
  | { kind: 'started' }
  | { kind: 'api'; id: number; url: string }
  | { kind: 'log'; level: 'warn' | 'debug'; message: string }
  /** A part's server bundle is being evaluated: if the task is abandoned now, that version is at fault. */
  | { kind: 'reading'; part: PartName; version: string; where: string }
  | { kind: 'read'; part: PartName; version: string; where: string; problem: string | null };

let window: Window | undefined;
let bundles: { key: string; files: Bundles } | undefined;
/** The task in progress: the bundles, made once per worker, speak to it. */
let current: RenderTask | null = null;

const tell = (message: WorkerMessage) => {
  current?.port.postMessage(message);
};

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
          tell({ kind: 'log', level: 'warn', message });
        },
        reading: {
          disabled: (part, version) => current?.disabled.includes(`${part}@${version}`) === true,
          start: (part, version, file) => {
            where.set(part, file);
            tell({ kind: 'reading', part, version, where: file });
          },
          end: (part, version, problem) => {
            tell({ kind: 'read', part, version, where: where.get(part) ?? '', problem });
          },
        },
      }),
    };
  }
  return bundles.files;
}

/** The page's /api, answered by the main thread over the task's port. */
function apiOver(port: MessagePort, base: string): ApiAccess {
  let next = 1;
  const waiting = new Map<number, (reply: ApiReply) => void>();
  port.on('message', (reply: ApiReply) => {
    waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id);
  });
  return {
    base,
    transport: (request) =>
      new Promise<Response>((resolve) => {
        const id = next;
        next += 1;
        waiting.set(id, (reply) => {
          resolve(new Response(new Uint8Array(reply.body), { status: reply.status, headers: reply.headers }));
        });
        port.postMessage({ kind: 'api', id, url: request.url } satisfies WorkerMessage);
      }),
  };
}

/** A task that only makes the worker ready (its modules loaded), before the first page's deadline runs. */
export interface WarmUp {
  warmUp: true;
}

export async function renderTask(task: RenderTask | WarmUp): Promise<RenderOutcome | null> {
  if ('warmUp' in task) return null;
  const log = {
    warn: (message: string) => {
      task.port.postMessage({ kind: 'log', level: 'warn', message } satisfies WorkerMessage);
    },
    debug: (message: string) => {
      task.port.postMessage({ kind: 'log', level: 'debug', message } satisfies WorkerMessage);
    },
  };
  task.port.postMessage({ kind: 'started' } satisfies WorkerMessage);
  window ??= new JSDOM('<!doctype html>').window as unknown as Window;
  current = task;
  try {
    return await renderPage({
      pathname: task.pathname,
      search: task.search,
      origin: task.origin,
      match: task.match,
      api: apiOver(task.port, new URL('/api', task.origin).href),
      environment: { radio: task.radio, pages: task.pages, window },
      bundles: bundlesFor(task),
      dataDeadlineMs: task.dataDeadlineMs,
      renderDeadlineMs: task.renderDeadlineMs,
      log,
    });
  } finally {
    current = null;
    task.port.close();
  }
}
