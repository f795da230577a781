import { siteMetrics } from '../../metrics/metrics';

/**
 * Pages waiting for a renderer (docs/rendering.md, « Renderers »): first come, first rendered, and a
 * lane's renderers given one task each at a time, so that no page is overtaken by one that came
 * after it. `limit` 0 lets every task through at once (rendering in the server's own process).
 */
export function createQueue(limit: number) {
  const waiting: (() => void)[] = [];
  let running = 0;
  return {
    /** Resolves true when the task's turn has come, false when it was abandoned while waiting. */
    turn(signal: AbortSignal): Promise<boolean> {
      if (limit === 0 || running < limit) {
        running += 1;
        return Promise.resolve(true);
      }
      return new Promise((resolve) => {
        const go = () => {
          siteMetrics.renderQueue.dec();
          signal.removeEventListener('abort', give);
          resolve(true);
        };
        const give = () => {
          siteMetrics.renderQueue.dec();
          waiting.splice(waiting.indexOf(go), 1);
          resolve(false);
        };
        waiting.push(go);
        siteMetrics.renderQueue.inc();
        signal.addEventListener('abort', give, { once: true });
      });
    },
    /** A task has ended: the next in line goes. */
    done(): void {
      const next = waiting.shift();
      if (next === undefined) running -= 1;
      else next();
    },
  };
}
