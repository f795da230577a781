// API throughput (issue 3), not a test: starts the real server on its embedded default, then
// autocannon on /api/podcasts?limit=8, /api/islive, /api/schedule and /api/events with a warm cache, beside the same server
// sending a static file of the same size in the same run; and the cold parse + map time of a
// generated 2,000-item feed. Writes bench/results/api.md and bench/results/api.json.
//   node bench/api.mjs [--duration=5]
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { tsImport } from 'tsx/esm/api';
import { startServer } from './lib/browser.mjs';
import { freePort } from './lib/cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const durationArg = process.argv.find((a) => a.startsWith('--duration='));
const DURATION_S = durationArg === undefined ? 5 : Number(durationArg.split('=')[1]);
const CONNECTIONS = 10;
const FEED_ITEMS = 2000;

function load(url, headers = {}) {
  return autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
}

const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

function figures(result) {
  return {
    requestsPerSecond: round(result.requests.average, 0),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Cold (first call in this process) and warm (median of the next runs) parse + map of a feed. */
async function feedTimes() {
  const rss = await tsImport('../server/src/api/upstream/rss.ts', import.meta.url);
  const demo = await tsImport('../server/src/api/demo/feed.ts', import.meta.url);
  const residences = await tsImport('../server/src/schedule/demo-residences.ts', import.meta.url);
  const audio = await tsImport('../server/src/api/demo/audio.ts', import.meta.url);
  const { xml } = demo.buildDemoFeed({
    residences: residences.loadResidences(join(root, 'shared', 'content', 'residences.json')),
    replays: audio.DEMO_REPLAYS,
    anchor: new Date('2026-03-05T12:00:00Z'),
    count: FEED_ITEMS,
  });
  const run = () => {
    const started = performance.now();
    const { items } = rss.parseFeedXml(xml);
    const data = rss.feedData(xml, items, true);
    return { ms: performance.now() - started, items: items.length, podcasts: data.podcasts.length };
  };
  const cold = run();
  const warm = Array.from({ length: 5 }, () => run().ms).sort((a, b) => a - b);
  return {
    items: cold.items,
    podcasts: cold.podcasts,
    xmlKiB: round(Buffer.byteLength(xml) / 1024),
    coldMs: round(cold.ms),
    warmMedianMs: round(warm[2]),
  };
}

mkdirSync(results, { recursive: true });
const port = await freePort();
const base = `http://127.0.0.1:${String(port)}`;
const server = await startServer(root, port);
// Same-size static files, bench-only names, removed at the end whatever happens.
const tag = randomBytes(4).toString('hex');
const staticFiles = [];
const report = {
  date: new Date().toISOString(),
  machine: `${String(cpus().length)} cœurs, ${cpus()[0]?.model ?? ''}`.trim(),
  durationS: DURATION_S,
  connections: CONNECTIONS,
  targets: [],
};
try {
  // A browser that already holds its XSRF cookie; the first visit (no cookie) is measured apart.
  const cookie = { cookie: 'XSRF-TOKEN=bench' };
  const targets = [
    { name: '/api/podcasts?limit=8', path: '/api/podcasts?limit=8', headers: cookie },
    { name: '/api/podcasts?limit=8 (first visit, sets the cookie)', path: '/api/podcasts?limit=8', headers: {} },
    { name: '/api/islive', path: '/api/islive', headers: cookie },
    // The week of /programme, from the calendars expanded once (docs/schedule.md).
    { name: '/api/schedule (a week)', path: '/api/schedule', headers: cookie },
    // The events of /evenements, from the calendars read once (docs/events.md).
    { name: '/api/events', path: '/api/events', headers: cookie },
  ];
  for (const target of targets.filter((t) => t.headers === cookie)) {
    const body = Buffer.from(await (await fetch(`${base}${target.path}`, { headers: cookie })).arrayBuffer());
    const name = `bench-api-${tag}-${String(body.length)}.json`;
    const file = join(root, 'shared', 'assets', name);
    writeFileSync(file, body);
    staticFiles.push(file);
    targets.push({
      name: `static file, same size as ${target.path} (${String(body.length)} B)`,
      path: `/assets/${name}`,
      headers: cookie,
      bytes: body.length,
    });
  }
  for (const target of targets) {
    await fetch(`${base}${target.path}`, { headers: target.headers }); // warm the cache
    console.log(`▶ ${target.name}`);
    report.targets.push({
      name: target.name,
      path: target.path,
      ...figures(await load(`${base}${target.path}`, target.headers)),
    });
  }
  report.feed = await feedTimes();
} finally {
  for (const file of staticFiles) rmSync(file, { force: true });
  server.kill();
}

const lines = [
  `# API benchmark (${report.date.slice(0, 10)}, ${report.machine})`,
  '',
  `autocannon, ${String(CONNECTIONS)} connections, ${String(DURATION_S)} s per target, warm cache, same server and run.`,
  '',
  '| target | req/s | p50 ms | p99 ms | errors | non-2xx |',
  '| --- | --- | --- | --- | --- | --- |',
  ...report.targets.map(
    (t) =>
      `| ${t.name} | ${String(t.requestsPerSecond)} | ${String(t.latencyP50Ms)} | ${String(t.latencyP99Ms)} | ${String(t.errors)} | ${String(t.non2xx)} |`,
  ),
  '',
  `Feed of ${String(report.feed.items)} items (${String(report.feed.xmlKiB)} KiB, ${String(report.feed.podcasts)} podcasts): validate + parse + map **${String(report.feed.coldMs)} ms** cold, ${String(report.feed.warmMedianMs)} ms warm (median of 5).`,
  '',
];
writeFileSync(join(results, 'api.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(results, 'api.md'), lines.join('\n'));
console.log(lines.join('\n'));
