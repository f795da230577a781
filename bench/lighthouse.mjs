// Lighthouse 12 (mobile, simulated throttling) on chosen pages of the built site, without the whole
// `npm run bench`: the real server on loopback, each page audited `--runs` times, the median run
// reported with every run's score. Not a test. Writes bench/results/<out>.md and .json.
//   node bench/lighthouse.mjs [--runs=3] [--paths=/evenements,/a-propos] [--out=lighthouse]
// `@event` in --paths is the first coming event's page (from /api/events). Default: the events'
// list and an event's page.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';
import { lighthouseRun } from './lib/lighthouse.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const RUNS = Number(arg('runs', '3'));
const PATHS = arg('paths', '/evenements,@event').split(',');
// Another name keeps another set of pages' figures beside the default one.
const OUT = arg('out', 'lighthouse');

const port = await freePort();
const origin = `http://127.0.0.1:${String(port)}`;
const server = await startServer(root, port);
try {
  const events = await (await fetch(`${origin}/api/events`)).json();
  const event = [...events.coming, ...events.past][0];
  const paths = PATHS.map((path) => (path === '@event' ? `/evenements/${event.slug}` : path));
  const report = { date: new Date().toISOString(), cores: cpus().length, runs: RUNS, pages: {} };
  for (const path of paths) {
    const runs = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await lighthouseRun(`${origin}${path}`));
    const sorted = [...runs].sort((a, b) => a.performance - b.performance);
    report.pages[path] = {
      median: sorted[Math.floor((sorted.length - 1) / 2)],
      scores: runs.map((r) => r.performance),
    };
    console.log(path, report.pages[path].median);
  }
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, `${OUT}.json`), `${JSON.stringify(report, null, 2)}\n`);
  const lines = [
    `# Lighthouse, chosen pages (${report.date.slice(0, 10)}, ${String(report.cores)} cœurs)`,
    '',
    `Mobile, simulated throttling; median of ${String(RUNS)} runs by performance, every run's score in brackets.`,
    '`node bench/lighthouse.mjs` on the built site.',
    '',
    '| page | performance | accessibility | best practices | SEO | LCP ms | TBT ms | CLS | audits under 0.9 |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...Object.entries(report.pages).map(
      ([path, { median: m, scores }]) =>
        `| ${path} | ${String(m.performance)} [${scores.join(', ')}] | ${String(m.accessibility)} | ${String(m.bestPractices)} | ${String(m.seo)} | ${String(m.lcpMs)} | ${String(m.tbtMs)} | ${String(m.cls)} | ${m.failing.join(', ')} |`,
    ),
    '',
  ];
  writeFileSync(join(results, `${OUT}.md`), lines.join('\n'));
} finally {
  server.kill();
}
