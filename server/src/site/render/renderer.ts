import { Agent, createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { createServerContainers, type ServerContainers } from './containers';
import { tryContainer } from './container-trial';
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
import { apiOver, fileOver, renderPage } from './render-page';

/**
 * What a renderer does (docs/rendering.md, « Renderers »): it loads the parts' server containers
 * (files, or another origin's through its server, read again when they change) and renders one page
 * per task. It runs in a sandboxed process of its own (sandbox.ts, render-pool.ts), or in the
 * server's for a debugger (RENDERERS=0). What the page's store asks of /api, and what the
 * renderer tells while it works, are calls on the task's host. Which versions it may evaluate comes
 * with each task (`VersionsSnapshot`): it keeps nothing between tasks but the containers it has loaded.
 */

/**
 * What renders the pages, in a renderer process or in the server's: the containers it has loaded,
 * and the tasks in progress (one in a renderer process; several when the server renders in its own
 * process, RENDERERS=0), whose latest host and versions the containers, made once, answer to.
 */
export function createPageRenderer(rest?: () => void) {
  let containers: { key: string; files: ServerContainers } | undefined;
  /** Whether it has rendered a page since it last gave its garbage back. */
  let rendered = false;
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
    rendered = true;
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
    if ('warmUp' in task) {
      // A lane asks its kept renderer for nothing once it has had no page for a while (lane.ts): the
      // garbage of the pages rendered since is given back then, once (docs/rendering.md, « Memory »).
      if (rendered && rest !== undefined) {
        rendered = false;
        rest();
      }
      return null;
    }
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
 * A renderer process's life (docs/rendering.md, « The channel »): started by renderer-process.ts with
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
  // Node's collector (`--expose-gc`, sandbox.ts) kept for this file alone, before any part's code is
  // loaded: the parts find none. The flavor that gives memory back to the system, as V8 does when told
  // memory is low (a plain full collection keeps the pages it freed).
  const gc = globalThis.gc;
  globalThis.gc = undefined;
  const pages = createPageRenderer(
    gc === undefined
      ? undefined
      : () => {
          gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
        },
  );
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

/** The argument a renderer process is started with (renderer-process.ts): this file is then its entry. */
export const RENDERER_FLAG = '--site-renderer';

// Only in a renderer process: the server imports this file too, to render in its own process with
// RENDERERS=0 (its code is bundled into the server's).
if (process.argv.includes(RENDERER_FLAG)) serveOverChannels();
