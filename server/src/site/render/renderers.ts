import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { PartName } from '@collectif/shared';
import { MAX_REQUESTS_PER_TASK, MAX_TEXT, readMessage, type FromRenderer, type ToRenderer } from './protocol';
import { RENDERER_FLAG } from './renderer';
import { siteMetrics } from '../../metrics/metrics';
import { spawnRenderer, type SandboxMode, type SandboxOptions } from './sandbox';
import type { ApiAnswer, RenderHost, RendererTask } from './tasks';

/**
 * Renderer processes (docs/rendering.md, « Renderers »): a part's server code runs in a process of
 * its own, behind the operating system's walls (sandbox.ts), never in the server's. Every message
 * it sends is checked (protocol.ts), its requests are bounded per task, and a process that passes
 * its deadline or its heap is killed (SIGKILL) and replaced.
 */

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

interface Running {
  id: number;
  host: RenderHost;
  /** Requests (/api and files) it has made: bounded per task. */
  requests: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** Why a renderer's work ended without an answer. */
export class RendererStopped extends Error {}

let tasks = 0;

const TOO_MANY: ApiAnswer = { status: 429, headers: {}, body: new Uint8Array() };

/** One renderer process: one task at a time. */
class Renderer {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  /** Stopped, or being killed: given no more tasks. */
  exited = false;
  private running: Running | null = null;
  /** Settles when the task in progress has ended, answered or not. */
  finished: Promise<void> = Promise.resolve();
  /** The end of its standard error, said when it stops unexpectedly. */
  private stderr = '';
  /**
   * The one part whose pages this process renders has had its code evaluated here: from then on, a
   * `reading` naming another part may be that code's lie (to get another part disabled), and is
   * ignored. The shell's and the player's containers load before the page's part (page.ts).
   */
  private laneEvaluated = false;
  /** The part whose `reading` was believed last: a `read` must name it. */
  private readingPart: PartName | null = null;

  constructor(
    code: string,
    mode: SandboxMode,
    sandbox: SandboxOptions,
    private readonly lane: PartName | null,
    onExit: (renderer: Renderer, why: string) => void,
  ) {
    this.child = spawnRenderer(mode, code, [RENDERER_FLAG], sandbox);
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-MAX_TEXT);
    });
    let ready: () => void = () => undefined;
    let failed: (error: Error) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    // Nobody may be waiting for it (a renderer replaced before it was asked for).
    this.ready.catch(() => undefined);
    this.child.on('message', (message: unknown) => {
      const checked = readMessage(message);
      if (checked?.type === 'ready') ready();
      else if (checked !== null) this.receive(checked);
    });
    this.child.on('error', () => undefined);
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      const why = `processus de rendu arrêté (${signal ?? `code ${String(code)}`})${this.stderr === '' ? '' : ` : ${this.stderr.trim().split('\n').at(-1) ?? ''}`}`;
      failed(new RendererStopped(why));
      const running = this.running;
      this.running = null;
      running?.reject(new RendererStopped(why));
      onExit(this, why);
    });
  }

  /** Whether a `reading` of `part` may be believed (above). */
  private believed(part: PartName): boolean {
    if (this.lane === null || part === this.lane) {
      this.laneEvaluated = this.lane !== null;
      return true;
    }
    return !this.laneEvaluated;
  }

  private answer(request: number, asked: Promise<ApiAnswer>): void {
    void asked.then((answer) => {
      if (!this.exited && this.child.connected)
        this.child.send({ type: 'answer', request, answer } satisfies ToRenderer);
    });
  }

  private receive(message: Exclude<FromRenderer, { type: 'ready' }>): void {
    const running = this.running;
    if (running === null || message.id !== running.id) return;
    const { host } = running;
    switch (message.type) {
      case 'started':
        host.started();
        return;
      case 'log':
        host.log(message.level, message.message);
        return;
      case 'reading':
        if (!this.believed(message.part)) return;
        this.readingPart = message.part;
        host.reading(message.part, message.version, message.where);
        return;
      case 'read':
        if (message.part !== this.readingPart) return;
        this.readingPart = null;
        host.read(message.part, message.version, message.where, message.problem);
        return;
      case 'api':
      case 'file': {
        running.requests += 1;
        if (running.requests > MAX_REQUESTS_PER_TASK) {
          this.answer(message.request, Promise.resolve(TOO_MANY));
          return;
        }
        this.answer(
          message.request,
          message.type === 'api' ? host.api(message.url) : host.file(message.url, message.etag),
        );
        return;
      }
      case 'done':
        this.running = null;
        running.resolve(message.value);
        return;
      case 'failed':
        this.running = null;
        running.reject(new Error(message.message));
        return;
      default:
    }
  }

  run(task: RendererTask, host: RenderHost, signal?: AbortSignal): Promise<unknown> {
    tasks += 1;
    const id = tasks;
    const answer = new Promise<unknown>((resolve, reject) => {
      if (this.exited) {
        reject(new RendererStopped('processus de rendu arrêté'));
        return;
      }
      const abort = () => {
        const reason = signal?.reason as unknown;
        reject(reason instanceof Error ? reason : new Error(String(reason)));
        this.running = null;
        this.kill();
      };
      if (signal?.aborted === true) {
        abort();
        return;
      }
      signal?.addEventListener('abort', abort, { once: true });
      const settle = () => signal?.removeEventListener('abort', abort);
      this.running = {
        id,
        host,
        requests: 0,
        resolve: (value) => {
          settle();
          resolve(value);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      this.child.send({ type: 'task', id, task } satisfies ToRenderer);
    });
    this.finished = answer.then(
      () => undefined,
      () => undefined,
    );
    return answer;
  }

  kill(): void {
    if (this.exited) return;
    this.exited = true;
    this.child.kill('SIGKILL');
  }
}

export interface RenderersOptions extends SandboxOptions {
  /** How many processes. */
  count: number;
  /** Behind bubblewrap's walls, or with Node's permission model alone (sandbox.ts, `probeSandbox`). */
  mode: SandboxMode;
  /** The one part whose pages these processes render (null: a trial's, which renders none for visitors). */
  lane: PartName | null;
  /** Told when a process stops unexpectedly (not killed by its pool). */
  warn: (message: string) => void;
}

/**
 * A set of renderer processes, kept at `count`: a task waits for a free one (the caller bounds the
 * queue), one that stops is replaced.
 */
export function startRenderers({ count, warn, mode, lane, ...sandbox }: RenderersOptions) {
  let closing = false;
  const processes = new Set<Renderer>();
  const free: Renderer[] = [];
  const waiting: ((renderer: Renderer) => void)[] = [];
  const code = rendererEntry();
  /** Processes stopped by the pool (a deadline, an abort): replaced without a warning. */
  const killed = new Set<Renderer>();

  function release(renderer: Renderer) {
    if (renderer.exited || closing) return;
    const next = waiting.shift();
    if (next === undefined) free.push(renderer);
    else next(renderer);
  }

  async function start(): Promise<Renderer | null> {
    const file = await code;
    // Closed while its code was being built: none started.
    if (closing) return null;
    const renderer = new Renderer(file, mode, sandbox, lane, (stopped, why) => {
      processes.delete(stopped);
      const at = free.indexOf(stopped);
      if (at !== -1) free.splice(at, 1);
      if (closing) {
        siteMetrics.renderersStopped.inc({ reason: 'retired' });
        return;
      }
      const byPool = killed.delete(stopped);
      siteMetrics.renderersStopped.inc({ reason: byPool ? 'deadline' : 'crashed' });
      if (!byPool) warn(why);
      void start();
    });
    siteMetrics.renderersStarted.inc();
    processes.add(renderer);
    try {
      await renderer.ready;
      release(renderer);
    } catch {
      // Stopped before it was ready: its exit started another.
    }
    return renderer;
  }

  /** A free renderer, or the next one freed (unless the task is abandoned first). */
  function take(signal?: AbortSignal): Promise<Renderer> {
    const ready = free.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise<Renderer>((resolve, reject) => {
      const given = (renderer: Renderer) => {
        signal?.removeEventListener('abort', give);
        resolve(renderer);
      };
      const give = () => {
        waiting.splice(waiting.indexOf(given), 1);
        reject(signal?.reason as Error);
      };
      waiting.push(given);
      signal?.addEventListener('abort', give, { once: true });
    });
  }

  const started = Array.from({ length: count }, () => start());

  return {
    /** Every process has loaded its code (its first page's deadline counts from then). */
    ready: Promise.allSettled(started.map(async (starting) => (await starting)?.ready)),
    /** Runs a task in a free process: its answer as sent, to be checked by the caller (protocol.ts). */
    async run(task: RendererTask, host: RenderHost, signal?: AbortSignal): Promise<unknown> {
      const renderer = await take(signal);
      const kill = () => killed.add(renderer);
      signal?.addEventListener('abort', kill, { once: true });
      try {
        return await renderer.run(task, host, signal);
      } finally {
        signal?.removeEventListener('abort', kill);
        release(renderer);
      }
    },
    /** Stops each process once its task in progress has ended. */
    async retire(): Promise<void> {
      closing = true;
      await Promise.all(
        [...processes].map(async (renderer) => {
          await renderer.finished;
          renderer.kill();
        }),
      );
    },
    /** Stops every process now. */
    async destroy(): Promise<void> {
      closing = true;
      const running = [...processes].filter(
        (renderer) => renderer.child.exitCode === null && renderer.child.signalCode === null,
      );
      const stopped = running.map((renderer) => new Promise((resolve) => renderer.child.once('exit', resolve)));
      for (const renderer of running) renderer.kill();
      await Promise.all(stopped);
    },
    /** The processes' ids (tests, and the memory benchmark, count them). */
    pids: (): number[] => [...processes].flatMap((renderer) => renderer.child.pid ?? []),
  };
}

export type Renderers = ReturnType<typeof startRenderers>;
