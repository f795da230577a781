import { dirname } from 'node:path';
import type { Pool } from 'undici';
import type { PartName } from '@collectif/shared';
import { realPath } from '../../files/watched-file';
import { askRenderer, rendererPool } from './renderer-channel';
import type { TaskState } from './renderer-host';
import { START_MS, type RendererSpec } from './renderer-process';
import { idleHost } from './renderer-requests';

// A lane's life (docs/rendering.md, « Renderers », « Memory »): started warm, replaced after many
// containers evaluated or when the shell or the player is deployed, and at rest, when its part has had
// no page for a while, all its renderers but one stopped (all of them without `keepOne`). None of it
// runs for a page of a lane already started: that page only finds its lane (`lane.ts`).

/**
 * A part's own folder: its built `dist/`'s folder (sources and build), or with deploys its folder
 * under DEPLOY_ROOT (its versions, its live link, its trials): its own team's, nothing of another's.
 * Its live version's real place is read too (the version « construit » links to the built `dist/`).
 */
const partFolder = (dist: string): string => dirname(dist);

/** A part's lane: its renderers, the pages waiting for them. */
export interface Lane {
  pool: Pool;
  /** Settles once the lane's first renderer has answered its warm-up (its pages' deadlines count from then). */
  warm: Promise<unknown>;
  /** The shell's and the player's live versions its renderers read: another, and the lane is replaced. */
  reads: string;
  evaluated: number;
  recycling: boolean;
  busy: number;
  /** When the lane's renderers last had a page, or with `keepOne` a call that keeps one alive. */
  usedAt: number;
  /** When the lane's renderers last had a page. */
  pageAt: number;
  /** A call that keeps one renderer alive is on its way (`keepOne`). */
  keeping: boolean;
}

export interface LanesOptions {
  /** How many renderer processes each lane may have. */
  perLane: number;
  maxHeapMb: number;
  idleMs: number;
  /**
   * Whether a lane keeps one renderer past `idleMs` without a page: the first page after quiet
   * minutes then waits for no renderer to start (RENDER_KEEP_ONE).
   */
  keepOne: boolean;
  recycleAfter: number;
  distDirs: Readonly<Record<PartName, string>>;
  tasks: Map<string, TaskState>;
  /** What starts a lane's renderers (the pool's). */
  spec: (lane: PartName | null, heapMb: number, readable: () => string[]) => RendererSpec;
  /** Told when a lane's renderers were all replaced after `recycleAfter` container evaluations each. */
  recycled: () => void;
}

/**
 * How the lanes of `lanes` start, are replaced and rest. `sharedReads` says which live versions of
 * the shell and the player a lane started now reads.
 */
export function laneLife(
  lanes: Map<PartName, Lane>,
  sharedReads: () => string,
  { perLane, maxHeapMb, idleMs, keepOne, distDirs, tasks, spec, recycled }: LanesOptions,
) {
  const closingPools = new Set<Pool>();

  /** A call for nothing, which a renderer answers at once (started first if none is free); never rejects. */
  function warmUp(pool: Pool): Promise<unknown> {
    return askRenderer(
      pool,
      tasks,
      { warmUp: true },
      idleHost,
      { queueMs: START_MS, deadlineMs: START_MS },
      () => null,
    ).catch(() => undefined);
  }

  /** A lane's pool, warmed up: its first renderer started before any page's deadline runs. */
  function newLane(part: PartName): Lane {
    const reads = sharedReads();
    const own = distDirs[part];
    // The shell's and the player's live versions by their built folder's path (a `dist/`, or the
    // `live` link with deploys), which the sandbox binds as the version it names now (sandbox.ts).
    const readable = () => [partFolder(own), realPath(own), distDirs.shell, distDirs.player];
    const pool = rendererPool(spec(part, maxHeapMb, readable), perLane, idleMs);
    const warm = warmUp(pool);
    const now = Date.now();
    return { pool, warm, reads, evaluated: 0, recycling: false, busy: 0, usedAt: now, pageAt: now, keeping: false };
  }

  function retire(pool: Pool) {
    closingPools.add(pool);
    void pool
      .close()
      .catch(() => undefined)
      .finally(() => closingPools.delete(pool));
  }

  /** Fresh renderers for a lane, put in service once warm; the old ones finish their pages and stop. */
  function recycle(part: PartName, lane: Lane, counted: boolean) {
    lane.recycling = true;
    const next = newLane(part);
    void next.warm.then(() => {
      const old = lane.pool;
      Object.assign(lane, { pool: next.pool, warm: next.warm, reads: next.reads, evaluated: 0, recycling: false });
      if (counted) recycled();
      retire(old);
    });
  }

  /**
   * One of the lane's renderers asked for nothing (a warm-up, which it answers at once): its
   * connection then stays open for `idleMs` more. The pool gives a call to its first free
   * connection, so it is always the same renderer that is kept; the others, left without a call,
   * are closed by the pool after `idleMs` (its keep-alive) and stop. One call at a time: a second one
   * while the first is unanswered (a loaded machine) would find no free connection, and the pool
   * would start a renderer for it.
   */
  function keepAlive(lane: Lane) {
    if (lane.keeping) return;
    lane.keeping = true;
    lane.usedAt = Date.now();
    void warmUp(lane.pool).finally(() => {
      lane.keeping = false;
    });
  }

  // A lane whose part has had no page for `idleMs`: with `keepOne`, one renderer is kept alive (a
  // call every third of `idleMs`, well within its keep-alive), so that the part's next page waits for
  // no renderer to start; without, the lane stops its renderers, and a site nobody visits holds the
  // server alone, a part's renderers starting again with its next page.
  const check = keepOne ? Math.max(100, Math.floor(idleMs / 3)) : idleMs;
  const idle = setInterval(
    () => {
      const now = Date.now();
      for (const [part, lane] of lanes) {
        if (lane.busy > 0 || lane.recycling) continue;
        if (keepOne) {
          if (now - lane.usedAt >= check) keepAlive(lane);
          continue;
        }
        if (now - lane.pageAt < idleMs) continue;
        lanes.delete(part);
        retire(lane.pool);
      }
    },
    Math.min(check, 60_000),
  );
  idle.unref();

  return {
    newLane,
    recycle,
    /** Stops the rest's check; the pools being retired, to be destroyed with the lanes'. */
    stop: (): Pool[] => {
      clearInterval(idle);
      return [...closingPools];
    },
  };
}
