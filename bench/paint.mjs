// First and largest paint as a phone sees them (issue 13), not a test: the real server on the built
// parts twice, pages rendered on the server and in the browser (SSR=off), each route loaded cold in
// Debian's Chromium at 390×844 with the CPU slowed 4× and a slow 4G network (150 ms, 1.6 Mbit/s
// down, 750 kbit/s up), read from the browser's own PerformanceObserver; median of `--runs` loads.
// Lighthouse's simulated LCP (npm run bench) models the page instead of loading it.
// Writes bench/results/paint.md and bench/results/paint.json.
//   node bench/paint.mjs [--runs=3]
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, startServer, throttle } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';
import { routePaths } from './lib/routes.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const RUNS = Number(arg('runs', '3'));
const ROUTES = routePaths;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

async function load(browser, url) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  const page = await context.newPage();
  await throttle(context, page);
  await page.addInitScript(() => {
    window.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  // The page's heading shown (in the browser-rendered site, once its scripts have run), then a
  // second for a later, larger paint; LCP stops at the first input, until then the last one counts.
  await page.waitForFunction(
    () =>
      performance.getEntriesByName('first-contentful-paint').length > 0 &&
      document.querySelector('#contenu h1') !== null,
    undefined,
    { timeout: 60_000 },
  );
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1000);
  const figures = await page.evaluate(() => ({
    fcpMs: Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0),
    lcpMs: Math.round(window.__lcp),
  }));
  await context.close();
  return figures;
}

mkdirSync(results, { recursive: true });
const report = { date: new Date().toISOString(), machine: `${String(cpus().length)} cœurs`, runs: RUNS, rows: [] };
const browser = await launch();
try {
  for (const [rendering, env] of [
    ['server', {}],
    ['browser (SSR=off)', { SSR: 'off' }],
  ]) {
    const port = await freePort();
    const server = await startServer(root, port, env);
    try {
      for (const route of ROUTES) {
        const runs = [];
        for (let run = 0; run < RUNS; run += 1)
          runs.push(await load(browser, `http://127.0.0.1:${String(port)}${route}`));
        const row = {
          route,
          rendering,
          fcpMs: median(runs.map((r) => r.fcpMs)),
          lcpMs: median(runs.map((r) => r.lcpMs)),
          lcpRuns: runs.map((r) => r.lcpMs),
        };
        console.log(JSON.stringify(row));
        report.rows.push(row);
      }
    } finally {
      server.kill();
    }
  }
} finally {
  await browser.close();
}

const lines = [
  `# First and largest paint (${report.date.slice(0, 10)}, ${report.machine})`,
  '',
  `Chromium 390×844, CPU 4× slower, 150 ms / 1.6 Mbit/s; median of ${String(RUNS)} cold loads (every LCP in brackets).`,
  '',
  '| route | rendered by | FCP ms | LCP ms |',
  '| --- | --- | --- | --- |',
  ...report.rows.map(
    (r) => `| ${r.route} | ${r.rendering} | ${String(r.fcpMs)} | ${String(r.lcpMs)} (${r.lcpRuns.join(', ')}) |`,
  ),
  '',
];
writeFileSync(join(results, 'paint.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(results, 'paint.md'), lines.join('\n'));
console.log(lines.join('\n'));
