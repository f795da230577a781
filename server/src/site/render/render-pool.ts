import type { PartName } from '@collectif/shared';
import { createMetrics, type SiteMetrics } from '../../metrics/metrics';
import type { PartFileStatus } from './part-files';
import { createLanes } from './lane';
import { createPermits } from './permits';
import { pageRenderer } from './page-in-lane';
import type { HostAnswer } from './protocol';
import { createPageRenderer } from './renderer';
import type { TaskState } from './renderer-host';
import { renderers, type RendererSpec } from './renderer-process';
import { probeSandbox, type SandboxMode, type SandboxProbe } from './sandbox';
import { createTrialQueue } from './trial-queue';

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
 *
 * This module puts the pool together; its pieces are each a module of this folder: the versions that
 * may run (permits.ts), the renderer processes (renderer-process.ts, their code built by
 * renderer-build.ts), the channel to them (renderer-channel.ts), what their requests are answered
 * with (renderer-requests.ts), the lanes (lane.ts), one page in its lane (page-in-lane.ts) and the
 * trials (trial-queue.ts).
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
  /** Whether a lane keeps one renderer past `idleMs` without a page (lane.ts; off by default here). */
  keepOne?: boolean;
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

export function createRenderPool(options: RenderPoolOptions) {
  const { renderers: perLane, deadlineMs, answerApi, distDirs, env, log, maxHeapMb = 128 } = options;
  const { queueLimitMs = deadlineMs, recycleAfter = 100, trialDeadlineMs = 15_000, trialHeapMb = 256 } = options;
  const { idleMs = 300_000, keepOne = false, metrics = createMetrics().site } = options;
  const warn = (message: string) => {
    log.warn(message);
  };
  const mode = chooseMode(perLane, options.requireWalls === true, options.probe ?? (() => probeSandbox()), warn);
  const permits = createPermits({ anyVersion: perLane === 0 });
  const status = { replaced: 0, recycled: 0 };
  const tasks = new Map<string, TaskState>();
  let closing = false;

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

  const recycled = () => {
    status.recycled += 1;
  };
  const lanes = createLanes({ perLane, maxHeapMb, idleMs, keepOne, recycleAfter, distDirs, tasks, spec, recycled });
  const trials = createTrialQueue({
    answerApi,
    distDirs,
    log,
    tasks,
    permits,
    spec,
    trialDeadlineMs,
    trialHeapMb,
    idleMs,
  });

  /** This pool's renderer processes (the lanes' and the trial's). */
  const mine = () => [...renderers.values()].filter((renderer) => renderer.spec.tasks === tasks);

  /** The pages rendered in this process, when there is no renderer process (RENDERERS=0). */
  const inProcess = mode === null ? createPageRenderer() : null;

  /** A part's container has been evaluated in a lane: past `recycleAfter` per renderer, fresh renderers. */
  function evaluated(part: PartName) {
    if (mode === null) return;
    lanes.evaluated(part);
  }

  // The pages waiting for a renderer, in every lane's pool, read when the metrics are scraped.
  const unwatchQueue = metrics.renderQueue.watch(() => [{ value: lanes.queued() }]);

  const render = pageRenderer({
    answerApi,
    log,
    permits,
    lanes,
    tasks,
    inProcess,
    status,
    metrics,
    queueLimitMs,
    deadlineMs,
    evaluated,
  });

  return {
    render,
    trial: trials.trial,
    /**
     * A part's container seen in a version not tried yet (copied by hand, or switched by another
     * instance): tried once in the background; its pages render in the browser meanwhile. The
     * outcome of that version's trial, shared by whoever asks.
     */
    tryOnce: trials.tryOnce,
    /** A version of a part's container the renderers may evaluate: tried, or trusted. */
    allowed: permits.allowed,
    /** A version there when the server started: the admin's, used as it is (with the deadline's guard). */
    trust: permits.trust,
    /** What the renderers found of each part's container beyond its file, by version (readiness). */
    problems: (): Map<PartName, { version: string; status: PartFileStatus }> => permits.problems(),
    status: (): PoolStatus => ({ perLane, sandbox: mode ?? 'aucun', ...status, trying: trials.trying() }),
    /** The renderer processes running now (tests, and the memory benchmark, count them). */
    pids: (): number[] => mine().flatMap((renderer) => renderer.child.pid ?? []),
    close: async () => {
      closing = true;
      unwatchQueue();
      await lanes.close();
      const left = mine();
      for (const renderer of left) renderer.stop();
      await Promise.all(left.map((renderer) => renderer.exited));
    },
  };
}

export type RenderPool = ReturnType<typeof createRenderPool>;
