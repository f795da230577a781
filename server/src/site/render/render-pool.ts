import { MessageChannel, type Transferable } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import type { PartName } from '@collectif/shared';
import { startThreads } from '../../threads/threads';
import type { PartFileStatus } from './bundles';
import type { RenderOutcome } from './page';
import {
  runTask as renderInThisThread,
  type ApiAnswer,
  type RenderHost,
  type RenderTask,
  type TrialOutcome,
  type TrialTask,
  type WarmUp,
} from './render-worker';

/**
 * Pages rendered in a pool of worker threads (docs/rendering.md, « Rendering in workers »). A
 * part's server code runs there, never on the main thread, which keeps HTTP, /api, the
 * now-playing stream and the page cache: a bundle that loops forever costs one worker, which is
 * terminated at the deadline and replaced, and the page is answered for the browser to render.
 * Piscina: a pool that terminates a thread whose task is aborted, and replaces it.
 *
 * With no thread (RENDER_WORKERS=0, for stepping through a render in a debugger, and for the
 * server's tests that do not test the threads), the same task runs in this thread, the same way,
 * without a deadline that could stop it.
 */

/** How long the trial thread may take to start (it loads the server's code first). */
const TRIAL_START_MS = 60_000;

export interface RenderPoolOptions {
  /** How many threads render (RENDER_WORKERS; 0: this one). */
  workers: number;
  /** Past this, the render is abandoned and its thread terminated. */
  deadlineMs: number;
  /** A page's /api request, answered on the main thread. */
  answerApi: (url: string) => Promise<ApiAnswer>;
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
  /** How long a new server bundle's trial may take (docs/deploy.md, « The trial »). */
  trialDeadlineMs?: number;
  /** The trial thread's heap limit. */
  trialHeapMb?: number;
}

/** What `/readyz` says of the render threads. */
export interface PoolStatus {
  threads: number;
  /** Threads terminated at a deadline or past their heap limit, and replaced. */
  replaced: number;
  /** Times every thread was replaced after `recycleAfter` bundle evaluations each. */
  recycled: number;
  /** The part whose new server bundle is on trial now (docs/deploy.md, « The trial »), if any. */
  trying: PartName | null;
}

/** Where tasks run: a pool of threads, or this thread. */
interface Threads {
  run(task: RenderTask, options: { transferList: Transferable[]; signal: AbortSignal }): Promise<RenderOutcome | null>;
  /** Every thread has loaded the server's code. */
  ready: Promise<unknown>;
  /** Stops once the tasks in progress have ended. */
  retire(): Promise<void>;
  /** Stops now (the server is closing). */
  destroy(): Promise<void>;
}

export function createRenderPool({
  workers,
  deadlineMs,
  answerApi,
  log,
  maxHeapMb = 128,
  queueLimitMs = deadlineMs,
  recycleAfter = 100,
  trialDeadlineMs = 15_000,
  trialHeapMb = 256,
}: RenderPoolOptions) {
  function threads(): Threads {
    if (workers === 0) {
      const none = () => Promise.resolve();
      return { run: (task) => renderInThisThread(task), ready: Promise.resolve(), retire: none, destroy: none };
    }
    const pool = startThreads<RenderTask | WarmUp, RenderOutcome | null>(
      'render-worker',
      new URL('./render-worker.ts', import.meta.url),
      {
        minThreads: workers,
        maxThreads: workers,
        // A young generation of 8 MB rather than V8's 32: measured, 25 MB less a thread, and the
        // same throughput.
        resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 8 },
      },
    );
    return {
      run: (task, options) => pool.run(task, options),
      // Every thread loads the server's code (React, the shared package) before its first page: the
      // deadline of a page counts from a ready pool, not from a thread still starting.
      ready: Promise.allSettled(Array.from({ length: workers }, () => pool.run({ warmUp: true }))),
      retire: () => pool.close(),
      destroy: () => pool.destroy(),
    };
  }
  let current = threads();
  const status: PoolStatus = { threads: workers, replaced: 0, recycled: 0, trying: null };
  /** New bundles evaluated by the current threads. */
  let evaluated = 0;
  let recycling: Threads | null = null;
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
      void old.retire();
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
    if (workers === 0 || running < workers) {
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

  async function render(task: Omit<RenderTask, 'port' | 'disabled' | 'tried'>): Promise<RenderOutcome> {
    const threads = current;
    await threads.ready;
    const { port1, port2 } = new MessageChannel();
    let reading: { part: PartName; version: string; where: string } | null = null;
    // The deadline counts from the task's start on its thread, not from its place in the queue: a
    // page that waited is not cut short (and its thread terminated) for the others' time.
    const abort = new AbortController();
    const progress = { started: false };
    let timer = setTimeout(() => {
      abort.abort(new Error(`aucun fil de rendu libre en ${String(queueLimitMs)} ms`));
    }, queueLimitMs);
    const host: RenderHost = {
      started() {
        progress.started = true;
        clearTimeout(timer);
        if (workers === 0) return;
        timer = setTimeout(() => {
          abort.abort(new Error(`délai de rendu dépassé (${String(deadlineMs)} ms)`));
        }, deadlineMs);
      },
      api: (url) =>
        answerApi(url).catch(() => ({ status: 502, headers: {}, body: new Uint8Array() }) satisfies ApiAnswer),
      log(level, message) {
        if (level === 'warn') log.warn(message);
        else log.debug(message);
      },
      reading(part, version, where) {
        reading = { part, version, where };
      },
      read(part, version, where, problem) {
        reading = null;
        evaluated += 1;
        if (workers > 0 && evaluated >= recycleAfter * workers && recycling === null) recycle();
        if (problem === null) refused.delete(part);
        else {
          const since = new Date().toISOString();
          refused.set(part, { version, status: { state: 'refused', where, reason: problem, since } });
        }
      },
    };
    expose(host, nodeEndpoint(port1));
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
      const outcome = await threads.run(
        { ...task, disabled: [...disabled.keys()], tried: workers === 0 ? null : [...tried], port: port2 },
        { transferList: [port2], signal: abort.signal },
      );
      return outcome ?? { kind: 'browser', reason: 'aucun rendu' };
    } catch (error) {
      const evaluating = reading as { part: PartName; version: string; where: string } | null;
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
      // A task that ended closed its end of the channel, after its last call (a call still on its
      // way arrives first); one that was abandoned has not.
      if (abort.signal.aborted) port1.close();
    }
  }

  /**
   * New server bundles are tried on a thread of their own before a thread that serves visitors
   * evaluates them (docs/deploy.md, « The trial »): one at a time, with a deadline and a heap limit.
   * With no render thread (RENDER_WORKERS=0, a debugger's setting) every bundle is used as it is.
   */
  let trialThreads: ReturnType<typeof startThreads<TrialTask, TrialOutcome>> | null = null;
  /** Versions that may be evaluated by the render threads (`part@version`): tried, or there at start. */
  const tried = new Set<string>();
  /** The trial in progress or done of a part's bundle in a folder, by `part@version` asked. */
  const trials = new Map<string, Promise<TrialOutcome>>();

  async function trial(task: Omit<TrialTask, 'port'>): Promise<TrialOutcome> {
    trialThreads ??= startThreads<TrialTask, TrialOutcome>(
      'render-worker',
      new URL('./render-worker.ts', import.meta.url),
      {
        minThreads: 0,
        maxThreads: 1,
        resourceLimits: { maxOldGenerationSizeMb: trialHeapMb, maxYoungGenerationSizeMb: 8 },
      },
    );
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    // The deadline counts from the trial's start on its thread: a thread still loading the server's
    // code (seconds on a busy machine) is not the bundle's time.
    let timer = setTimeout(() => {
      abort.abort(new Error('start'));
    }, TRIAL_START_MS);
    const host: Pick<RenderHost, 'started' | 'api' | 'log'> = {
      started() {
        clearTimeout(timer);
        timer = setTimeout(() => {
          abort.abort(new Error('deadline'));
        }, trialDeadlineMs);
      },
      api: (url) =>
        answerApi(url).catch(() => ({ status: 502, headers: {}, body: new Uint8Array() }) satisfies ApiAnswer),
      log(level, message) {
        if (level === 'warn') log.warn(message);
      },
    };
    expose(host, nodeEndpoint(port1));
    status.trying = task.trial.part;
    try {
      const outcome = await trialThreads.run({ ...task, port: port2 }, { transferList: [port2], signal: abort.signal });
      if (outcome.ok) tried.add(`${task.trial.part}@${outcome.version}`);
      return outcome;
    } catch (error) {
      // Piscina terminates the thread of an aborted task, or one past its heap limit; the next trial
      // starts another.
      const cause = (abort.signal.reason as { message?: unknown } | undefined)?.message;
      const reason = abort.signal.aborted
        ? cause === 'start'
          ? `le fil d'essai n'a pas démarré en ${String(TRIAL_START_MS / 1000)} s`
          : `son essai ne finit pas en ${String(trialDeadlineMs / 1000)} s (une boucle sans fin ?)`
        : `son essai s'arrête : ${(error as { message?: unknown } | null)?.message === undefined ? String(error) : String((error as { message: unknown }).message)}`;
      return { ok: false, reason };
    } finally {
      status.trying = null;
      clearTimeout(timer);
      port1.close();
    }
  }

  return {
    render,
    /** Tries a part's server bundle in a folder (a deploy's version before its switch). */
    trial,
    /** A version of a part's bundle the render threads may evaluate: tried, or trusted. */
    allowed: (part: PartName, version: string): boolean => workers === 0 || tried.has(`${part}@${version}`),
    /** A version there when the server started: the admin's, used as it is (with the deadline's guard). */
    trust(part: PartName, version: string): void {
      tried.add(`${part}@${version}`);
    },
    /**
     * A part's bundle seen in a version not tried yet (copied by hand, or switched by another
     * instance): tried once in the background; its pages render in the browser meanwhile. The
     * outcome of the trial of that version, shared by whoever asks.
     */
    tryOnce(part: PartName, version: string, task: () => Omit<TrialTask, 'port'>): Promise<TrialOutcome> {
      const key = `${part}@${version}`;
      let pending = trials.get(key);
      if (pending === undefined) {
        pending = trial(task()).then((outcome) => {
          if (outcome.ok && outcome.version !== version) trials.delete(key);
          if (!outcome.ok) {
            log.warn(`Bundle serveur de « ${part} » refusé à l'essai : ${outcome.reason}`);
            const since = new Date().toISOString();
            refused.set(part, {
              version,
              status: { state: 'refused', where: 'ce serveur', reason: outcome.reason, since },
            });
          }
          return outcome;
        });
        trials.set(key, pending);
      }
      return pending;
    },
    /** What the workers found of each part's bundle beyond its file, by version (readiness). */
    problems(): Map<PartName, { version: string; status: PartFileStatus }> {
      const found = new Map(refused);
      for (const { part, version, status } of disabled.values()) found.set(part, { version, status });
      return found;
    },
    /** The threads (readiness). */
    status: (): PoolStatus => ({ ...status }),
    close: () => Promise.all([current.destroy(), recycling?.destroy(), trialThreads?.destroy()]),
  };
}

export type RenderPool = ReturnType<typeof createRenderPool>;
