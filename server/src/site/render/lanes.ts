import type { PartName } from '@collectif/shared';
import { createQueue } from './queue';
import type { RenderHost, RenderTask } from './tasks';

/**
 * Each part's renderers (docs/rendering.md, « Renderers »): the pages of a part are rendered by
 * renderers of its own, its lane, so that one part's code never runs where another part's pages are
 * rendered. A lane starts with its part's first page, is replaced by fresh renderers after many
 * containers evaluated (recycling), and stops after `idleMs` without a page.
 */

/** Where a lane's tasks run: renderer processes, or this process. */
export interface Place {
  run(task: RenderTask, host: RenderHost, signal: AbortSignal): Promise<unknown>;
  ready: Promise<unknown>;
  retire(): Promise<void>;
  destroy(): Promise<void>;
}

/** A part's renderers and the pages waiting for them. */
export interface Lane {
  current: Place;
  evaluated: number;
  recycling: Place | null;
  queue: ReturnType<typeof createQueue>;
  /** Pages in progress or waiting, and when the last one came. */
  busy: number;
  usedAt: number;
}

export interface LanesOptions {
  /** Starts a lane's renderers. */
  place: (part: PartName) => Place;
  /** Renderers per lane (0: this process, where nothing is recycled). */
  workers: number;
  recycleAfter: number;
  idleMs: number;
  /** Told each time a lane's renderers are all replaced. */
  recycled: () => void;
}

export function createLanes({ place, workers, recycleAfter, idleMs, recycled }: LanesOptions) {
  const lanes = new Map<PartName, Lane>();

  function laneOf(part: PartName): Lane {
    let lane = lanes.get(part);
    if (lane === undefined) {
      lane = { current: place(part), evaluated: 0, recycling: null, queue: createQueue(workers), busy: 0, usedAt: 0 };
      lanes.set(part, lane);
    }
    return lane;
  }

  /** Fresh renderers for a lane, put in service once ready; the old ones finish their pages and stop. */
  function recycle(lane: Lane, part: PartName) {
    const next = place(part);
    lane.recycling = next;
    void next.ready.then(() => {
      const old = lane.current;
      Object.assign(lane, { current: next, evaluated: 0, recycling: null });
      recycled();
      void old.retire();
    });
  }

  // A lane whose part has had no page for `idleMs` stops its renderers: a site nobody visits holds
  // the server alone, and a part's renderers start again with its next page.
  const idle = setInterval(
    () => {
      for (const [part, lane] of lanes) {
        if (lane.busy > 0 || Date.now() - lane.usedAt < idleMs || lane.recycling !== null) continue;
        lanes.delete(part);
        void lane.current.retire();
      }
    },
    Math.min(idleMs, 60_000),
  );
  idle.unref();

  return {
    /** Runs `work` with the part's lane, counted busy meanwhile. */
    async with<T>(part: PartName, work: (lane: Lane) => Promise<T>): Promise<T> {
      const lane = laneOf(part);
      lane.busy += 1;
      lane.usedAt = Date.now();
      try {
        await lane.current.ready;
        return await work(lane);
      } finally {
        lane.busy -= 1;
      }
    },
    /** A container was evaluated in the part's lane: past `recycleAfter` per renderer, fresh ones. */
    evaluated(part: PartName): void {
      const lane = laneOf(part);
      lane.evaluated += 1;
      if (workers > 0 && lane.evaluated >= recycleAfter * workers && lane.recycling === null) recycle(lane, part);
    },
    close: () => {
      clearInterval(idle);
      const places = [...lanes.values()].flatMap((lane) =>
        lane.recycling === null ? [lane.current] : [lane.current, lane.recycling],
      );
      return Promise.all(places.map((each) => each.destroy()));
    },
  };
}
