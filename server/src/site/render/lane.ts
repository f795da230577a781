import type { PartName } from '@collectif/shared';
import { realPath } from '../../files/watched-file';
import { laneLife, type Lane, type LanesOptions } from './lane-life';

// A part's lane (docs/rendering.md, « Renderers »): its renderers, started as its pages need them.
// A page finds its part's lane here; how a lane starts, is replaced and rests is `lane-life.ts`.

/** The pool's lanes, one per part with pages, made as their pages come. */
export function createLanes(options: LanesOptions) {
  const { perLane, recycleAfter, distDirs } = options;
  const lanes = new Map<PartName, Lane>();

  /** What the shell's and the player's live versions are now (a deploy switches them). */
  const sharedReads = () => [realPath(distDirs.shell), realPath(distDirs.player)].join('|');
  const life = laneLife(lanes, sharedReads, options);

  function laneOf(part: PartName): Lane {
    let lane = lanes.get(part);
    if (lane === undefined) {
      lane = life.newLane(part);
      lanes.set(part, lane);
    } else if (!lane.recycling && lane.reads !== sharedReads()) {
      // The shell or the player deployed: the lane's renderers read the new live version's folder.
      life.recycle(part, lane, false);
    }
    return lane;
  }

  return {
    laneOf,
    /** A part's container has been evaluated in its lane: past `recycleAfter` per renderer, fresh renderers. */
    evaluated(part: PartName) {
      const lane = lanes.get(part);
      if (lane === undefined) return;
      lane.evaluated += 1;
      if (lane.evaluated >= recycleAfter * perLane && !lane.recycling) life.recycle(part, lane, true);
    },
    /** The pages waiting for a renderer, in every lane. */
    queued: (): number => [...lanes.values()].reduce((sum, lane) => sum + lane.pool.stats.queued, 0),
    /** Stops the rest's check and destroys every lane's pool and those being retired. */
    close: async (): Promise<void> => {
      const pools = [...[...lanes.values()].map((lane) => lane.pool), ...life.stop()];
      lanes.clear();
      await Promise.all(pools.map((pool) => pool.destroy().catch(() => undefined)));
    },
  };
}

export type Lanes = ReturnType<typeof createLanes>;
