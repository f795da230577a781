import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The admins' metrics (docs/deploy.md, « Metrics »): one registry per app, made with it and passed to
 * the places that count (the renderers, the upstream caches, the deploys, the figures), read by
 * GET /metrics in Prometheus' format. What is a state (the live channel's listeners, Redis) is read
 * when scraped, from what the app registered (`watch`).
 */
export function createMetrics() {
  const registry = new Registry();
  return {
    registry,
    site: siteMetricsOf(registry),
    figures: figuresMetricsOf(registry),
    push: pushMetricsOf(registry),
    proposals: proposalsMetricsOf(registry),
  };
}

let processRegistry: Registry | null = null;

/**
 * Node's own metrics (memory, event loop, handles): the process's, whichever app serves them, so
 * collected once per process (tests build many apps), started by the first that serves /metrics.
 */
export function processMetrics(): Registry {
  if (processRegistry === null) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** An app's metrics (`createMetrics`). */
export type Metrics = ReturnType<typeof createMetrics>;
/** What the site counts, beside the figures'. */
export type SiteMetrics = Metrics['site'];

/** What a gauge reads when scraped: what the app's plugins registered (each removes its own on close). */
function watched(registry: Registry, name: string, help: string, labelNames: string[] = []) {
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

const siteMetricsOf = (registry: Registry) => ({
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
  renderQueue: watched(registry, 'collectif_render_queue_length', 'Pages waiting for a renderer.'),
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
  liveChannel: watched(
    registry,
    'collectif_live_channel_listeners',
    'Listeners of the now-playing channel on this instance.',
  ),
  redisUp: watched(registry, 'collectif_redis_up', 'Whether Redis answers (1) or not (0); absent without REDIS_URL.'),
});

const figuresMetricsOf = (registry: Registry) => ({
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
});

const pushMetricsOf = (registry: Registry) => ({
  notifications: new Counter({
    name: 'collectif_push_notifications_total',
    help: '« Me prévenir »: notifications sent by this instance, by kind (live, replay) and outcome (sent, gone, failed).',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  }),
  subscriptions: watched(
    registry,
    'collectif_push_subscriptions',
    '« Me prévenir »: subscriptions kept (the deployment’s, with Redis).',
  ),
  sending: watched(
    registry,
    'collectif_push_sending',
    '« Me prévenir »: whether this instance is the one that sends (1).',
  ),
  looks: new Counter({
    name: 'collectif_push_looks_total',
    help: '« Me prévenir »: looks of the sender at the programme and the feed (one every 30 s while it sends).',
    registers: [registry],
  }),
});

/** « Proposer une émission » and « Envoyer une démo » (docs/proposals.md, « E-mail »). */
const proposalsMetricsOf = (registry: Registry) => ({
  received: new Counter({
    name: 'collectif_proposals_received_total',
    help: 'Proposals stored by this instance, by kind (emission, demo) and form (json, form).',
    labelNames: ['kind', 'form'],
    registers: [registry],
  }),
  refused: new Counter({
    name: 'collectif_proposals_refused_total',
    help: 'Proposals refused by this instance, by reason (fields, challenge, honeypot, fast, network).',
    labelNames: ['reason'],
    registers: [registry],
  }),
  mails: new Counter({
    name: 'collectif_proposals_mails_total',
    help: 'Proposals’ e-mails tried by this instance, by outcome (sent, retry: failed and tried again later, failed: given up).',
    labelNames: ['outcome'],
    registers: [registry],
  }),
  waiting: watched(
    registry,
    'collectif_proposals_mails_waiting',
    'Proposals’ e-mails not sent yet and not given up, as the sending instance last counted them.',
  ),
});

/** Counts a deploy's or a rollback's outcome. */
export async function countedDeploy<T extends { ok: boolean }>(
  siteMetrics: Pick<SiteMetrics, 'deploys'>,
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
