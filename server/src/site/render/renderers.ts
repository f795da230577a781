import { execFile, fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { dirname, join, parse, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { PartName } from '@collectif/shared';
import type { RenderOutcome } from './page';
import type { TrialOutcome, TrialTask } from '../../deploy/trial';
import { RENDERER_FLAG, type ApiAnswer, type RenderHost, type RenderTask } from './renderer';

/**
 * Renderer processes (docs/rendering.md, « Renderers »): a part's server code runs in a process of
 * its own, never in the server's, and that process holds nothing worth taking:
 * - its environment is an allow-list (RENDERER_ENV, config.ts), with no secret;
 * - it runs under Node's permission model: it reads its own code, `node_modules` and the parts'
 *   folders, and nothing else (not the content, the accounts, `/proc/<pid>/environ`); it writes no
 *   file, starts no process, no thread and no addon;
 * - it reaches the site only through its IPC channel, which answers a page's /api GET as to an
 *   anonymous visitor (`visitorApi` in responder.ts), and every message it sends is checked here.
 * A process that passes its deadline or its heap is killed (SIGKILL) and replaced.
 */

/** What the server sends a renderer. */
export type ToRenderer =
  | { type: 'task'; id: number; task: RenderTask | TrialTask | { warmUp: true } }
  | { type: 'api'; request: number; answer: ApiAnswer };

/** What a renderer sends the server (checked: its code is a part's). */
export type FromRenderer =
  | { type: 'ready' }
  | { type: 'event'; id: number; event: 'started' | 'log' | 'reading' | 'read'; args: unknown[] }
  | { type: 'api'; id: number; request: number; url: string }
  | { type: 'done'; id: number; value: unknown }
  | { type: 'failed'; id: number; message: string };

/** The longest /api address a renderer may ask for, and the longest text it may log. */
const MAX_URL = 4096;
const MAX_TEXT = 2000;

const text = (value: unknown): string | null =>
  typeof value === 'string' ? (value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value) : null;

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

/** Every `node_modules` folder from `dir` up (where the renderer's npm packages are found). */
function packageFolders(dir: string): string[] {
  const found: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    const folder = join(at, 'node_modules');
    if (existsSync(folder)) found.push(folder);
    if (at === parse(at).root) return found;
  }
}

/** A path and, when it is a link, where it leads (the permission model checks the path asked). */
function withTarget(path: string): string[] {
  try {
    const real = realpathSync(path);
    return real === path ? [path] : [path, real];
  } catch {
    return [path];
  }
}

export interface SandboxOptions {
  /** The folders of the parts (their dist/, DEPLOY_ROOT): what a renderer may read beyond its code. */
  readable: readonly string[];
  heapMb: number;
  /** Its environment, already cut to RENDERER_ENV (the site's settings: `rendererEnv`). */
  env: Readonly<Record<string, string>>;
}

/**
 * The modules the server was started with `--import` (the browser tests' clock, an admin's
 * preload), but its TypeScript loader: a renderer starts with them too, and may read them.
 */
export function preloads(execArgv: readonly string[] = process.execArgv): string[] {
  const found: string[] = [];
  execArgv.forEach((flag, index) => {
    const module = flag === '--import' ? execArgv[index + 1] : flag.startsWith('--import=') ? flag.slice(9) : undefined;
    if (module !== undefined && !/(^|\/)tsx(\.mjs)?$|^tsx\//.test(module)) found.push(resolve(module));
  });
  return found;
}

/** Node's flags for a renderer: the permission model, what it may read, its preloads, and its heap. */
export function sandboxFlags(code: string, { readable, heapMb }: SandboxOptions): string[] {
  const major = Number(process.versions.node.split('.')[0]);
  const imports = preloads();
  const paths = [dirname(code), ...packageFolders(dirname(code)), ...imports, ...readable].flatMap(withTarget);
  return [
    ...imports.flatMap((module) => ['--import', module]),
    major >= 22 ? '--permission' : '--experimental-permission',
    ...[...new Set(paths)].map((path) => `--allow-fs-read=${path}`),
    `--max-old-space-size=${String(heapMb)}`,
    // A young generation of 8 MB rather than V8's 32: measured with threads, 25 MB less each, and
    // the same throughput.
    '--max-semi-space-size=4',
    '--disable-warning=ExperimentalWarning',
  ];
}

type Result = RenderOutcome | TrialOutcome | null;

/** A task as a renderer takes it. */
export type RendererTask = Extract<ToRenderer, { type: 'task' }>['task'];

interface Running {
  id: number;
  host: RenderHost;
  resolve: (value: Result) => void;
  reject: (error: Error) => void;
}

/** Why a renderer's work ended without an answer. */
export class RendererStopped extends Error {}

let tasks = 0;

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

  constructor(code: string, sandbox: SandboxOptions, onExit: (renderer: Renderer, why: string) => void) {
    this.child = fork(code, [RENDERER_FLAG], {
      env: { ...sandbox.env },
      execArgv: sandboxFlags(code, sandbox),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
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
      this.receive(message, ready);
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

  private receive(sent: unknown, ready: () => void): void {
    if (typeof sent !== 'object' || sent === null) return;
    const message = sent as FromRenderer;
    if (message.type === 'ready') {
      ready();
      return;
    }
    const running = this.running;
    if (running === null || message.id !== running.id) return;
    const { host } = running;
    switch (message.type) {
      case 'event': {
        const args = Array.isArray(message.args) ? message.args.map(text) : [];
        const [a, b, c, d] = args;
        if (message.event === 'started') host.started();
        else if (message.event === 'log' && b !== null && b !== undefined) host.log(a === 'warn' ? 'warn' : 'debug', b);
        else if (message.event === 'reading' && a && b !== null && b !== undefined && c !== null && c !== undefined)
          host.reading(a as PartName, b, c);
        else if (message.event === 'read' && a && b !== null && b !== undefined && c !== null && c !== undefined)
          host.read(a as PartName, b, c, d ?? null);
        return;
      }
      case 'api': {
        const { request, url } = message;
        if (typeof request !== 'number' || typeof url !== 'string' || url.length > MAX_URL) return;
        void host.api(url).then((answer) => {
          if (!this.exited && this.child.connected)
            this.child.send({ type: 'api', request, answer } satisfies ToRenderer);
        });
        return;
      }
      case 'done':
        this.running = null;
        running.resolve(message.value as Result);
        return;
      case 'failed':
        this.running = null;
        running.reject(new Error(text(message.message) ?? 'échec'));
        return;
      default:
    }
  }

  run(task: RendererTask, host: RenderHost, signal?: AbortSignal): Promise<Result> {
    tasks += 1;
    const id = tasks;
    const answer = new Promise<Result>((resolve, reject) => {
      if (this.exited) {
        reject(new RendererStopped('processus de rendu arrêté'));
        return;
      }
      this.running = { id, host, resolve, reject };
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
      const { resolve: done, reject: failed } = this.running;
      this.running.resolve = (value) => {
        settle();
        done(value);
      };
      this.running.reject = (error) => {
        settle();
        failed(error);
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
  /** Told when a process stops unexpectedly (not killed by its pool). */
  warn: (message: string) => void;
}

/**
 * A set of renderer processes, kept at `count`: a task waits for a free one (the caller bounds the
 * queue), one that stops is replaced.
 */
export function startRenderers({ count, warn, ...sandbox }: RenderersOptions) {
  let closing = false;
  const processes = new Set<Renderer>();
  const free: Renderer[] = [];
  const waiting: ((renderer: Renderer) => void)[] = [];
  const code = rendererEntry();

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
    const renderer = new Renderer(file, sandbox, (stopped, why) => {
      processes.delete(stopped);
      const at = free.indexOf(stopped);
      if (at !== -1) free.splice(at, 1);
      if (closing) return;
      if (!killed.delete(stopped)) warn(why);
      void start();
    });
    processes.add(renderer);
    try {
      await renderer.ready;
      release(renderer);
    } catch {
      // Stopped before it was ready: its exit started another.
    }
    return renderer;
  }

  /** Processes stopped by the pool (a deadline, an abort): replaced without a warning. */
  const killed = new Set<Renderer>();
  const started = Array.from({ length: count }, () => start());

  return {
    /** Every process has loaded its code (its first page's deadline counts from then). */
    ready: Promise.allSettled(started.map(async (starting) => (await starting)?.ready)),
    async run(task: RendererTask, host: RenderHost, signal?: AbortSignal): Promise<Result> {
      const renderer =
        free.shift() ??
        (await new Promise<Renderer>((resolve, reject) => {
          const take = (given: Renderer) => {
            signal?.removeEventListener('abort', give);
            resolve(given);
          };
          const give = () => {
            waiting.splice(waiting.indexOf(take), 1);
            reject(signal?.reason as Error);
          };
          waiting.push(take);
          signal?.addEventListener('abort', give, { once: true });
        }));
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
