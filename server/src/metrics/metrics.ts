import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The admins' metrics (docs/deploy.md, « Metrics »): one registry for the process, read by
 * GET /metrics in Prometheus' format. The places that render, start renderers, read upstreams and
 * deploy count here; what is a state (the render queue, the live channel's listeners, Redis) is
 * read when scraped, from what the app registered (`watch`).
 */
export const registry = new Registry();
let defaults = false;

/** Node's own metrics (memory, event loop, handles), started with the first app that serves them. */
export function startDefaultMetrics(): void {
  if (defaults) return;
  defaults = true;
  collectDefaultMetrics({ register: registry });
}

/** What a gauge reads when scraped: each app of the process adds its own (tests build several). */
function watched(name: string, help: string, labelNames: string[] = []) {
  const readers = new Set<() => { labels?: Record<string, string>; value: number }[]>();
  const gauge = new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const read of readers) {
        for (const { labels, value } of read()) {
          if (labels === undefined) this.inc(value);
          else this.inc(labels, value);
        }
      }
    },
  });
  return {
    gauge,
    watch(read: () => { labels?: Record<string, string>; value: number }[]): () => void {
      readers.add(read);
      return () => readers.delete(read);
    },
  };
}

export const siteMetrics = {
  pagesRendered: new Counter({
    name: 'collectif_pages_rendered_total',
    help: 'Pages rendered on the server, by route and by how (page: rendered; browser: left to the browser).',
    labelNames: ['route', 'way'],
    registers: [registry],
  }),
  renderSeconds: new Histogram({
    name: 'collectif_page_render_seconds',
    help: 'Time to render a page, from its turn asked to its answer, by route.',
    labelNames: ['route'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  }),
  renderQueue: new Gauge({
    name: 'collectif_render_queue_length',
    help: 'Pages waiting for a renderer.',
    registers: [registry],
  }),
  renderersStarted: new Counter({
    name: 'collectif_renderers_started_total',
    help: 'Renderer processes started.',
    registers: [registry],
  }),
  renderersStopped: new Counter({
    name: 'collectif_renderers_stopped_total',
    help: 'Renderer processes stopped, by why: deadline (killed by the pool), crashed, retired.',
    labelNames: ['reason'],
    registers: [registry],
  }),
  upstreamAnswers: new Counter({
    name: 'collectif_upstream_answers_total',
    help: 'Answers read from an upstream cache, by source and state: fresh, stale, failed.',
    labelNames: ['source', 'state'],
    registers: [registry],
  }),
  deploys: new Counter({
    name: 'collectif_deploys_total',
    help: 'Deploys and rollbacks, by part, action and outcome (live or refused).',
    labelNames: ['part', 'action', 'outcome'],
    registers: [registry],
  }),
  liveChannel: watched('collectif_live_channel_listeners', 'Listeners of the now-playing channel on this instance.'),
  redisUp: watched('collectif_redis_up', 'Whether Redis answers (1) or not (0); absent without REDIS_URL.'),
};

export const figuresMetrics = {
  counted: new Counter({
    name: 'collectif_figures_beacons_total',
    help: 'What the figures did with each beacon or sample: live, replay, progress, repeated, over_quota, objected, unknown_episode, refused, sample.',
    labelNames: ['what'],
    registers: [registry],
  }),
  live: new Gauge({
    name: 'collectif_figures_live_listeners',
    help: 'The live listeners at the last sample, by source (and total).',
    labelNames: ['source'],
    registers: [registry],
  }),
};

/** Counts a deploy's or a rollback's outcome. */
export async function countedDeploy<T extends { ok: boolean }>(
  action: 'deploy' | 'rollback',
  part: string,
  outcome: Promise<T>,
): Promise<T> {
  try {
    const done = await outcome;
    siteMetrics.deploys.inc({ part, action, outcome: done.ok ? 'live' : 'refused' });
    return done;
  } catch (error) {
    siteMetrics.deploys.inc({ part, action, outcome: 'failed' });
    throw error;
  }
}
