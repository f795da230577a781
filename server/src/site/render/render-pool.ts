import { execFile, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { Pool, type Dispatcher } from 'undici';
import { PARTS, type PartName, type RemotesConfig } from '@collectif/shared';
import { createMetrics, type SiteMetrics } from '../../metrics/metrics';
import { SERVER_CONTAINER, type PartFileStatus } from './containers';
import {
  AnswerRefused,
  MAX_ANSWER_BYTES,
  MAX_MESSAGE_BYTES,
  MAX_MESSAGES_AT_ONCE,
  MAX_MESSAGES_PER_SECOND,
  MAX_REQUESTS_PER_TASK,
  MAX_STDERR_BYTES,
  MAX_TEXT,
  readMessage,
  readOutcome,
  readTaskAnswer,
  readTrialOutcome,
  type HostAnswer,
  type HostMessage,
  type RenderHost,
  type RenderOutcome,
  type RendererTask,
  type RenderTask,
  type TrialOutcome,
  type TrialTask,
  type VersionsSnapshot,
} from './protocol';
import { createPageRenderer, RENDERER_FLAG, withoutPage } from './renderer';
import { probeSandbox, spawnRenderer, type SandboxMode, type SandboxProbe } from './sandbox';

/**
 * Pages rendered by renderer processes (docs/rendering.md, « Renderers »). A part's server code runs
 * there, behind the operating system's walls (sandbox.ts), never in the server's process, which
 * keeps HTTP, /api, the now-playing stream and the page cache. Each part that has pages has
 * renderers of its own (its lane): one part's code never runs where another part's pages are
 * rendered, and a lane reads no other team's folder.
 *
 * A lane is one undici `Pool` (docs/rendering.md, « The channel »): its one waiting layer (first
 * come, first rendered), whose connections are renderer processes, started as its traffic needs
 * them. Each speaks HTTP/1.1 over a socket pair, read by llhttp with a bound on every answer; a
 * renderer that says anything out of the protocol, too much or too often is killed, its page is
 * answered for the browser to render, and the next page starts a fresh one. The server never waits
 * on a renderer past a deadline.
 *
 * With no renderer (RENDERERS=0, for stepping through a render in a debugger, and for the
 * server's tests that do not test the renderers; refused with DEPLOY_TOKENS), the same task runs in
 * this process, the same way, without a deadline that could stop it.
 */

export interface RenderPoolOptions {
  /** How many renderer processes each part's pages may have (RENDERERS; 0: this process). */
  renderers: number;
  /** Past this from its start in a renderer, the render is abandoned and its renderer killed. */
  deadlineMs: number;
  /** A page's /api GET, answered as to an anonymous visitor from its lane's address (`visitorApi`). */
  answerApi: (url: string, lane: PartName | null) => Promise<HostAnswer>;
  /** Each part's built folder (its live version with deploys): a lane reads its own part's and the shell's and player's. */
  distDirs: Readonly<Record<PartName, string>>;
  /** A renderer's environment, cut to RENDERER_ENV (the site's settings: `rendererEnv`). */
  env: Readonly<Record<string, string>>;
  log: { warn: (message: string) => void; debug: (message: string) => void };
  /**
   * Teams deploy (DEPLOY_TOKENS): renderers must run behind the walls, and the pool refuses to
   * start where the host cannot make them.
   */
  requireWalls?: boolean;
  /** Whether this host can make the walls (`probeSandbox`, by default). */
  probe?: () => SandboxProbe;
  /** A renderer's heap limit. */
  maxHeapMb?: number;
  /** How long a page may wait for a free renderer; past it, the browser renders it. */
  queueLimitMs?: number;
  /** After this many new containers evaluated (per renderer, on average), a lane's renderers are replaced. */
  recycleAfter?: number;
  /** How long a new server container's trial may take (docs/deploy.md, « The trial »). */
  trialDeadlineMs?: number;
  /** The trial renderer's heap limit. */
  trialHeapMb?: number;
  /** How long a part's renderers are kept without a page of that part (5 minutes). */
  idleMs?: number;
  /** Where pages and renderers are counted (the app's metrics; a registry of their own otherwise). */
  metrics?: Pick<
    SiteMetrics,
    'renderersStarted' | 'renderersStopped' | 'renderSeconds' | 'pagesRendered' | 'renderQueue'
  >;
}

/** What `/readyz` says of the renderers. */
export interface PoolStatus {
  /** Renderer processes a lane may have (0: pages render in the server's own process). */
  perLane: number;
  /** How they run: behind bubblewrap's walls, or Node's permission model alone (sandbox.ts). */
  sandbox: SandboxMode | 'aucun';
  /** Renderers killed at a deadline, past their heap limit or for a message out of the protocol, and replaced. */
  replaced: number;
  /** Times a lane's renderers were all replaced after `recycleAfter` container evaluations each. */
  recycled: number;
  /** The part whose new server container is on trial now (docs/deploy.md, « The trial »), if any. */
  trying: PartName | null;
}

/** How long a renderer may take to load its code before it is given up (and its page left to the browser). */
const START_MS = 60_000;
/** The most pages a lane keeps waiting; past it a page is answered at once for the browser to render. */
const MAX_WAITING = 200;

// ---------------------------------------------------------------------------------------------
// Permits: which versions of the parts' server containers may run in a renderer that serves visitors
// (docs/rendering.md, « Which code runs »), held here and nowhere else.

/**
 * - trusted: there when the server started (the admin's build), or passed its trial
 *   (docs/deploy.md, « The trial »);
 * - on trial or not tried: not evaluated; its part's areas render in the browser meanwhile;
 * - disabled: its evaluation never ended in a serving renderer; not evaluated again (a new file
 *   makes a new version);
 * - refused: its trial, or its evaluation, failed (said by `/readyz`).
 * Each task carries a snapshot (`snapshot`), so that a renderer keeps none of this between tasks.
 */
function createPermits({ anyVersion }: { anyVersion: boolean }) {
  const allowed = new Set<string>();
  const disabled = new Map<string, { part: PartName; version: string; status: PartFileStatus }>();
  const refused = new Map<PartName, { version: string; status: PartFileStatus }>();
  const key = (part: PartName, version: string) => `${part}@${version}`;
  const now = () => new Date().toISOString();
  return {
    trust: (part: PartName, version: string): void => {
      allowed.add(key(part, version));
    },
    allowed: (part: PartName, version: string): boolean => anyVersion || allowed.has(key(part, version)),
    disable: (part: PartName, version: string, where: string, reason: string): void => {
      disabled.set(key(part, version), { part, version, status: { state: 'refused', where, reason, since: now() } });
    },
    judged: (part: PartName, version: string, where: string, problem: string | null): void => {
      if (problem === null) refused.delete(part);
      else refused.set(part, { version, status: { state: 'refused', where, reason: problem, since: now() } });
    },
    snapshot: (): VersionsSnapshot => ({ disabled: [...disabled.keys()], allowed: anyVersion ? null : [...allowed] }),
    problems: (): Map<PartName, { version: string; status: PartFileStatus }> => {
      const found = new Map(refused);
      for (const { part, version, status } of disabled.values()) found.set(part, { version, status });
      return found;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// What the server answers a renderer's requests with (docs/rendering.md, « What a renderer may ask »).

/** The largest container fetched for a renderer. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
const FILE_TIMEOUT_MS = 5000;

const statusOnly = (code: number): HostAnswer => ({ status: code, headers: {}, body: new Uint8Array() });

/** The addresses of the server containers that the remote map puts on another origin. */
export function containerUrls(remotes: RemotesConfig): Set<string> {
  return new Set(
    Object.values(remotes)
      .filter((url) => /^https?:\/\//.test(url))
      .map((url) => new URL(SERVER_CONTAINER, url).href),
  );
}

/** A server container on another origin, for a renderer: only at an address of the remote map, bounded. */
async function answerFile(remotes: RemotesConfig, url: string, etag: string | null): Promise<HostAnswer> {
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

// ---------------------------------------------------------------------------------------------
// Renderer processes, and the channel to each.

/**
 * The renderer's code: `renderer.js` beside the built server (server/dist/), or, from the sources,
 * built once by esbuild into `server/.renderer/` (a renderer runs JavaScript only: Node's permission
 * model allows no TypeScript loader).
 */
let entry: Promise<string> | undefined;
export function rendererEntry(): Promise<string> {
  entry ??= (async () => {
    const built = fileURLToPath(new URL('./renderer.js', import.meta.url));
    if (existsSync(built)) return built;
    const server = fileURLToPath(new URL('../../..', import.meta.url));
    const dir = join(server, '.renderer');
    mkdirSync(dir, { recursive: true });
    const outfile = join(dir, 'renderer.mjs');
    const script = join(server, 'scripts', 'build.mjs');
    await promisify(execFile)(process.execPath, [script, '--renderer', outfile]);
    return outfile;
  })();
  return entry;
}

/** Why a renderer's work ended without an answer. */
export class RendererStopped extends Error {}
/** A page that never reached a renderer (none free in time). */
class NotStarted extends Error {}

/** A task in progress, found by its token when its renderer asks or tells. */
interface TaskState {
  host: RenderHost;
  /** Requests (/api and files) it has made: bounded per task. */
  requests: number;
  /** The renderer that took it (its first message on the host channel, or its answer, says which). */
  renderer: RendererProcess | null;
}

/** What starts renderers for a lane or a trial. */
interface RendererSpec {
  mode: SandboxMode;
  lane: PartName | null;
  heapMb: number;
  /** What it may read beyond its code: its own part's folder, the shell's and the player's live versions. */
  readable: () => string[];
  env: Readonly<Record<string, string>>;
  tasks: Map<string, TaskState>;
  /**
   * Told when a process stops: why, and whether this server killed it (`said`: for a reason worth the
   * log, a deadline or a message out of the protocol; not: idleness, a lane retired).
   */
  stopped: (why: string, how: { killed: boolean; said: boolean }) => void;
  /** Told when a process is started. */
  started: () => void;
}

const renderers = new Map<string, RendererProcess>();

/** Reads a body up to `limit` bytes; null past it. */
async function boundedBody(message: IncomingMessage, limit: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of message) {
    size += (chunk as Buffer).length;
    if (size > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * One renderer process, from the server's side: its render channel (handed to undici), its host
 * channel (a node:http server of its own), its standard error (bounded). Any message out of the
 * protocol stops it (`stop`), with the reason said once in the log; its task fails with it.
 */
class RendererProcess {
  readonly id = randomUUID();
  readonly exited: Promise<void>;
  readonly child: ChildProcess;
  readonly render: Socket;
  readonly ready: Promise<Socket>;
  private why: string | null = null;
  private killed = false;
  private stderr = '';
  private stderrBytes = 0;
  private window = { start: 0, count: 0 };
  private inFlight = 0;
  /**
   * The lane's own part has had its code evaluated here: from then on a `reading` naming another
   * part may be that code's lie (to get the shell or the player disabled), and is ignored. The
   * shell's and the player's containers are evaluated before the page's part (renderer.ts).
   */
  private laneEvaluated = false;
  /** The part whose `reading` was believed last: a `read` must name it. */
  private readingPart: PartName | null = null;

  constructor(
    code: string,
    readonly spec: RendererSpec,
  ) {
    renderers.set(this.id, this);
    this.child = spawnRenderer(spec.mode, code, [RENDERER_FLAG, this.id], {
      readable: spec.readable(),
      heapMb: spec.heapMb,
      env: spec.env,
    });
    // fd 2, fd 3, fd 4 to fd 7 (fd 8, the seccomp filter, is a file the child reads: no stream here).
    const [, , stderr, render, ...rest] = this.child.stdio as unknown as [null, null, Socket, Socket, ...Socket[]];
    const back = rest.slice(0, 4);
    this.render = render;
    let ready: (socket: Socket) => void = () => undefined;
    let failed: (error: Error) => void = () => undefined;
    this.ready = new Promise<Socket>((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    this.ready.catch(() => undefined);
    const startTimer = setTimeout(() => {
      this.stop(`pas prêt en ${String(START_MS / 1000)} s`);
    }, START_MS);
    startTimer.unref();

    stderr.on('data', (chunk: Buffer) => {
      this.stderrBytes += chunk.length;
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-MAX_TEXT);
      if (this.stderrBytes > MAX_STDERR_BYTES) this.stop('sortie d’erreur au-delà de 1 Mio');
    });
    for (const stream of [stderr, render, ...back]) stream.on('error', () => undefined);
    // Closed by undici (an answer out of the protocol, a deadline, idleness) or by the renderer: it goes.
    render.on('close', () => {
      this.stop();
    });
    for (const connection of back) {
      connection.on('close', () => {
        this.stop();
      });
    }
    this.child.on('error', () => undefined);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', () => {
        resolve();
      }),
    );
    this.child.on('exit', (status, signal) => {
      clearTimeout(startTimer);
      renderers.delete(this.id);
      const last = this.stderr.trim().split('\n').at(-1) ?? '';
      const why =
        this.why ??
        `processus de rendu arrêté (${signal ?? `code ${String(status)}`})${last === '' ? '' : ` : ${last}`}`;
      failed(new RendererStopped(why));
      this.spec.stopped(why, { killed: this.killed, said: this.why !== null });
    });

    const host = createServer({ maxHeaderSize: MAX_MESSAGE_BYTES }, (request, response) => {
      void this.answer(request, response, () => {
        clearTimeout(startTimer);
        ready(render);
      });
    });
    host.keepAliveTimeout = 0;
    host.on('clientError', () => {
      this.stop('message illisible sur le canal vers le serveur');
    });
    for (const connection of back) host.emit('connection', connection);
  }

  /** Killed, or being killed: nothing it says is taken any more. */
  get stopping(): boolean {
    return this.killed || this.why !== null;
  }

  /** Kills it now (SIGKILL), saying why when it is the renderer's fault (the first reason is the one kept). */
  stop(why?: string): void {
    if (why !== undefined) this.why ??= why;
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.killed = true;
      this.child.kill('SIGKILL');
    }
    this.render.destroy();
  }

  /** Whether a `reading` of `part` may be believed (above). */
  private believed(part: PartName): boolean {
    const { lane } = this.spec;
    if (lane === null || part === lane) {
      this.laneEvaluated = lane !== null;
      return true;
    }
    return !this.laneEvaluated;
  }

  /** One message on the host channel: bounded, checked, then answered; anything else stops the renderer. */
  private async answer(request: IncomingMessage, response: ServerResponse, isReady: () => void): Promise<void> {
    const now = Date.now();
    if (now - this.window.start >= 1000) this.window = { start: now, count: 0 };
    this.window.count += 1;
    this.inFlight += 1;
    response.on('close', () => {
      this.inFlight -= 1;
    });
    if (this.window.count > MAX_MESSAGES_PER_SECOND) {
      this.stop(`plus de ${String(MAX_MESSAGES_PER_SECOND)} messages en une seconde`);
      return;
    }
    if (this.inFlight > MAX_MESSAGES_AT_ONCE) {
      this.stop(`plus de ${String(MAX_MESSAGES_AT_ONCE)} messages à la fois`);
      return;
    }
    if (request.method !== 'POST' || request.url !== '/') {
      this.stop('message hors du protocole');
      return;
    }
    const body = await boundedBody(request, MAX_MESSAGE_BYTES).catch(() => null);
    const message = body === null ? null : readMessage(body);
    if (message === null) {
      this.stop(body === null ? 'message trop long' : 'message invalide');
      return;
    }
    const send = ({ status, headers, body: content }: HostAnswer) => {
      const kept = Object.entries(headers).filter(([name]) => ['content-type', 'etag', 'cache-control'].includes(name));
      response.writeHead(status, Object.fromEntries(kept));
      response.end(content);
    };
    if (message.type === 'ready') {
      isReady();
      send(statusOnly(204));
      return;
    }
    const task = this.spec.tasks.get(message.task);
    // A task that has ended (a query still out past the data deadline): nothing to do.
    if (task === undefined) {
      send(statusOnly(410));
      return;
    }
    task.renderer ??= this;
    if (task.renderer !== this) {
      this.stop('message pour la tâche d’un autre processus');
      return;
    }
    send(await this.handle(message, task));
  }

  private async handle(message: Exclude<HostMessage, { type: 'ready' }>, task: TaskState): Promise<HostAnswer> {
    const { host } = task;
    switch (message.type) {
      case 'log':
        host.log(message.level, message.message);
        return statusOnly(204);
      case 'reading':
        if (this.believed(message.part)) {
          this.readingPart = message.part;
          host.reading(message.part, message.version, message.where);
        }
        return statusOnly(204);
      case 'read':
        if (message.part === this.readingPart) {
          this.readingPart = null;
          host.read(message.part, message.version, message.where, message.problem);
        }
        return statusOnly(204);
      case 'api':
      case 'file':
        task.requests += 1;
        if (task.requests > MAX_REQUESTS_PER_TASK) return statusOnly(429);
        return message.type === 'api' ? host.api(message.url) : host.file(message.url, message.etag);
    }
  }
}

/** A lane's or a trial's renderers: an undici Pool whose connections are renderer processes. */
function rendererPool(spec: RendererSpec, connections: number, idleMs: number): Pool {
  return new Pool('http://renderer.invalid', {
    connections,
    pipelining: 1,
    maxResponseSize: MAX_ANSWER_BYTES,
    maxHeaderSize: MAX_MESSAGE_BYTES,
    // The deadlines are the page's own (`askRenderer`); these only keep a connection from waiting forever.
    headersTimeout: 0,
    bodyTimeout: 0,
    keepAliveTimeout: idleMs,
    keepAliveMaxTimeout: idleMs,
    connect: (_options, callback) => {
      rendererEntry()
        .then((code) => {
          const renderer = new RendererProcess(code, spec);
          spec.started();
          return renderer.ready;
        })
        .then(
          (socket) => {
            callback(null, socket);
          },
          (error: unknown) => {
            callback(error instanceof Error ? error : new Error(String(error)), null);
          },
        );
    },
  });
}

/**
 * Sends a task to a pool, and waits for its answer: within `queueMs` to start, then `deadlineMs` from
 * its start. The answer is read by `check` (protocol.ts); one it refuses, like one out of the
 * protocol or from a renderer being stopped, stops the renderer that gave it (AnswerRefused).
 */
function askRenderer<T>(
  pool: Dispatcher,
  tasks: Map<string, TaskState>,
  task: RendererTask,
  host: RenderHost,
  { queueMs, deadlineMs }: { queueMs: number; deadlineMs: number },
  check: (value: unknown) => T,
): Promise<T> {
  const token = randomUUID();
  const state: TaskState = { host, requests: 0, renderer: null };
  tasks.set(token, state);
  return new Promise<T>((resolve, reject) => {
    let started = false;
    let settled = false;
    let status = 0;
    const chunks: Buffer[] = [];
    const end = () => {
      settled = true;
      clearTimeout(timer);
      tasks.delete(token);
    };
    const fail = (error: Error) => {
      if (settled) return;
      end();
      reject(Object.assign(error, { started }));
    };
    let timer = setTimeout(() => {
      fail(new NotStarted(`aucun processus de rendu libre en ${String(queueMs)} ms`));
    }, queueMs);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(controller) {
        // Given up while it waited: never sent.
        if (settled) {
          controller.abort(new NotStarted('abandonnée'));
          return;
        }
        started = true;
        clearTimeout(timer);
        timer = setTimeout(() => {
          // Aborted in flight, undici closes the connection: its renderer is killed (`RendererProcess`).
          state.renderer?.stop(`délai de rendu dépassé (${String(deadlineMs)} ms)`);
          controller.abort(new Error(`délai de rendu dépassé (${String(deadlineMs)} ms)`));
          fail(new Error(`délai de rendu dépassé (${String(deadlineMs)} ms)`));
        }, deadlineMs);
      },
      onResponseStart(controller, statusCode, headers) {
        status = statusCode;
        const renderer = renderers.get(String(headers['x-renderer']));
        state.renderer ??= renderer ?? null;
        // An answer that names no renderer of this server, or another one's: out of the protocol.
        if (renderer === undefined || state.renderer !== renderer)
          controller.abort(new AnswerRefused('réponse sans son processus'));
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        if (settled) return;
        end();
        try {
          if (state.renderer?.stopping === true)
            throw new AnswerRefused('processus de rendu arrêté pendant sa réponse');
          if (status !== 200) throw new AnswerRefused(`réponse du rendu en statut ${String(status)}`);
          const answer = readTaskAnswer(Buffer.concat(chunks).toString('utf8'));
          if (answer.ok) resolve(check(answer.value));
          else reject(Object.assign(new Error(answer.message), { started }));
        } catch (error) {
          // A renderer that answers out of the protocol is not asked again.
          state.renderer?.stop(error instanceof Error ? error.message : String(error));
          reject(Object.assign(error as Error, { started }));
        }
      },
      onResponseError(_controller, error) {
        fail(error);
      },
    };
    pool.dispatch(
      {
        path: '/',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, task }),
      },
      handler,
    );
  });
}

// ---------------------------------------------------------------------------------------------
// The pool: lanes, trials, permits.

/** The sandbox this pool runs in: refused where walls are required and the host cannot make them. */
function chooseMode(perLane: number, requireWalls: boolean, probeWalls: () => SandboxProbe, warn: (m: string) => void) {
  if (perLane === 0) return null;
  const probe = probeWalls();
  if (probe.mode === 'bubblewrap') return probe.mode;
  if (requireWalls)
    throw new Error(
      `Les équipes déploient (DEPLOY_TOKENS) mais les processus de rendu ne peuvent pas être isolés : ${probe.why ?? ''}. Le serveur ne démarre pas.`,
    );
  warn(
    `Processus de rendu sans bac à sable du système (${probe.why ?? ''}) : seul le modèle de permissions de Node les protège, ce qui suffit pour la démo et le développement, pas pour le code des équipes.`,
  );
  return probe.mode;
}

/** A path's real place (a live link followed), or the path itself when it is missing. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * A part's own folder: its built `dist/`'s folder (sources and build), or with deploys its folder
 * under DEPLOY_ROOT (its versions, its live link, its trials): its own team's, nothing of another's.
 * Its live version's real place is read too (the version « construit » links to the built `dist/`).
 */
const partFolder = (dist: string): string => dirname(dist);

/** A part's lane: its renderers, the pages waiting for them. */
interface Lane {
  pool: Pool;
  /** Settles once the lane's first renderer has answered its warm-up (its pages' deadlines count from then). */
  warm: Promise<unknown>;
  /** The shell's and the player's live versions its renderers read: another, and the lane is replaced. */
  reads: string;
  evaluated: number;
  recycling: boolean;
  busy: number;
  usedAt: number;
}

export function createRenderPool(options: RenderPoolOptions) {
  const { renderers: perLane, deadlineMs, answerApi, distDirs, env, log, maxHeapMb = 128 } = options;
  const { queueLimitMs = deadlineMs, recycleAfter = 100, trialDeadlineMs = 15_000, trialHeapMb = 256 } = options;
  const { idleMs = 300_000, metrics = createMetrics().site } = options;
  const warn = (message: string) => {
    log.warn(message);
  };
  const mode = chooseMode(perLane, options.requireWalls === true, options.probe ?? (() => probeSandbox()), warn);
  const permits = createPermits({ anyVersion: perLane === 0 });
  const status = { replaced: 0, recycled: 0 };
  const tasks = new Map<string, TaskState>();
  const lanes = new Map<PartName, Lane>();
  let closing = false;
  let trying: PartName | null = null;
  let trialQueue: Promise<unknown> = Promise.resolve();
  const outcomes = new Map<string, Promise<TrialOutcome>>();
  const closingPools = new Set<Pool>();

  /** What the shell's and the player's live versions are now (a deploy switches them). */
  const sharedReads = () => [real(distDirs.shell), real(distDirs.player)].join('|');

  const stopped = (why: string, { killed, said }: { killed: boolean; said: boolean }) => {
    if (closing || (killed && !said)) {
      metrics.renderersStopped.inc({ reason: 'retired' });
      return;
    }
    metrics.renderersStopped.inc({ reason: killed ? 'deadline' : 'crashed' });
    warn(killed ? `Processus de rendu arrêté : ${why}` : why);
  };

  function spec(lane: PartName | null, heapMb: number, readable: () => string[]): RendererSpec {
    const started = () => {
      metrics.renderersStarted.inc();
    };
    return { mode: mode ?? 'permissions', lane, heapMb, readable, env, tasks, stopped, started };
  }

  /** A lane's pool, warmed up: its first renderer started before any page's deadline runs. */
  function newLane(part: PartName): Lane {
    const reads = sharedReads();
    const own = distDirs[part];
    // The shell's and the player's live versions by their built folder's path (a `dist/`, or the
    // `live` link with deploys), which the sandbox binds as the version it names now (sandbox.ts).
    const readable = () => [partFolder(own), real(own), distDirs.shell, distDirs.player];
    const pool = rendererPool(spec(part, maxHeapMb, readable), perLane, idleMs);
    const warm = askRenderer(
      pool,
      tasks,
      { warmUp: true },
      idleHost,
      { queueMs: START_MS, deadlineMs: START_MS },
      () => null,
    ).catch(() => undefined);
    return { pool, warm, reads, evaluated: 0, recycling: false, busy: 0, usedAt: Date.now() };
  }

  function retire(pool: Pool) {
    closingPools.add(pool);
    void pool
      .close()
      .catch(() => undefined)
      .finally(() => closingPools.delete(pool));
  }

  /** Fresh renderers for a lane, put in service once warm; the old ones finish their pages and stop. */
  function recycle(part: PartName, lane: Lane, counted: boolean) {
    lane.recycling = true;
    const next = newLane(part);
    void next.warm.then(() => {
      const old = lane.pool;
      Object.assign(lane, { pool: next.pool, warm: next.warm, reads: next.reads, evaluated: 0, recycling: false });
      if (counted) status.recycled += 1;
      retire(old);
    });
  }

  function laneOf(part: PartName): Lane {
    let lane = lanes.get(part);
    if (lane === undefined) {
      lane = newLane(part);
      lanes.set(part, lane);
    } else if (!lane.recycling && lane.reads !== sharedReads()) {
      // The shell or the player deployed: the lane's renderers read the new live version's folder.
      recycle(part, lane, false);
    }
    return lane;
  }

  // A lane whose part has had no page for `idleMs` stops its renderers: a site nobody visits holds
  // the server alone, and a part's renderers start again with its next page.
  const idle = setInterval(
    () => {
      for (const [part, lane] of lanes) {
        if (lane.busy > 0 || Date.now() - lane.usedAt < idleMs || lane.recycling) continue;
        lanes.delete(part);
        retire(lane.pool);
      }
    },
    Math.min(idleMs, 60_000),
  );
  idle.unref();

  /** This pool's renderer processes (the lanes' and the trial's). */
  const mine = () => [...renderers.values()].filter((renderer) => renderer.spec.tasks === tasks);

  /** The pages rendered in this process, when there is no renderer process (RENDERERS=0). */
  const inProcess = mode === null ? createPageRenderer() : null;

  /** A part's container has been evaluated in a lane: past `recycleAfter` per renderer, fresh renderers. */
  function evaluated(part: PartName) {
    const lane = lanes.get(part);
    if (lane === undefined || mode === null) return;
    lane.evaluated += 1;
    if (lane.evaluated >= recycleAfter * perLane && !lane.recycling) recycle(part, lane, true);
  }

  /**
   * One page in its part's lane: its turn, its deadline from its start in a renderer, its answer
   * checked (protocol.ts); a container whose evaluation never ends is disabled, and a renderer that
   * fails is replaced, the page then left to the browser.
   */
  async function renderIn(part: PartName, task: Omit<RenderTask, 'disabled' | 'allowed'>): Promise<RenderOutcome> {
    let reading: { part: PartName; version: string; where: string } | null = null;
    const host: RenderHost = {
      api: (url) => answerApi(url, part).catch(() => statusOnly(502)),
      file: (url, etag) => answerFile(task.remotes, url, etag),
      log: (level, message) => {
        if (level === 'warn') log.warn(message);
        else log.debug(message);
      },
      reading(name, version, where) {
        reading = { part: name, version, where };
      },
      read(name, version, where, problem) {
        reading = null;
        evaluated(part);
        permits.judged(name, version, where, problem);
      },
    };
    const full: RenderTask = { ...task, ...permits.snapshot() };
    if (inProcess !== null) return inProcess.run(full, host);
    const lane = laneOf(part);
    lane.busy += 1;
    lane.usedAt = Date.now();
    try {
      await lane.warm;
      if (lane.pool.stats.queued >= MAX_WAITING) {
        return {
          kind: 'browser',
          reason: `rendu serveur non commencé : plus de ${String(MAX_WAITING)} pages en attente`,
        };
      }
      return await askRenderer(lane.pool, tasks, full, host, { queueMs: queueLimitMs, deadlineMs }, (value) =>
        readOutcome(value, task.origin),
      );
    } catch (error) {
      if (error instanceof NotStarted)
        return { kind: 'browser', reason: `rendu serveur non commencé : ${error.message}` };
      if (error instanceof AnswerRefused) {
        // Its renderer is stopped: another starts.
        status.replaced += 1;
        log.warn(`Rendu de ${task.pathname} refusé, processus de rendu remplacé : ${error.message}`);
        return { kind: 'browser', reason: error.message };
      }
      const evaluating = reading as { part: PartName; version: string; where: string } | null;
      if (evaluating !== null) {
        // Its container never finished evaluating: that version is not evaluated again (its file
        // changing makes a new version), and the part's areas render in the browser meanwhile.
        const reason = `son évaluation ne finit pas (plus de ${String(deadlineMs)} ms)`;
        permits.disable(evaluating.part, evaluating.version, evaluating.where, reason);
        log.warn(`Conteneur serveur de « ${evaluating.part} » désactivé (${evaluating.where}) : ${reason}`);
      }
      status.replaced += 1;
      const message = (error as { message?: unknown } | null)?.message;
      return {
        kind: 'browser',
        reason: `rendu abandonné, processus de rendu remplacé : ${typeof message === 'string' ? message : String(error)}`,
      };
    } finally {
      lane.busy -= 1;
    }
  }

  // The pages waiting for a renderer, in every lane's pool, read when the metrics are scraped.
  const unwatchQueue = metrics.renderQueue.watch(() => [
    { value: [...lanes.values()].reduce((sum, lane) => sum + lane.pool.stats.queued, 0) },
  ]);

  /** A page: in its part's lane, or here when no page has its path. */
  async function render(task: Omit<RenderTask, 'disabled' | 'allowed'>): Promise<RenderOutcome> {
    if (task.match === null) return withoutPage(task.pathname);
    // Counted by the page's pattern (`residences/:id`), never by its address (docs/deploy.md, « Metrics »).
    const route = `/${task.match.page.path}`;
    const timer = metrics.renderSeconds.startTimer({ route });
    const outcome = await renderIn(task.match.page.remote, task);
    timer();
    metrics.pagesRendered.inc({ route, way: outcome.kind });
    return outcome;
  }

  /**
   * A trial (docs/deploy.md, « The trial »): one at a time, each in a fresh sandboxed renderer that
   * serves no visitor, stopped once it has answered (no trial sees what one before it left). A
   * remote's trial reads its new version's folder and the shell's and player's live versions; the
   * shell's and the player's render the home page, so they read the live parts too.
   */
  async function alone(task: TrialTask): Promise<TrialOutcome> {
    const { part, dir } = task.trial;
    const others: PartName[] =
      part === 'shell' || part === 'player' ? PARTS.map(({ name }) => name) : ['shell', 'player'];
    const readable = () => [dir, ...others.filter((name) => name !== part).map((name) => distDirs[name])];
    const pool = rendererPool(spec(null, trialHeapMb, readable), 1, idleMs);
    trying = part;
    const host: RenderHost = {
      api: (url) => answerApi(url, null).catch(() => statusOnly(502)),
      file: (url, etag) => answerFile(task.remotes, url, etag),
      log(level, message) {
        if (level === 'warn') log.warn(message);
      },
      reading: () => undefined,
      read: () => undefined,
    };
    try {
      const outcome = await askRenderer(
        pool,
        tasks,
        task,
        host,
        { queueMs: START_MS, deadlineMs: trialDeadlineMs },
        readTrialOutcome,
      );
      if (outcome.ok) permits.trust(part, outcome.version);
      return outcome;
    } catch (error) {
      const message = (error as { message?: unknown } | null)?.message;
      const said = typeof message === 'string' ? message : String(error);
      const reason =
        error instanceof NotStarted
          ? `le processus d'essai n'a pas démarré en ${String(START_MS / 1000)} s`
          : said.startsWith('délai de rendu dépassé')
            ? `son essai ne finit pas en ${String(trialDeadlineMs / 1000)} s (une boucle sans fin ?)`
            : `son essai s'arrête : ${said}`;
      return { ok: false, reason };
    } finally {
      trying = null;
      await pool.destroy().catch(() => undefined);
    }
  }

  /** Tries a part's container in a folder (a deploy's version before its switch), after the trials before it. */
  function trial(task: TrialTask): Promise<TrialOutcome> {
    const outcome = trialQueue.then(() => alone(task));
    trialQueue = outcome.catch(() => undefined);
    return outcome;
  }

  return {
    render,
    trial,
    /**
     * A part's container seen in a version not tried yet (copied by hand, or switched by another
     * instance): tried once in the background; its pages render in the browser meanwhile. The
     * outcome of that version's trial, shared by whoever asks.
     */
    tryOnce: (part: PartName, version: string, task: () => TrialTask): Promise<TrialOutcome> => {
      const key = `${part}@${version}`;
      let pending = outcomes.get(key);
      if (pending === undefined) {
        pending = trial(task()).then((outcome) => {
          if (outcome.ok && outcome.version !== version) outcomes.delete(key);
          if (!outcome.ok) {
            log.warn(`Conteneur serveur de « ${part} » refusé à l'essai : ${outcome.reason}`);
            permits.judged(part, version, 'ce serveur', outcome.reason);
          }
          return outcome;
        });
        outcomes.set(key, pending);
      }
      return pending;
    },
    /** A version of a part's container the renderers may evaluate: tried, or trusted. */
    allowed: permits.allowed,
    /** A version there when the server started: the admin's, used as it is (with the deadline's guard). */
    trust: permits.trust,
    /** What the renderers found of each part's container beyond its file, by version (readiness). */
    problems: (): Map<PartName, { version: string; status: PartFileStatus }> => permits.problems(),
    status: (): PoolStatus => ({ perLane, sandbox: mode ?? 'aucun', ...status, trying }),
    /** The renderer processes running now (tests, and the memory benchmark, count them). */
    pids: (): number[] => mine().flatMap((renderer) => renderer.child.pid ?? []),
    close: async () => {
      closing = true;
      unwatchQueue();
      clearInterval(idle);
      const pools = [...[...lanes.values()].map((lane) => lane.pool), ...closingPools];
      lanes.clear();
      await Promise.all(pools.map((pool) => pool.destroy().catch(() => undefined)));
      const left = mine();
      for (const renderer of left) renderer.stop();
      await Promise.all(left.map((renderer) => renderer.exited));
    },
  };
}

/** The host of a warm-up, which asks nothing. */
const idleHost: RenderHost = {
  api: () => Promise.resolve(statusOnly(403)),
  file: () => Promise.resolve(statusOnly(403)),
  log: () => undefined,
  reading: () => undefined,
  read: () => undefined,
};

export type RenderPool = ReturnType<typeof createRenderPool>;
