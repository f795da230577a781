import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import type { PartName } from '@collectif/shared';
import { MAX_MESSAGE_BYTES, MAX_STDERR_BYTES, MAX_TEXT } from './protocol';
import { RENDERER_FLAG } from './renderer';
import { HostChannel, type TaskRenderer, type TaskState } from './renderer-host';
import { spawnRenderer, type SandboxMode } from './sandbox';

// Renderer processes from the server's side (docs/rendering.md, « The channel »): each one's start in
// its sandbox, its host channel's server (what it does with each message: `renderer-host.ts`) and its
// stop.

/** How long a renderer may take to load its code before it is given up (and its page left to the browser). */
export const START_MS = 60_000;

/** Why a renderer's work ended without an answer. */
export class RendererStopped extends Error {}

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

/**
 * One renderer process, from the server's side: its render channel (handed to undici), its host
 * channel (a node:http server of its own), its standard error (bounded). Any message out of the
 * protocol stops it (`stop`), with the reason said once in the log; its task fails with it.
 */
export class RendererProcess implements TaskRenderer {
  readonly id = randomUUID();
  readonly exited: Promise<void>;
  readonly child: ChildProcess;
  readonly render: Socket;
  readonly ready: Promise<Socket>;
  private why: string | null = null;
  private killed = false;
  private stderr = '';
  private stderrBytes = 0;
  /** Killed, or being killed: nothing it says is taken any more (set by `stop`). */
  stopping = false;

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

    const channel = new HostChannel(this, spec.lane, spec.tasks, () => {
      clearTimeout(startTimer);
      ready(render);
    });
    const host = createServer({ maxHeaderSize: MAX_MESSAGE_BYTES }, channel.listener);
    host.keepAliveTimeout = 0;
    host.on('clientError', () => {
      this.stop('message illisible sur le canal vers le serveur');
    });
    for (const connection of back) host.emit('connection', connection);
  }

  /** Kills it now (SIGKILL), saying why when it is the renderer's fault (the first reason is the one kept). */
  stop(why?: string): void {
    if (why !== undefined) this.why ??= why;
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.killed = true;
      this.child.kill('SIGKILL');
    }
    this.stopping = this.killed || this.why !== null;
    this.render.destroy();
  }
}
