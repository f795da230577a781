import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

// The server's memory at rest (docs/rendering.md, « Memory »): after a busy while, V8 keeps the heap
// it grew to, garbage included, until it next needs room, which on a quiet site may be hours. When
// the server is not busy and its heap has grown well past what the last collection left, one full
// collection gives that memory back (about 20 MB measured on the demo's site after a page of each
// part and 80 searches). A quiet site still works a little (the recorder reads the live stream, the
// now-playing poll), so rest is a low load, not none; its slow growth is collected now and then.

/** How often the server looks at its own load and heap. */
export const REST_CHECK_MS = 30_000;

/**
 * At or above this share of the last check's time spent running JavaScript, the server is busy and
 * collects nothing: a full collection would hold a page. A quiet demo site runs at 1.5 to 2.5 %
 * (the recorder, the polls); pages served one after another, at 30 % and more.
 */
export const BUSY_UTILIZATION = 0.05;

/** How much the heap in use must have grown since the last collection for another one to be worth it. */
export const REST_GROWTH_BYTES = 16 * 1024 * 1024;

/**
 * Told each check's event loop utilization (0 to 1) and heap in use (bytes), calls `collect`, which
 * answers the heap in use after it, when the server is not busy and its heap has grown by `growth`
 * since the last collection (the first check counts from nothing: the start's garbage). Returns
 * whether it collected.
 */
export function restCollector(
  collect: () => number,
  { busyAbove = BUSY_UTILIZATION, growth = REST_GROWTH_BYTES } = {},
): (utilization: number, used: number) => boolean {
  let left = 0;
  return (utilization, used) => {
    if (!(utilization < busyAbove) || !(used - left >= growth)) return false;
    left = collect();
    return true;
  };
}

/**
 * Starts the checks, with `gc` the collector Node exposes (`--expose-gc`, in the server's command:
 * scripts/server-command.mjs); nothing is started without it. Returns what stops them.
 */
export function collectAtRest(gc: NodeJS.GCFunction | undefined, everyMs = REST_CHECK_MS): () => void {
  if (gc === undefined) return () => undefined;
  const used = () => getHeapStatistics().used_heap_size;
  const observe = restCollector(() => {
    // The flavor that gives memory back to the system, as V8 does when told memory is low: a plain
    // full collection frees the garbage but keeps its pages (measured: no change of the process's PSS).
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    return used();
  });
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    observe(performance.eventLoopUtilization(now, last).utilization, used());
    last = now;
  }, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}
