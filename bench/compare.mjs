// Two builds of the site, side by side: `node bench/compare.mjs --before=DIR [--runs=5] [--routes=/,/label]`
// DIR holds a copy of the built parts laid out as DIR/shell/dist, DIR/mf-*/dist (e.g. a git worktree
// of an earlier commit, built). Both are served by this checkout's server on loopback; with
// --before-server, DIR is a whole checkout (its own `npm ci` and build) served by its own server, for
// a change of the server and the parts together (a newer server renders older parts' pages in the
// browser, which would not compare like with like). Lighthouse
// (mobile, simulated throttling) audits them in turns — before, after, before, after… — so that the
// machine's ups and downs fall on both alike. Prints the medians, and what the browser asked for
// before the LCP; writes bench/results/compare.md and .json (--out=NAME: NAME.md and NAME.json).
// A route `@event` is the first event's page.
// --after=DIR puts another built checkout, with its own server, in place of this one: a bisect
// compares two commits of the history on one machine in one run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';
import { lighthouseRun } from './lib/lighthouse.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const before = arg('before', undefined);
if (before === undefined) throw new Error('--before=DIR : les parties construites à comparer');
const runs = Number(arg('runs', '5'));
// Another name keeps a comparison's figures beside the others' (bench/results/<out>.md and .json).
const out = arg('out', 'compare');
const routes = arg('routes', '/,/residences,/residences/axonberg,/label,/a-propos').split(',');

const ownServer = process.argv.includes('--before-server');
// --cpu=N: the simulated phone N times slower than this machine (Lighthouse's 4 by default). A quiet
// fast machine's tasks of a few milliseconds give a blocking time at the level of the runs' noise; a
// larger N lifts them out of it, as a slower phone would (bench/README.md).
const cpuSlowdown = Number(arg('cpu', '4'));
const ports = { before: await freePort(), after: 0 };
const servers = [
  ownServer ? await startServer(before, ports.before) : await startServer(root, ports.before, { DIST_ROOT: before }),
];
ports.after = await freePort();
// --after=DIR: another whole checkout, with its own server, in place of this one (a bisect's step).
servers.push(await startServer(arg('after', root), ports.after));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
function earlyOf(list) {
  const run = [...list].sort((a, b) => a.lcpMs - b.lcpMs)[Math.floor((list.length - 1) / 2)];
  const early = run?.beforeLcp ?? [];
  return {
    beforeLcp: early.length,
    beforeLcpKB: Math.round(early.reduce((sum, r) => sum + r.bytes, 0) / 102.4) / 10,
    beforeLcpPaths: early.map((r) => r.path),
  };
}
const rows = [];
try {
  // `@event`: the first event's page (the demo's events are the same on both sides).
  const events = await (await fetch(`http://127.0.0.1:${String(ports.after)}/api/events`)).json();
  const event = [...events.coming, ...events.past][0];
  const paths = routes.map((route) => (route === '@event' ? `/evenements/${event.slug}` : route));
  // Each page asked for once on each side before any is measured: a server's first answer of a kind
  // (its renderer starting, its caches empty) would fall on the first run only.
  for (const route of paths) {
    for (const side of ['before', 'after']) await fetch(`http://127.0.0.1:${String(ports[side])}${route}`);
  }
  for (const route of paths) {
    const results = { before: [], after: [] };
    for (let i = 0; i < runs; i += 1) {
      for (const side of ['before', 'after']) {
        results[side].push(await lighthouseRun(`http://127.0.0.1:${String(ports[side])}${route}`, { cpuSlowdown }));
      }
    }
    for (const side of ['before', 'after']) {
      const list = results[side];
      const row = {
        route,
        side,
        performance: median(list.map((r) => r.performance)),
        runs: list.map((r) => r.performance).join(', '),
        fcpMs: median(list.map((r) => r.fcpMs)),
        lcpMs: median(list.map((r) => r.lcpMs)),
        tbtMs: median(list.map((r) => r.tbtMs)),
        tbtRuns: list.map((r) => r.tbtMs).join(', '),
        // Each run's long tasks (JSON only): what its blocking time was made of.
        longTasks: list.map((r) => r.longTasks ?? []),
        cls: median(list.map((r) => r.cls)),
        lcpElement: list[0]?.lcpElement ?? '',
        // The median run's (by LCP) requests before the LCP: how many, their bytes.
        ...earlyOf(list),
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
} finally {
  for (const server of servers) server.kill();
}

const md = [
  `# Before / after (${new Date().toISOString().slice(0, 10)}, Lighthouse mobile simulated, CPU ×${String(cpuSlowdown)}, median of ${String(runs)} runs in turns)`,
  '',
  ownServer
    ? "before: the checkout given with --before, with its own server; after: this checkout's build and server"
    : "before: the build given with --before; after: this checkout's build",
  '',
  '| route | build | perf (runs) | FCP ms | LCP ms | TBT ms (runs) | CLS | requests before the LCP (KB) | LCP element |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (r) =>
      `| ${r.route} | ${r.side} | ${String(r.performance)} (${r.runs}) | ${String(r.fcpMs)} | ${String(r.lcpMs)} | ${String(r.tbtMs)} (${String(r.tbtRuns)}) | ${String(r.cls)} | ${String(r.beforeLcp)} (${String(r.beforeLcpKB)}) | \`${String(r.lcpElement).replace(/\|/g, '\\|').slice(0, 70)}\` |`,
  ),
  '',
];
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', `${out}.md`), md.join('\n'));
writeFileSync(join(root, 'bench', 'results', `${out}.json`), `${JSON.stringify(rows, null, 2)}\n`);
