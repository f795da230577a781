// What the main thread ran in the long tasks after the paint (issue 85), named in the sources, not a
// test: for each route, a cold visit in Chromium at 390 px with the CPU 4× slower (as
// bench/long-tasks.mjs), a trace with V8's sampling profiler from before the navigation until the page has
// been quiet, in a Chromium trace: the long tasks are the page's main thread's tasks over 50 ms
// after the first contentful paint, as the trace records them (as Lighthouse reads them); each CPU
// sample of V8's profiler, recorded in the same trace, inside them is named through the built files' source maps:
// a function of the site's own sources (part, file, function), or a library by its package, or
// the browser's own work (style, layout, paint, parsing: V8's « (program) »), or the collector.
// Reports per route the blocking time so counted after the first contentful paint and, for each
// name, the milliseconds of long tasks it held; then each long task with its three largest names.
// Writes bench/results/NAME.md and .json (--out=NAME, main-thread by default).
//   node bench/main-thread.mjs [--runs=3] [--routes=/,/label] [--root=DIR] [--pair=DIR] [--out=NAME]
// --root=DIR: another built checkout, served by its own server; --pair=DIR: that one too, visited in
// turns with this one (or --root's), route by route.
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { launch, startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';
import { mapOf } from './lib/source-maps.mjs';
import {
  browserWorkEvents,
  browserWorkIn,
  mainThread,
  median,
  navigationStart,
  tasksAfterPaint,
} from './lib/trace.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(arg('runs', '3'));
const ROUTES = arg('routes', '/,/residences,/residences/axonberg,/label,/a-propos,/emissions').split(',');
const OUT = arg('out', 'main-thread');
const roots = { après: arg('root', here) };
const pair = arg('pair', undefined);
if (pair !== undefined) roots.avant = pair;
const LONG_MS = 50;

/** A sample's name: the site's own function, a library's package, or the browser's work. */
function nameOf(root, frame) {
  const { functionName, lineNumber, columnNumber } = frame;
  const url = frame.url ?? '';
  if (functionName === '(idle)') return null;
  if (functionName === '(program)') return 'le navigateur (style, mise en page, peinture, analyse)';
  if (functionName === '(garbage collector)') return 'le ramasse-miettes';
  if (functionName === '(root)') return 'le navigateur (style, mise en page, peinture, analyse)';
  if (url === '') return `natif · ${(functionName || '(anonyme)').slice(0, 40)}`;
  const map = mapOf(root, url);
  const entry = map?.findEntry(lineNumber, columnNumber);
  const source = entry?.originalSource;
  if (source === undefined) {
    const where = URL.canParse(url) ? new URL(url).pathname.replace(/\.[0-9a-f]{8,}\./, '.') : url;
    return `${where} · script sans carte`;
  }
  const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (library !== null) return `bibliothèque · ${library[1]}`;
  const own = source
    .replace(/^webpack:\/\/[^/]*\//, '')
    .replace(/^(\.\.\/)+/, '')
    .replace(/^\.\//, '');
  return `${own} · ${entry.name ?? functionName ?? '(anonyme)'}`;
}

const CATEGORIES = [
  'blink.user_timing',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-v8.cpu_profiler',
  // V8's own compile events, with the parse again of a function for its source positions.
  'disabled-by-default-v8.compile',
  'loading',
  'toplevel',
  'v8.execute',
];

/** The main thread's CPU samples: their time (µs, the trace's clock), how long each lasted, and its frame. */
function samplesOf(events, { pid, tid }) {
  const profiles = new Map();
  for (const event of events) {
    if (event.pid !== pid) continue;
    if (event.name === 'Profile' && event.tid === tid) {
      profiles.set(event.id, { start: event.args.data.startTime, nodes: new Map(), samples: [], deltas: [] });
    }
  }
  for (const event of events) {
    if (event.pid !== pid || event.name !== 'ProfileChunk') continue;
    const profile = profiles.get(event.id);
    const data = event.args?.data;
    if (profile === undefined || data === undefined) continue;
    for (const node of data.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node);
    profile.samples.push(...(data.cpuProfile?.samples ?? []));
    profile.deltas.push(...(data.timeDeltas ?? []));
  }
  const samples = [];
  for (const profile of profiles.values()) {
    let at = profile.start;
    for (let i = 0; i < profile.samples.length; i += 1) {
      at += profile.deltas[i] ?? 0;
      samples.push({ at, frame: profile.nodes.get(profile.samples[i])?.callFrame });
    }
  }
  samples.sort((x, y) => x.at - y.at);
  // A sample stands for the time until the next one (at most 10 ms: the sampler can pause).
  return samples.map((sample, i) => ({
    ...sample,
    lasted: Math.min(10_000, (samples[i + 1]?.at ?? sample.at) - sample.at),
  }));
}

/** One cold visit: the main thread's long tasks after the FCP, from the trace, each named by its samples. */
async function visit(browser, root, origin, path) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await browser.startTracing(page, { categories: CATEGORIES });
  await page.goto(`${origin}${path}`, { waitUntil: 'load' });
  await delay(6000);
  const { traceEvents: events } = JSON.parse((await browser.stopTracing()).toString('utf8'));
  await context.close();

  const main = mainThread(events);
  if (main === null) return null;
  const start = navigationStart(events, main, `${origin}${path}`);
  if (start === null) {
    console.error(`${path} : trace sans début de navigation, visite ignorée`);
    return null;
  }
  const samples = samplesOf(events, main);
  const names = new Map();
  const named = (frame) => {
    if (frame === undefined) return null;
    const key = `${frame.url}:${String(frame.lineNumber)}:${String(frame.columnNumber)}:${frame.functionName}`;
    if (!names.has(key)) names.set(key, nameOf(root, frame));
    return names.get(key);
  };
  const long = tasksAfterPaint(events, main, LONG_MS);
  const held = new Map();
  // The browser's own work, by the trace's events for it (not JavaScript: V8 sees it as « (program) »).
  const work = browserWorkEvents(events, main);
  const tasks = long.map((task) => {
    const inside = new Map();
    for (const sample of samples) {
      if (sample.at < task.ts || sample.at >= task.ts + task.dur) continue;
      const name = named(sample.frame);
      if (name === null) continue;
      inside.set(name, (inside.get(name) ?? 0) + sample.lasted / 1000);
    }
    for (const [name, ms] of inside) held.set(name, (held.get(name) ?? 0) + ms);
    return {
      start: (task.ts - start) / 1000,
      ms: task.dur / 1000,
      top: [...inside].sort((x, y) => y[1] - x[1]).slice(0, 3),
      browser: browserWorkIn(work, task),
    };
  });
  return {
    fcp: (main.fcp - start) / 1000,
    tbt: tasks.reduce((sum, task) => sum + task.ms - LONG_MS, 0),
    held: Object.fromEntries([...held].sort((x, y) => y[1] - x[1])),
    tasks,
  };
}

const report = { date: new Date().toISOString().slice(0, 10), cores: cpus().length, runs: RUNS, builds: {} };
const servers = [];
try {
  const origins = {};
  for (const [name, root] of Object.entries(roots)) {
    const port = await freePort();
    servers.push(await startServer(root, port));
    origins[name] = `http://127.0.0.1:${String(port)}`;
    report.builds[name] = {};
  }
  const browser = await launch();
  try {
    for (const path of ROUTES) {
      for (const name of Object.keys(origins)) report.builds[name][path] = [];
      // In turns, so that the machine's ups and downs fall on both alike.
      for (let run = 0; run < RUNS; run += 1) {
        for (const [name, origin] of Object.entries(origins)) {
          const seen = await visit(browser, roots[name], origin, path);
          if (seen !== null) report.builds[name][path].push(seen);
        }
      }
    }
  } finally {
    await browser.close();
  }
} finally {
  for (const server of servers) server.kill();
}

const lines = [
  `# What the long tasks after the paint ran (${report.date}, ${String(report.cores)} cœurs, CPU ×4)`,
  '',
  `\`node bench/main-thread.mjs --runs=${String(RUNS)}\`: a cold visit at 390 px, Chromium's CPU throttled 4×, a Chromium trace with V8's sampling profiler from the navigation; long tasks are the main thread's tasks over ${String(LONG_MS)} ms after the first contentful paint, their CPU samples named through the source maps. Per route: the run of median blocking time, the milliseconds of long tasks each name held (5 ms or more), then each long task's three largest names.`,
  '',
  `| route | ${Object.keys(report.builds)
    .map((name) => `blocage ${name} (ms, médiane)`)
    .join(' | ')} |`,
  `| --- | ${Object.keys(report.builds)
    .map(() => '---:')
    .join(' | ')} |`,
  ...ROUTES.map(
    (path) =>
      `| ${path} | ${Object.values(report.builds)
        .map((runs) => median(runs[path].map((run) => run.tbt)).toFixed(0))
        .join(' | ')} |`,
  ),
  '',
];
for (const [name, build] of Object.entries(report.builds)) {
  lines.push(`# ${name}`, '');
  for (const path of ROUTES) {
    const runs = build[path];
    const run = [...runs].sort((a, b) => a.tbt - b.tbt)[Math.floor(runs.length / 2)];
    lines.push(
      `## ${path}, ${name} (blocking ${run.tbt.toFixed(0)} ms, runs ${runs.map((r) => r.tbt.toFixed(0)).join(', ')}; FCP ${run.fcp.toFixed(0)} ms)`,
      '',
      '| what ran | ms in long tasks |',
      '| --- | ---: |',
      ...Object.entries(run.held)
        .filter(([, ms]) => ms >= 5)
        .map(([what, ms]) => `| ${what} | ${ms.toFixed(0)} |`),
      '',
      '| start (ms) | task (ms) | largest | the browser’s own work in it |',
      '| ---: | ---: | --- | --- |',
      ...run.tasks.map(
        (task) =>
          `| ${task.start.toFixed(0)} | ${task.ms.toFixed(0)} | ${task.top.map(([what, ms]) => `${what}: ${ms.toFixed(0)}`).join('<br>')} | ${task.browser.map(([what, ms]) => `${what}: ${ms.toFixed(0)}`).join('<br>') || '—'} |`,
      ),
      '',
    );
  }
}
writeFileSync(join(here, 'bench', 'results', `${OUT}.json`), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(here, 'bench', 'results', `${OUT}.md`), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
