import type { PartName } from '@collectif/shared';
import type { PartFileStatus } from './containers';
import type { RenderOutcome } from './page';
import { runTask as renderInThisProcess, type ApiAnswer, type RenderHost, type RenderTask } from './renderer';
import type { TrialOutcome, TrialTask } from '../../deploy/trial';
import { startRenderers, type Renderers } from './renderers';

/**
 * Pages rendered by renderer processes (docs/rendering.md, « Renderers »). A part's server code runs
 * there, sandboxed, never in the server's process, which keeps HTTP, /api, the now-playing stream
 * and the page cache: a bundle that loops forever costs one renderer, which is killed at the
 * deadline and replaced, and the page is answered for the browser to render.
 *
 * With no renderer (RENDER_WORKERS=0, for stepping through a render in a debugger, and for the
 * server's tests that do not test the renderers; refused with DEPLOY_TOKENS), the same task runs in
 * this process, the same way, without a deadline that could stop it.
 */

/** How long the trial's renderer may take to start (it loads its code first). */
const TRIAL_START_MS = 60_000;

export interface RenderPoolOptions {
  /** How many renderer processes (RENDER_WORKERS; 0: this process). */
  workers: number;
  /** Past this, the render is abandoned and its renderer killed. */
  deadlineMs: number;
  /** A page's /api GET, answered as to an anonymous visitor. */
  answerApi: (url: string) => Promise<ApiAnswer>;
  /** The folders of the parts (their dist/, DEPLOY_ROOT): what a renderer may read beyond its code. */
  readable: readonly string[];
  /** A renderer's environment, cut to RENDERER_ENV (the site's settings: `rendererEnv`). */
  env: Readonly<Record<string, string>>;
  log: { warn: (message: string) => void; debug: (message: string) => void };
  /** A renderer's heap limit. */
  maxHeapMb?: number;
  /**
   * How long a page may wait for a free renderer; past it, it is answered for the browser to render
   * (a site over its capacity answers at once rather than late).
   */
  queueLimitMs?: number;
  /**
   * After this many new server containers evaluated (by each renderer, on average), every renderer is
   * replaced by a fresh one: a realm keeps some of each old bundle's code.
   */
  recycleAfter?: number;
  /** How long a new server container's trial may take (docs/deploy.md, « The trial »). */
  trialDeadlineMs?: number;
  /** The trial renderer's heap limit. */
  trialHeapMb?: number;
}

/** What `/readyz` says of the renderers. */
export interface PoolStatus {
  /** Renderer processes (0: pages render in the server's own process). */
  renderers: number;
  /** Renderers killed at a deadline or stopped past their heap limit, and replaced. */
  replaced: number;
  /** Times every renderer was replaced after `recycleAfter` bundle evaluations each. */
  recycled: number;
  /** The part whose new server container is on trial now (docs/deploy.md, « The trial »), if any. */
  trying: PartName | null;
}

/** Where tasks run: renderer processes, or this process. */
interface Place {
  run(task: RenderTask, host: RenderHost, signal: AbortSignal): Promise<RenderOutcome | null>;
  /** Every renderer has loaded its code. */
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
  readable,
  env,
  log,
  maxHeapMb = 128,
  queueLimitMs = deadlineMs,
  recycleAfter = 100,
  trialDeadlineMs = 15_000,
  trialHeapMb = 256,
}: RenderPoolOptions) {
  const warn = (message: string) => {
    log.warn(message);
  };
  function place(): Place {
    if (workers === 0) {
      const none = () => Promise.resolve();
      return {
        run: (task, host) => renderInThisProcess(task, host),
        ready: Promise.resolve(),
        retire: none,
        destroy: none,
      };
    }
    const renderers = startRenderers({ count: workers, heapMb: maxHeapMb, readable, env, warn });
    return {
      run: (task, host, signal) => renderers.run(task, host, signal) as Promise<RenderOutcome | null>,
      ready: renderers.ready,
      retire: () => renderers.retire(),
      destroy: () => renderers.destroy(),
    };
  }
  let current = place();
  const status: PoolStatus = { renderers: workers, replaced: 0, recycled: 0, trying: null };
  /** New bundles evaluated by the current renderers. */
  let evaluated = 0;
  let recycling: Place | null = null;
  /**
   * Fresh renderers, put in service once they are ready; the old ones finish their pages and stop.
   */
  function recycle() {
    const next = place();
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
  /** What the renderers said of each part's container, by version: refused when its evaluation threw. */
  const refused = new Map<PartName, { version: string; status: PartFileStatus }>();

  // Pages wait for a renderer here, first come first rendered, and a renderer is given one task at
  // a time (a page is never overtaken by one that came after it).
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

  async function render(task: Omit<RenderTask, 'disabled' | 'allowed'>): Promise<RenderOutcome> {
    const here = current;
    await here.ready;
    let reading: { part: PartName; version: string; where: string } | null = null;
    // The deadline counts from the task's start in its renderer, not from its place in the queue: a
    // page that waited is not cut short (and its renderer killed) for the others' time.
    const abort = new AbortController();
    const progress = { started: false };
    let timer = setTimeout(() => {
      abort.abort(new Error(`aucun processus de rendu libre en ${String(queueLimitMs)} ms`));
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
    const notStarted = () => {
      const reason = abort.signal.reason as { message?: unknown } | undefined;
      return { kind: 'browser' as const, reason: `rendu serveur non commencé : ${String(reason?.message)}` };
    };
    if (!(await turn(abort.signal))) {
      clearTimeout(timer);
      return notStarted();
    }
    try {
      const outcome = await here.run(
        { ...task, disabled: [...disabled.keys()], allowed: workers === 0 ? null : [...allowedVersions] },
        host,
        abort.signal,
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
        log.warn(`Conteneur serveur de « ${evaluating.part} » désactivé (${evaluating.where}) : ${reason}`);
      }
      if (!progress.started && abort.signal.aborted) return notStarted();
      // The renderer of an aborted task is killed, one past its heap limit stops: another starts.
      status.replaced += 1;
      const reason = abort.signal.aborted ? (abort.signal.reason as unknown) : error;
      const message = (reason as { message?: unknown } | null)?.message;
      return {
        kind: 'browser',
        reason: `rendu abandonné, processus de rendu remplacé : ${typeof message === 'string' ? message : String(reason)}`,
      };
    } finally {
      done();
      clearTimeout(timer);
    }
  }

  /**
   * New server containers are tried by a renderer of their own before one that serves visitors
   * evaluates them (docs/deploy.md, « The trial »): one at a time, with a deadline and a heap limit,
   * each in a fresh process stopped once it has answered (no trial sees what one before it left, and
   * no memory is held between deploys). With no renderer (RENDER_WORKERS=0, a debugger's setting)
   * every bundle is used as it is.
   */
  let trialsDone: Promise<unknown> = Promise.resolve();
  /** The trial's process while one runs (stopped with the server). */
  let trialRenderer: Renderers | null = null;
  /**
   * Versions the serving renderers may load (`part@version`): passed their trial, or there when the
   * server started (trusted).
   */
  const allowedVersions = new Set<string>();
  /** The trial in progress or done of a part's container in a folder, by `part@version` asked. */
  const trials = new Map<string, Promise<TrialOutcome>>();

  function trial(task: TrialTask): Promise<TrialOutcome> {
    const outcome = trialsDone.then(() => trialAlone(task));
    trialsDone = outcome.catch(() => undefined);
    return outcome;
  }

  async function trialAlone(task: TrialTask): Promise<TrialOutcome> {
    const renderer = startRenderers({ count: 1, heapMb: trialHeapMb, readable, env, warn: () => undefined });
    trialRenderer = renderer;
    const abort = new AbortController();
    // The deadline counts from the trial's start in its renderer: one still loading its code
    // (seconds on a busy machine) is not the bundle's time.
    let timer = setTimeout(() => {
      abort.abort(new Error('start'));
    }, TRIAL_START_MS);
    const host: RenderHost = {
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
      reading: () => undefined,
      read: () => undefined,
    };
    status.trying = task.trial.part;
    try {
      const outcome = (await renderer.run(task, host, abort.signal)) as TrialOutcome;
      if (outcome.ok) allowedVersions.add(`${task.trial.part}@${outcome.version}`);
      return outcome;
    } catch (error) {
      // The renderer of an aborted trial is killed, one past its heap limit stops: another starts.
      const cause = (abort.signal.reason as { message?: unknown } | undefined)?.message;
      const reason = abort.signal.aborted
        ? cause === 'start'
          ? `le processus d'essai n'a pas démarré en ${String(TRIAL_START_MS / 1000)} s`
          : `son essai ne finit pas en ${String(trialDeadlineMs / 1000)} s (une boucle sans fin ?)`
        : `son essai s'arrête : ${(error as { message?: unknown } | null)?.message === undefined ? String(error) : String((error as { message: unknown }).message)}`;
      return { ok: false, reason };
    } finally {
      status.trying = null;
      clearTimeout(timer);
      trialRenderer = null;
      void renderer.destroy();
    }
  }

  return {
    render,
    /** Tries a part's server container in a folder (a deploy's version before its switch). */
    trial,
    /** A version of a part's container the renderers may evaluate: tried, or trusted. */
    allowed: (part: PartName, version: string): boolean => workers === 0 || allowedVersions.has(`${part}@${version}`),
    /** A version there when the server started: the admin's, used as it is (with the deadline's guard). */
    trust(part: PartName, version: string): void {
      allowedVersions.add(`${part}@${version}`);
    },
    /**
     * A part's container seen in a version not tried yet (copied by hand, or switched by another
     * instance): tried once in the background; its pages render in the browser meanwhile. The
     * outcome of the trial of that version, shared by whoever asks.
     */
    tryOnce(part: PartName, version: string, task: () => TrialTask): Promise<TrialOutcome> {
      const key = `${part}@${version}`;
      let pending = trials.get(key);
      if (pending === undefined) {
        pending = trial(task()).then((outcome) => {
          if (outcome.ok && outcome.version !== version) trials.delete(key);
          if (!outcome.ok) {
            log.warn(`Conteneur serveur de « ${part} » refusé à l'essai : ${outcome.reason}`);
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
    /** What the workers found of each part's container beyond its file, by version (readiness). */
    problems(): Map<PartName, { version: string; status: PartFileStatus }> {
      const found = new Map(refused);
      for (const { part, version, status } of disabled.values()) found.set(part, { version, status });
      return found;
    },
    /** The renderers (readiness). */
    status: (): PoolStatus => ({ ...status }),
    close: () => Promise.all([current.destroy(), recycling?.destroy(), trialRenderer?.destroy()]),
  };
}

export type RenderPool = ReturnType<typeof createRenderPool>;
