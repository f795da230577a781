import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app/app';
import { readSiteServerConfig } from '../settings/config';
import { testConfig } from '../api/testing/fixtures';
import { UpstreamError } from '../http/errors';
import { UpstreamCache } from '../upstream/cache';
import { Registry } from 'prom-client';
import { countedDeploy, createMetrics, processMetrics } from './metrics';

// GET /metrics (docs/deploy.md, « Metrics »): Prometheus' text format for the loopback or the
// admins' token, refused otherwise (a header claiming another client from the loopback included);
// every line read back by the format's grammar and its values the registry's own (prom-client has
// no parser of the text format: its JSON, getMetricsAsJSON, is the reference). NaN and Inf are
// read as Prometheus reads them, in any case (prom-client writes « Nan »).

const TOKEN = 'jeton-des-metriques-du-test-123';
const distRoot = mkdtempSync(join(tmpdir(), 'metriques-site-'));
let app: FastifyInstance;

beforeAll(async () => {
  const api = testConfig();
  app = await buildApp({
    site: readSiteServerConfig({ DIST_ROOT: distRoot, RENDERERS: '0' }),
    api: { ...api, figures: { ...api.figures, metricsToken: TOKEN } },
  });
});
afterAll(async () => {
  await app.close();
  rmSync(distRoot, { recursive: true, force: true });
});

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABELS = `\\{(?:${NAME}="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"(?:,${NAME}="(?:[^"\\\\\\n]|\\\\[\\\\"n])*")*,?)?\\}`;
const SAMPLE = new RegExp(
  `^(${NAME})(${LABELS})? (-?(?:\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?|[Nn][Aa][Nn]|[+-][Ii]nf))( \\d+)?$`,
);

/** The text format read line by line: each family's help and type, each sample's name, labels and value. */
function parse(text: string) {
  const families = new Map<
    string,
    { help: string; type: string; samples: { name: string; labels: string; value: number }[] }
  >();
  const family = (name: string) => {
    let known = families.get(name);
    if (known === undefined) {
      known = { help: '', type: '', samples: [] };
      families.set(name, known);
    }
    return known;
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const help = /^# HELP (\S+) (.*)$/.exec(line);
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (help !== null) family(help[1] ?? '').help = help[2] ?? '';
    else if (type !== null) family(type[1] ?? '').type = type[2] ?? '';
    else {
      const sample = SAMPLE.exec(line);
      if (sample === null) throw new Error(`ligne illisible : ${line}`);
      const [, name = '', labels = '', value = ''] = sample;
      const owner = [...families.keys()]
        .filter((known) => name.startsWith(known))
        .sort((a, b) => b.length - a.length)[0];
      if (owner === undefined) throw new Error(`échantillon sans famille : ${line}`);
      family(owner).samples.push({ name, labels, value: Number(value) });
    }
  }
  return families;
}

describe('GET /metrics', () => {
  it('answers the loopback in Prometheus’ format, every family the registry has', async () => {
    await app.inject({
      method: 'POST',
      url: '/api/figures/beacon',
      headers: { 'content-type': 'text/plain' },
      payload: '{"kind":"live"}',
    });
    const answer = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parse(answer.body);
    for (const name of [
      'collectif_pages_rendered_total',
      'collectif_page_render_seconds',
      'collectif_render_queue_length',
      'collectif_renderers_started_total',
      'collectif_renderers_stopped_total',
      'collectif_upstream_answers_total',
      'collectif_live_channel_listeners',
      'collectif_deploys_total',
      'collectif_redis_up',
      'collectif_figures_beacons_total',
      'collectif_figures_live_listeners',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect({ name, help: families.get(name)?.help !== '' && families.has(name) }).toEqual({ name, help: true });
    }
    const beacons = families
      .get('collectif_figures_beacons_total')
      ?.samples.find((sample) => sample.labels === '{what="live"}');
    expect(beacons?.value).toBeGreaterThanOrEqual(1);
    // The same values as the registry's own JSON.
    const json = await app.metrics.registry.getMetricsAsJSON();
    const live = json.find((metric) => metric.name === 'collectif_figures_beacons_total');
    expect(live?.values.find((value) => value.labels.what === 'live')?.value).toBe(beacons?.value);
  });

  it('is refused from elsewhere without the token, and given with it', async () => {
    const outside = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' });
    expect(outside.statusCode).toBe(403);
    expect(outside.body).toBe(
      'Accès refusé : les métriques se lisent depuis la machine même, ou avec le jeton des admins.\n',
    );
    expect(outside.body).not.toContain('collectif_');
    // Passed on by a proxy on the same machine: the client is elsewhere.
    const proxied = await app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(proxied.statusCode).toBe(403);
    const wrong = await app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { authorization: 'Bearer un-autre-jeton-de-24-caracteres' },
    });
    expect(wrong.statusCode).toBe(403);
    const given = await app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(given.statusCode).toBe(200);
    expect(parse(given.body).has('collectif_redis_up')).toBe(true);
  });
});

describe('the Grafana dashboard (deploy/grafana-dashboard.json)', () => {
  it('reads only metrics the site exposes', async () => {
    const dashboard = JSON.parse(
      readFileSync(join(__dirname, '..', '..', '..', 'deploy', 'grafana-dashboard.json'), 'utf8'),
    ) as { panels: { targets: { expr: string }[] }[] };
    const known = new Set(
      (await Registry.merge([processMetrics(), createMetrics().registry]).getMetricsAsJSON()).map(
        (metric) => metric.name,
      ),
    );
    const read = dashboard.panels
      .flatMap((panel) => panel.targets.map((target) => target.expr))
      .flatMap((expr) =>
        [...expr.matchAll(/\b(collectif_[a-z_]+|process_[a-z_]+|nodejs_[a-z0-9_]+)\b/g)].map((m) => m[1] ?? ''),
      );
    expect(read.length).toBeGreaterThan(10);
    expect(read.map((name) => name.replace(/_(bucket|sum|count)$/, '')).filter((name) => !known.has(name))).toEqual([]);
  });
});

describe('what the metrics count', () => {
  const metrics = createMetrics();
  const value = async (name: string, labels: Record<string, string>, registry = metrics.registry) =>
    (await registry.getMetricsAsJSON())
      .find((metric) => metric.name === name)
      ?.values.find((one) => Object.entries(labels).every(([key, wanted]) => one.labels[key] === wanted))?.value ?? 0;

  it('counts an upstream’s answers fresh, stale and failed', async () => {
    let now = 0;
    let fail = false;
    const cache = new UpstreamCache(
      'events',
      () =>
        fail ? Promise.reject(new UpstreamError('events', 'timeout', 'délai dépassé')) : Promise.resolve('agenda'),
      { ttlMs: 1000, retryMs: 1000, now: () => now, metrics: metrics.site },
    );
    const before = {
      fresh: await value('collectif_upstream_answers_total', { source: 'events', state: 'fresh' }),
      stale: await value('collectif_upstream_answers_total', { source: 'events', state: 'stale' }),
      failed: await value('collectif_upstream_answers_total', { source: 'events', state: 'failed' }),
    };
    await cache.get();
    fail = true;
    now = 2000;
    await cache.get();
    const empty = new UpstreamCache('events', () => Promise.reject(new UpstreamError('events', 'timeout', 'délai')), {
      ttlMs: 1000,
      metrics: metrics.site,
    });
    await expect(empty.get()).rejects.toThrow();
    expect({
      fresh: (await value('collectif_upstream_answers_total', { source: 'events', state: 'fresh' })) - before.fresh,
      stale: (await value('collectif_upstream_answers_total', { source: 'events', state: 'stale' })) - before.stale,
      failed: (await value('collectif_upstream_answers_total', { source: 'events', state: 'failed' })) - before.failed,
    }).toEqual({ fresh: 1, stale: 1, failed: 1 });
  });

  it('counts deploys and rollbacks by part and outcome', async () => {
    const before = await value('collectif_deploys_total', { part: 'label', action: 'rollback', outcome: 'refused' });
    await countedDeploy(metrics.site, 'rollback', 'label', Promise.resolve({ ok: false }));
    await expect(
      countedDeploy(metrics.site, 'deploy', 'label', Promise.reject(new Error('disque plein'))),
    ).rejects.toThrow();
    expect(await value('collectif_deploys_total', { part: 'label', action: 'rollback', outcome: 'refused' })).toBe(
      before + 1,
    );
    expect(
      await value('collectif_deploys_total', { part: 'label', action: 'deploy', outcome: 'failed' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts each app apart: what one app of the process read is not another’s', async () => {
    const api = testConfig();
    const other = await buildApp({ site: readSiteServerConfig({ DIST_ROOT: distRoot, RENDERERS: '0' }), api });
    try {
      const feed = { source: 'feed', state: 'fresh' };
      const counts = async () => ({
        app: await value('collectif_upstream_answers_total', feed, app.metrics.registry),
        other: await value('collectif_upstream_answers_total', feed, other.metrics.registry),
      });
      const before = await counts();
      expect((await app.inject({ method: 'GET', url: '/api/podcasts?limit=1' })).statusCode).toBe(200);
      const after = await counts();
      expect(after.app).toBeGreaterThan(before.app);
      expect(after.other).toBe(before.other);
    } finally {
      await other.close();
    }
  });
});
