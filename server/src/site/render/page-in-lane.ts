import type { PartName } from '@collectif/shared';
import type { SiteMetrics } from '../../metrics/metrics';
import type { Lanes } from './lane';
import type { Permits } from './permits';
import {
  AnswerRefused,
  readOutcome,
  type HostAnswer,
  type RenderHost,
  type RenderOutcome,
  type RenderTask,
} from './protocol';
import { withoutPage } from './render-page';
import type { createPageRenderer } from './renderer';
import { askRenderer, NotStarted } from './renderer-channel';
import type { TaskState } from './renderer-host';
import { answerFile, statusOnly } from './renderer-requests';

// One page in its part's lane (docs/rendering.md, « Renderers »): its turn, its deadline, the
// renderer's requests answered, its outcome checked. What it crosses is made once by the pool
// (render-pool.ts): the lanes, the permits, the tasks in progress.

/** The most pages a lane keeps waiting; past it a page is answered at once for the browser to render. */
const MAX_WAITING = 200;

/** What the pool made at start, which a page's render crosses. */
export interface PageInLane {
  answerApi: (url: string, lane: PartName | null) => Promise<HostAnswer>;
  log: { warn: (message: string) => void; debug: (message: string) => void };
  permits: Permits;
  lanes: Lanes;
  tasks: Map<string, TaskState>;
  /** The pages rendered in the server's process, when there is no renderer process (RENDERERS=0). */
  inProcess: ReturnType<typeof createPageRenderer> | null;
  /** What `/readyz` counts: renderers replaced. */
  status: { replaced: number };
  metrics: Pick<SiteMetrics, 'renderSeconds' | 'pagesRendered'>;
  queueLimitMs: number;
  deadlineMs: number;
  /** Told when a part's container has been evaluated in a lane (the recycling's count). */
  evaluated: (part: PartName) => void;
}

/**
 * One page in its part's lane: its turn, its deadline from its start in a renderer, its answer
 * checked (protocol.ts); a container whose evaluation never ends is disabled, and a renderer that
 * fails is replaced, the page then left to the browser.
 */
async function renderIn(
  { answerApi, log, permits, lanes, tasks, inProcess, status, queueLimitMs, deadlineMs, evaluated }: PageInLane,
  part: PartName,
  task: Omit<RenderTask, 'disabled' | 'allowed'>,
): Promise<RenderOutcome> {
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
  const lane = lanes.laneOf(part);
  lane.busy += 1;
  lane.usedAt = lane.pageAt = Date.now();
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

/**
 * The pool's `render`, over what it made at start: a page in its part's lane, or here when no page
 * has its path.
 */
export function pageRenderer(context: PageInLane) {
  const { metrics } = context;
  return async function render(task: Omit<RenderTask, 'disabled' | 'allowed'>): Promise<RenderOutcome> {
    if (task.match === null) return withoutPage(task.pathname);
    // Counted by the page's pattern (`residences/:id`), never by its address (docs/deploy.md, « Metrics »).
    const route = `/${task.match.page.path}`;
    const timer = metrics.renderSeconds.startTimer({ route });
    const outcome = await renderIn(context, task.match.page.remote, task);
    timer();
    metrics.pagesRendered.inc({ route, way: outcome.kind });
    return outcome;
  };
}
