import type { PartName } from '@collectif/shared';
import type { PartFileStatus } from './containers';
import { answerApiSafely, answerFile } from './host-answers';
import { siteMetrics } from '../../metrics/metrics';
import { withoutPage, type RenderOutcome } from './page';
import { createPermits, type Permits } from './permits';
import { AnswerRefused, readOutcome } from './protocol';
import { createLanes, type Place } from './lanes';
import type { createQueue } from './queue';
import { createWorker } from './renderer';
import { startRenderers } from './renderers';
import { probeSandbox, type SandboxMode, type SandboxProbe } from './sandbox';
import type { ApiAnswer, RenderHost, RenderTask } from './tasks';
import { createTrials } from './trials';

/**
 * Pages rendered by renderer processes (docs/rendering.md, « Renderers »). A part's server code runs
 * there, behind the operating system's walls, never in the server's process, which keeps HTTP,
 * /api, the now-playing stream and the page cache. Each part that has pages has renderers of its
 * own (its lane): one part's code never runs where another part's pages are rendered. A bundle that
 * loops forever costs one renderer, killed at the deadline and replaced, and the page is answered
 * for the browser to render.
 *
 * With no renderer (RENDER_WORKERS=0, for stepping through a render in a debugger, and for the
 * server's tests that do not test the renderers; refused with DEPLOY_TOKENS), the same task runs in
 * this process, the same way, without a deadline that could stop it.
 */

export interface RenderPoolOptions {
  /** How many renderer processes each part's pages have (RENDER_WORKERS; 0: this process). */
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
}

/** What `/readyz` says of the renderers. */
export interface PoolStatus {
  /** Renderer processes per part with pages (0: pages render in the server's own process). */
  renderers: number;
  /** How they run: behind bubblewrap's walls, or Node's permission model alone (sandbox.ts). */
  sandbox: SandboxMode | 'aucun';
  /** Renderers killed at a deadline or stopped past their heap limit, and replaced. */
  replaced: number;
  /** Times a lane's renderers were all replaced after `recycleAfter` container evaluations each. */
  recycled: number;
  /** The part whose new server container is on trial now (docs/deploy.md, « The trial »), if any. */
  trying: PartName | null;
}

/** The sandbox this pool runs in: refused where walls are required and the host cannot make them. */
function chooseMode(workers: number, requireWalls: boolean, probeWalls: () => SandboxProbe, warn: (m: string) => void) {
  if (workers === 0) return null;
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

/** What rendering in a lane needs of its pool. */
interface RenderContext {
  permits: Permits;
  /** Renderer processes (false: this process, with no deadline that could stop it). */
  walls: boolean;
  deadlineMs: number;
  queueLimitMs: number;
  answerApi: (url: string) => Promise<ApiAnswer>;
  log: RenderPoolOptions['log'];
  status: { replaced: number; recycled: number };
  /** A part's container has been evaluated by one of the lane's renderers. */
  evaluated(lane: PartName): void;
}

/**
 * One page in a lane: its turn in the queue, its deadline from its start in a renderer, its answer
 * checked (protocol.ts); a container whose evaluation never ends is disabled, and a renderer that
 * fails is replaced, the page then left to the browser.
 */
async function renderIn(
  context: RenderContext,
  here: Place,
  queue: ReturnType<typeof createQueue>,
  task: Omit<RenderTask, 'disabled' | 'allowed'>,
): Promise<RenderOutcome> {
  const { permits, deadlineMs, queueLimitMs, log } = context;
  const part = task.match?.page.remote;
  let reading: { part: PartName; version: string; where: string } | null = null;
  const abort = new AbortController();
  const progress = { started: false };
  let timer = setTimeout(() => {
    abort.abort(new Error(`aucun processus de rendu libre en ${String(queueLimitMs)} ms`));
  }, queueLimitMs);
  const host: RenderHost = {
    started() {
      progress.started = true;
      clearTimeout(timer);
      if (!context.walls) return;
      timer = setTimeout(() => {
        abort.abort(new Error(`délai de rendu dépassé (${String(deadlineMs)} ms)`));
      }, deadlineMs);
    },
    api: answerApiSafely(context.answerApi),
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
      if (part !== undefined) context.evaluated(part);
      permits.judged(name, version, where, problem);
    },
  };
  const notStarted = () => {
    const reason = abort.signal.reason as { message?: unknown } | undefined;
    return { kind: 'browser' as const, reason: `rendu serveur non commencé : ${String(reason?.message)}` };
  };
  if (!(await queue.turn(abort.signal))) {
    clearTimeout(timer);
    return notStarted();
  }
  try {
    const value = await here.run({ ...task, ...permits.snapshot() }, host, abort.signal);
    return value === null ? { kind: 'browser', reason: 'aucun rendu' } : readOutcome(value, task.origin);
  } catch (error) {
    if (error instanceof AnswerRefused) {
      log.warn(`Rendu de ${task.pathname} refusé : ${error.message}`);
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
    if (!progress.started && abort.signal.aborted) return notStarted();
    // The renderer of an aborted task is killed, one past its heap limit stops: another starts.
    context.status.replaced += 1;
    const reason = abort.signal.aborted ? (abort.signal.reason as unknown) : error;
    const message = (reason as { message?: unknown } | null)?.message;
    return {
      kind: 'browser',
      reason: `rendu abandonné, processus de rendu remplacé : ${typeof message === 'string' ? message : String(reason)}`,
    };
  } finally {
    queue.done();
    clearTimeout(timer);
  }
}

export function createRenderPool(options: RenderPoolOptions) {
  const { workers, deadlineMs, answerApi, readable, env, log, maxHeapMb = 128 } = options;
  const { queueLimitMs = deadlineMs, recycleAfter = 100, trialDeadlineMs = 15_000, trialHeapMb = 256 } = options;
  const { idleMs = 300_000 } = options;
  const mode = chooseMode(
    workers,
    options.requireWalls === true,
    options.probe ?? (() => probeSandbox()),
    (message) => {
      log.warn(message);
    },
  );
  const permits = createPermits({ anyVersion: workers === 0 });
  const status = { replaced: 0, recycled: 0 };
  const sandbox = { readable, env };
  const trials = createTrials({
    mode: mode ?? 'permissions',
    sandbox,
    heapMb: trialHeapMb,
    deadlineMs: trialDeadlineMs,
    permits,
    answerApi,
    log,
  });

  function place(lane: PartName): Place {
    if (mode === null) {
      const worker = createWorker();
      const none = () => Promise.resolve();
      return { run: (task, host) => worker.run(task, host), ready: Promise.resolve(), retire: none, destroy: none };
    }
    const warn = (message: string) => {
      log.warn(message);
    };
    return startRenderers({ count: workers, heapMb: maxHeapMb, ...sandbox, mode, lane, warn });
  }

  const lanes = createLanes({
    place,
    workers: mode === null ? 0 : workers,
    recycleAfter,
    idleMs,
    recycled: () => {
      status.recycled += 1;
    },
  });
  const context: RenderContext = {
    permits,
    walls: mode !== null,
    deadlineMs,
    queueLimitMs,
    answerApi,
    log,
    status,
    evaluated: (part) => {
      lanes.evaluated(part);
    },
  };

  /** A page: in its part's lane, or here when no page has its path. */
  function render(task: Omit<RenderTask, 'disabled' | 'allowed'>): Promise<RenderOutcome> {
    if (task.match === null) return Promise.resolve(withoutPage(task.pathname));
    // Counted by the page's pattern (`residences/:id`), never by its address (docs/deploy.md, « Metrics »).
    const route = `/${task.match.page.path}`;
    const timer = siteMetrics.renderSeconds.startTimer({ route });
    return lanes
      .with(task.match.page.remote, (lane) => renderIn(context, lane.current, lane.queue, task))
      .then((outcome) => {
        timer();
        siteMetrics.pagesRendered.inc({ route, way: outcome.kind });
        return outcome;
      });
  }

  return {
    render,
    /** Tries a part's server container in a folder (a deploy's version before its switch). */
    trial: trials.trial,
    tryOnce: trials.tryOnce,
    /** A version of a part's container the renderers may evaluate: tried, or trusted. */
    allowed: permits.allowed,
    /** A version there when the server started: the admin's, used as it is (with the deadline's guard). */
    trust: permits.trust,
    /** What the renderers found of each part's container beyond its file, by version (readiness). */
    problems: (): Map<PartName, { version: string; status: PartFileStatus }> => permits.problems(),
    status: (): PoolStatus => ({ renderers: workers, sandbox: mode ?? 'aucun', ...status, trying: trials.trying() }),
    close: () => Promise.all([lanes.close(), trials.close()]),
  };
}

export type RenderPool = ReturnType<typeof createRenderPool>;
