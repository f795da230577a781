import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { PartName } from '@collectif/shared';
import {
  MAX_MESSAGE_BYTES,
  MAX_MESSAGES_AT_ONCE,
  MAX_MESSAGES_PER_SECOND,
  MAX_REQUESTS_PER_TASK,
  MAX_STDERR_BYTES,
  MAX_TEXT,
  readMessage,
  type HostAnswer,
  type HostMessage,
  type RenderHost,
} from './protocol';
import { RENDERER_FLAG } from './renderer';
import { statusOnly } from './renderer-requests';
import { spawnRenderer, type SandboxMode } from './sandbox';

// Renderer processes from the server's side (docs/rendering.md, « The channel »): each one's start in
// its sandbox, its host channel (the HTTP server that answers its requests) and its stop.

/** How long a renderer may take to load its code before it is given up (and its page left to the browser). */
export const START_MS = 60_000;

/** Why a renderer's work ended without an answer. */
export class RendererStopped extends Error {}

/** A task in progress, found by its token when its renderer asks or tells. */
export interface TaskState {
  host: RenderHost;
  /** Requests (/api and files) it has made: bounded per task. */
  requests: number;
  /** The renderer that took it (its first message on the host channel, or its answer, says which). */
  renderer: RendererProcess | null;
}

/** What starts renderers for a lane or a trial. */
export interface RendererSpec {
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

/** The renderer processes of this server, by the id each is started with (its answers name it). */
export const renderers = new Map<string, RendererProcess>();

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
export class RendererProcess {
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
   * shell's and the player's containers are evaluated before the page's part (render-page.ts).
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
