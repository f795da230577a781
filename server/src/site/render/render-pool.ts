import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { PartName } from '@collectif/shared';
import type { PartFileStatus } from './bundles';
import type { RenderOutcome } from './page';
import type { ApiReply, RenderTask, WarmUp, WorkerMessage } from './render-worker';

/**
 * Pages rendered in a pool of worker threads (docs/rendering.md, « Rendering in workers »). A
 * part's server code runs there, never on the main thread, which keeps HTTP, /api, the
 * now-playing stream and the page cache: a bundle that loops forever costs one worker, which is
 * terminated at the deadline and replaced, and the page is answered for the browser to render.
 * Piscina: a pool that terminates a thread whose task is aborted, and replaces it.
 */

export interface RenderPoolOptions {
  /** How many threads render (RENDER_WORKERS). */
  workers: number;
  /** Past this, the render is abandoned and its thread terminated. */
  deadlineMs: number;
  /** A page's /api request, answered on the main thread. */
  answerApi: (url: string) => Promise<Omit<ApiReply, 'id'>>;
  log: { warn: (message: string) => void; debug: (message: string) => void };
  /** A worker's heap limit. */
  maxHeapMb?: number;
  /**
   * How long a page may wait for a free thread; past it, it is answered for the browser to render
   * (a site over its capacity answers at once rather than late).
   */
  queueLimitMs?: number;
  /**
   * After this many new server bundles evaluated (by each thread, on average), every thread is
   * replaced by a fresh one: a realm keeps some of each old bundle's code (measured: 0.25 MB a
   * redeploy and a thread).
   */
  recycleAfter?: number;
}

/** What `/readyz` says of the render threads. */
export interface PoolStatus {
  threads: number;
  /** Threads terminated at a deadline or past their heap limit, and replaced. */
  replaced: number;
  /** Times every thread was replaced after `recycleAfter` bundle evaluations each. */
  recycled: number;
}

type Threads = Piscina<RenderTask | WarmUp, RenderOutcome | null>;

export function createRenderPool({
  workers,
  deadlineMs,
  answerApi,
  log,
  maxHeapMb = 128,
  queueLimitMs = deadlineMs,
  recycleAfter = 100,
}: RenderPoolOptions) {
  function threads(): { pool: Threads; ready: Promise<unknown> } {
    const pool: Threads = new Piscina({
      filename: new URL('./render-thread.mjs', import.meta.url).href,
      minThreads: workers,
      maxThreads: workers,
      idleTimeout: Number.POSITIVE_INFINITY,
      // A young generation of 8 MB rather than V8's 32: measured, 25 MB less a thread, and the same
      // throughput.
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 8 },
    });
    // Every thread loads the server's code (React, the shared package) before its first page: the
    // deadline of a page counts from a ready pool, not from a thread still starting.
    return { pool, ready: Promise.allSettled(Array.from({ length: workers }, () => pool.run({ warmUp: true }))) };
  }
  let current = threads();
  const status: PoolStatus = { threads: workers, replaced: 0, recycled: 0 };
  /** New bundles evaluated by the current threads. */
  let evaluated = 0;
  let recycling: { pool: Threads } | null = null;
  /**
   * Fresh threads, put in service once they are ready; the old ones finish their pages and stop.
   */
  function recycle() {
    const next = threads();
    recycling = next;
    void next.ready.then(() => {
      const old = current;
      current = next;
      evaluated = 0;
      recycling = null;
      status.recycled += 1;
      void old.pool.close();
    });
  }
  /** Server bundles whose evaluation never ended (`part@version`), with why and since when. */
  const disabled = new Map<string, { part: PartName; version: string; status: PartFileStatus }>();
  /** What the workers said of each part's bundle, by version: refused when its evaluation threw. */
  const refused = new Map<PartName, { version: string; status: PartFileStatus }>();

  // Pages wait for a thread here, first come first rendered, and Piscina is given one task a free
  // thread: its own queue reorders tasks that carry an abort signal (a new one goes to the head, or
  // the next one to the tail each time a thread frees); measured with one thread, a page waited
  // 3.4 s behind pages that came after it.
  const waiting: (() => void)[] = [];
  let running = 0;
  function turn(signal: AbortSignal): Promise<boolean> {
    if (running < workers) {
      running += 1;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const go = () => {
        signal.removeEventListener('abort', give);
        resolve(true);
      };
      const give = () => {
        waiting.splice(waiting.indexOf(go), 1);
        resolve(false);
      };
      waiting.push(go);
      signal.addEventListener('abort', give, { once: true });
    });
  }
  function done() {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  }

  async function render(task: Omit<RenderTask, 'port' | 'disabled'>): Promise<RenderOutcome> {
    const { pool, ready } = current;
    await ready;
    const { port1, port2 } = new MessageChannel();
    let reading: Extract<WorkerMessage, { kind: 'reading' }> | null = null;
    // The deadline counts from the task's start on its thread, not from its place in the queue: a
    // page that waited is not cut short (and its thread terminated) for the others' time.
    const abort = new AbortController();
    const progress = { started: false };
    let timer = setTimeout(() => {
      abort.abort(new Error(`aucun fil de rendu libre en ${String(queueLimitMs)} ms`));
    }, queueLimitMs);
    port1.on('message', (message: WorkerMessage) => {
      switch (message.kind) {
        case 'started':
          progress.started = true;
          clearTimeout(timer);
          timer = setTimeout(() => {
            abort.abort(new Error(`délai de rendu dépassé (${String(deadlineMs)} ms)`));
          }, deadlineMs);
          break;
        case 'api':
          void answerApi(message.url).then(
            (reply) => {
              port1.postMessage({ id: message.id, ...reply } satisfies ApiReply);
            },
            () => {
              port1.postMessage({ id: message.id, status: 502, headers: {}, body: new Uint8Array() });
            },
          );
          break;
        case 'log':
          log[message.level](message.message);
          break;
        case 'reading':
          reading = message;
          break;
        case 'read':
          reading = null;
          evaluated += 1;
          if (evaluated >= recycleAfter * workers && recycling === null) recycle();
          if (message.problem === null) refused.delete(message.part);
          else {
            const since = new Date().toISOString();
            refused.set(message.part, {
              version: message.version,
              status: { state: 'refused', where: message.where, reason: message.problem, since },
            });
          }
          break;
      }
    });
    const notStarted = () => {
      const reason = abort.signal.reason as { message?: unknown } | undefined;
      return { kind: 'browser' as const, reason: `rendu serveur non commencé : ${String(reason?.message)}` };
    };
    if (!(await turn(abort.signal))) {
      clearTimeout(timer);
      port1.close();
      port2.close();
      return notStarted();
    }
    try {
      const outcome = await pool.run(
        { ...task, disabled: [...disabled.keys()], port: port2 },
        { transferList: [port2], signal: abort.signal },
      );
      return outcome ?? { kind: 'browser', reason: 'aucun rendu' };
    } catch (error) {
      const evaluating = reading as Extract<WorkerMessage, { kind: 'reading' }> | null;
      if (evaluating !== null) {
        // Its bundle never finished evaluating: that version is not evaluated again (its file changing
        // makes a new version), and the part's areas render in the browser meanwhile.
        const reason = `son évaluation ne finit pas (plus de ${String(deadlineMs)} ms)`;
        disabled.set(`${evaluating.part}@${evaluating.version}`, {
          part: evaluating.part,
          version: evaluating.version,
          status: { state: 'refused', where: evaluating.where, reason, since: new Date().toISOString() },
        });
        log.warn(`Bundle serveur de « ${evaluating.part} » désactivé (${evaluating.where}) : ${reason}`);
      }
      if (!progress.started && abort.signal.aborted) return notStarted();
      // Piscina terminates the thread of an aborted task, or a thread past its heap limit, and
      // starts another.
      status.replaced += 1;
      const reason = abort.signal.aborted ? (abort.signal.reason as unknown) : error;
      const message = (reason as { message?: unknown } | null)?.message;
      return {
        kind: 'browser',
        reason: `rendu abandonné, fil de rendu remplacé : ${typeof message === 'string' ? message : String(reason)}`,
      };
    } finally {
      done();
      clearTimeout(timer);
      port1.close();
    }
  }

  return {
    render,
    /** What the workers found of each part's bundle beyond its file, by version (readiness). */
    problems(): Map<PartName, { version: string; status: PartFileStatus }> {
      const found = new Map(refused);
      for (const { part, version, status } of disabled.values()) found.set(part, { version, status });
      return found;
    },
    /** The threads (readiness). */
    status: (): PoolStatus => ({ ...status }),
    close: () => Promise.all([current.pool.destroy(), recycling?.pool.destroy()]),
  };
}

export type RenderPool = ReturnType<typeof createRenderPool>;
