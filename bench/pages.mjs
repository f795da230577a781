// Rendered pages' throughput (issues 13 and 14), not a test: starts the real server twice on the built
// parts, with the rendered-page cache (PAGE_CACHE_TTL_S=60, so that it holds for the whole run) and
// without it (PAGE_CACHE_TTL_S=0: every request renders), then autocannon on every route, beside a
// static file of the same size as the home page served by the same server in the same run.
// Writes bench/results/pages.md and bench/results/pages.json.
//   node bench/pages.mjs [--duration=5] [--root=DIR --out=NAME]
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServer } from './lib/browser.mjs';
import { freePort } from './lib/cli.mjs';
import { routePaths } from './lib/routes.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const results = join(here, 'bench', 'results');
// --root=DIR: another built checkout's server and parts (a before/after pair on one machine, in one
// run); --out=NAME: its figures in bench/results/NAME.md and .json.
const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const root = option('root') ?? here;
const out = option('out') ?? 'pages';
const durationArg = process.argv.find((a) => a.startsWith('--duration='));
const DURATION_S = durationArg === undefined ? 5 : Number(durationArg.split('=')[1]);
const CONNECTIONS = 10;
// Every page, and a search of the archive with a filter (issue 14).
const ROUTES = [...routePaths, '/emissions?q=jungle&style=dub'];

const load = (url) => autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });

const figures = (result) => ({
  requestsPerSecond: Math.round(result.requests.average),
  latencyP50Ms: result.latency.p50,
  latencyP99Ms: result.latency.p99,
  errors: result.errors + result.timeouts,
  non2xx: result.non2xx,
});

mkdirSync(results, { recursive: true });
const report = {
  date: new Date().toISOString(),
  machine: `${String(cpus().length)} cœurs, ${cpus()[0]?.model ?? ''}`.trim(),
  durationS: DURATION_S,
  connections: CONNECTIONS,
  targets: [],
};
const staticFile = join(root, 'shared', 'assets', `bench-page-${randomBytes(4).toString('hex')}.html`);

for (const [setting, ttl] of [
  ['cache', '60'],
  ['no cache', '0'],
]) {
  const port = await freePort();
  const base = `http://127.0.0.1:${String(port)}`;
  const server = await startServer(root, port, { PAGE_CACHE_TTL_S: ttl });
  try {
    for (const route of ROUTES) {
      const response = await fetch(`${base}${route}`);
      const body = await response.text();
      if (!body.includes('id="ssr-state"')) throw new Error(`${route} : la page n'a pas été rendue par le serveur`);
      console.log(`▶ ${route} (${setting})`);
      report.targets.push({
        route,
        setting,
        bytes: Buffer.byteLength(body),
        ...figures(await load(`${base}${route}`)),
      });
    }
    if (setting === 'no cache') {
      // The liveness probe while every page is being rendered (issue 22: p99 ≤ 20 ms).
      console.log('▶ /healthz during renders of /');
      const [, health] = await Promise.all([
        load(`${base}/`),
        autocannon({ url: `${base}/healthz`, connections: 1, duration: DURATION_S }),
      ]);
      report.targets.push({ route: '/healthz', setting: 'during / (no cache)', bytes: 0, ...figures(health) });
    }
    if (setting === 'cache') {
      const home = await (await fetch(`${base}/`)).text();
      writeFileSync(staticFile, home);
      console.log('▶ static file of the home page’s size');
      const result = await load(`${base}/assets/${staticFile.split('/').pop()}`);
      report.targets.push({
        route: 'static file',
        setting: 'same size as /',
        bytes: Buffer.byteLength(home),
        ...figures(result),
      });
    }
  } finally {
    rmSync(staticFile, { force: true });
    server.kill();
  }
}

const cached = report.targets.find((t) => t.route === '/' && t.setting === 'cache');
const file = report.targets.find((t) => t.route === 'static file');
report.cachedHomeToStatic = Math.round((cached.requestsPerSecond / file.requestsPerSecond) * 100) / 100;

const lines = [
  `# Rendered pages (${report.date.slice(0, 10)}, ${report.machine})`,
  '',
  `autocannon, ${String(CONNECTIONS)} connections, ${String(DURATION_S)} s per target, one server per setting, same run; renderers: ${process.env.RENDERERS ?? 'default (the cores but one)'}.`,
  '',
  '| route | setting | bytes | req/s | p50 ms | p99 ms | errors | non-2xx |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...report.targets.map(
    (t) =>
      `| ${t.route} | ${t.setting} | ${String(t.bytes)} | ${String(t.requestsPerSecond)} | ${String(t.latencyP50Ms)} | ${String(t.latencyP99Ms)} | ${String(t.errors)} | ${String(t.non2xx)} |`,
  ),
  '',
  `Cached home page / static file of the same size: **${report.cachedHomeToStatic.toFixed(2)}×** the throughput.`,
  '',
];
writeFileSync(join(results, `${out}.json`), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(results, `${out}.md`), lines.join('\n'));
console.log(lines.join('\n'));
