import { createBundles, type Bundles } from './containers';
import { apiOver, fileOver } from './over-host';
import { renderPage, type RenderOutcome } from './page';
import type { FromRenderer, ToRenderer } from './protocol';
import type { TrialOutcome } from './protocol';
import type { ApiAnswer, RenderHost, RenderTask, RendererTask, TrialTask, VersionsSnapshot, WarmUp } from './tasks';
import { tryContainer } from './try-container';

export type { ApiAnswer, RenderHost, RenderSettings, RenderTask, WarmUp } from './tasks';

/**
 * What a renderer does (docs/rendering.md, « Renderers »): it loads the parts' server containers
 * (files, or another origin's through its server, read again when they change) and renders one page
 * per task. It runs in a sandboxed process of its own (sandbox.ts, renderers.ts), or in the server's
 * for a debugger (RENDER_WORKERS=0). What the page's store asks of /api, and what the renderer tells
 * while it works, are calls on the task's host. Which versions it may evaluate comes with each task
 * (`VersionsSnapshot`): it keeps nothing between tasks but the containers it has loaded.
 */

/**
 * A renderer's worker: the containers it has loaded, and the tasks in progress (one in a renderer
 * process; several when the server renders in its own process, RENDER_WORKERS=0), whose latest host
 * and versions the containers, made once, answer to.
 */
export function createWorker() {
  let bundles: { key: string; files: Bundles } | undefined;
  const tasks: { host: RenderHost; versions: VersionsSnapshot }[] = [];
  const latest = () => tasks.at(-1);

  function bundlesFor(task: RenderTask): Bundles {
    const key = JSON.stringify([task.remotes, task.distDirs]);
    if (bundles?.key === key) return bundles.files;
    const where = new Map<string, string>();
    const files = createBundles({
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
          latest()?.host.reading(part, version, file);
        },
        end: (part, version, problem) => {
          latest()?.host.read(part, version, where.get(part) ?? '', problem);
        },
      },
    });
    bundles = { key, files };
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
      tasks.splice(tasks.indexOf(entry), 1);
    }
  }

  function run(task: TrialTask, own: RenderHost): Promise<TrialOutcome>;
  function run(task: RenderTask | WarmUp, own: RenderHost): Promise<RenderOutcome | null>;
  function run(task: RendererTask, own: RenderHost): Promise<RenderOutcome | TrialOutcome | null>;
  async function run(task: RendererTask, own: RenderHost): Promise<RenderOutcome | TrialOutcome | null> {
    if ('warmUp' in task) return null;
    own.started();
    if ('trial' in task) return tryContainer(task, own);
    return renderTask(task, own);
  }
  return { run };
}

export type Worker = ReturnType<typeof createWorker>;

/**
 * A renderer process's life (docs/rendering.md, « Renderers »): started by renderers.ts with
 * RENDERER_FLAG inside its sandbox, it renders one task at a time, told and answered over its IPC
 * channel only. Its way to send is taken before any part's code is loaded: a part that replaces
 * `process.send` changes nothing of what the server receives (and the server checks every message
 * anyway: protocol.ts).
 */
function serveOverIpc(): void {
  const channel = process.send?.bind(process);
  const send = (message: FromRenderer): void => {
    channel?.(message);
  };
  // On Node 20, which has no --disable-sigusr1: a listener keeps the inspector closed.
  process.on('SIGUSR1', () => undefined);
  const worker = createWorker();
  /** The host's answers awaited, by request number. */
  const waiting = new Map<number, (answer: ApiAnswer) => void>();
  let requests = 0;
  const ask = (id: number, url: string, etag?: string | null) =>
    new Promise<ApiAnswer>((resolve) => {
      requests += 1;
      waiting.set(requests, resolve);
      if (etag === undefined) send({ type: 'api', id, request: requests, url });
      else send({ type: 'file', id, request: requests, url, etag });
    });
  const hostOf = (id: number): RenderHost => ({
    started: () => {
      send({ type: 'started', id });
    },
    log: (level, message) => {
      send({ type: 'log', id, level, message });
    },
    reading: (part, version, where) => {
      send({ type: 'reading', id, part, version, where });
    },
    read: (part, version, where, problem) => {
      send({ type: 'read', id, part, version, where, problem });
    },
    api: (url) => ask(id, url),
    file: (url, etag) => ask(id, url, etag),
  });

  process.on('message', (message: ToRenderer) => {
    if (message.type === 'answer') {
      waiting.get(message.request)?.(message.answer);
      waiting.delete(message.request);
      return;
    }
    const { id, task } = message;
    worker.run(task, hostOf(id)).then(
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
