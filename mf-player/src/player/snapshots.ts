import { emit, type PlayerSnapshot } from '@collectif/shared';

/** At most four `player-state` events a second (docs/player.md, « Public state »). */
export const SNAPSHOT_INTERVAL_MS = 250;

export interface SnapshotPublisher {
  /** Emits `snapshot` now, or the latest one at the end of the current interval. */
  publish(snapshot: PlayerSnapshot): void;
  /** Drops a snapshot still waiting (the player is disconnected). */
  cancel(): void;
}

export function sameSnapshot(a: PlayerSnapshot, b: PlayerSnapshot): boolean {
  return (Object.keys(a) as (keyof PlayerSnapshot)[]).every((key) => a[key] === b[key]);
}

export function createSnapshotPublisher(): SnapshotPublisher {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastAt = Number.NEGATIVE_INFINITY;
  let pending: PlayerSnapshot | null = null;

  const flush = () => {
    timer = null;
    if (pending === null) return;
    lastAt = Date.now();
    const next = pending;
    pending = null;
    emit('player-state', next);
  };

  return {
    publish(snapshot) {
      pending = snapshot;
      if (timer !== null) return;
      // Bounded both ways, so that a clock that jumps (sleep, time zone change) never holds events back.
      const wait = Math.min(SNAPSHOT_INTERVAL_MS, Math.max(0, lastAt + SNAPSHOT_INTERVAL_MS - Date.now()));
      if (wait === 0) flush();
      else timer = setTimeout(flush, wait);
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
