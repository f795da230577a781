// The main thread after the paint (issue 85), not a test: for each route, a cold visit in Chromium
// with the CPU 4× slower (a mid-range phone, DevTools' throttle, no network throttle: what is measured
// is the scripts' work, not the transfer), and every long task from the navigation until the page
// has been quiet for 3 s: `long-animation-frame` entries (Chromium's Long Animation Frames API),
// each with the scripts that ran in it (their file, function, where it is in the sources through the
// built file's source map, and what invoked them), and the
// `longtask` entries beside them. Reports per route the blocking time after the first contentful
// paint (Σ (task − 50 ms), as Lighthouse's TBT counts it, from the observed tasks, not simulated),
// and what each long frame ran.
// Writes bench/results/NAME.md and .json (--out=NAME, long-tasks by default; the run kept is
// long-tasks-loader).
//   node bench/long-tasks.mjs [--runs=3] [--routes=/,/label] [--root=DIR] [--out=NAME]
// --root=DIR: another built checkout served by its own server (a before/after pair on one machine:
// run both in one session, or use --pair=DIR to alternate them route by route).
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { launch, startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';
import { sourceAt } from './lib/source-maps.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(arg('runs', '3'));
const ROUTES = arg('routes', '/,/residences,/residences/axonberg,/label,/a-propos,/emissions').split(',');
const OUT = arg('out', 'long-tasks');
const roots = { après: arg('root', here) };
const pair = arg('pair', undefined);
if (pair !== undefined) roots.avant = pair;

/** Observes from the document's start: long animation frames with their scripts, and long tasks. */
const OBSERVE = () => {
  const seen = { frames: [], tasks: [], fcp: null };
  window.__longTasks = seen;
  const observe = (type, take) => {
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) take(entry);
      }).observe({ type, buffered: true });
    } catch {
      // not in this browser
    }
  };
  observe('long-animation-frame', (entry) =>
    seen.frames.push({
      start: entry.startTime,
      duration: entry.duration,
      blocking: entry.blockingDuration,
      scripts: entry.scripts.map((script) => ({
        source: script.sourceURL,
        fn: script.sourceFunctionName,
        position: script.sourceCharPosition,
        invoker: script.invoker,
        type: script.invokerType,
        duration: script.duration,
        layout: script.forcedStyleAndLayoutDuration,
      })),
    }),
  );
  observe('longtask', (entry) => seen.tasks.push({ start: entry.startTime, duration: entry.duration }));
  observe('paint', (entry) => {
    if (entry.name === 'first-contentful-paint') seen.fcp = entry.startTime;
  });
};

/** One cold visit: the long frames and tasks, and the blocking time after the FCP. */
async function visit(browser, origin, path) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  await context.addInitScript(OBSERVE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(`${origin}${path}`, { waitUntil: 'load' });
  // Quiet for 3 s: no new long task.
  let count = -1;
  for (let i = 0; i < 20; i += 1) {
    await delay(3000);
    const now = await page.evaluate(() => window.__longTasks.tasks.length + window.__longTasks.frames.length);
    if (now === count) break;
    count = now;
  }
  const seen = await page.evaluate(() => window.__longTasks);
  await context.close();
  const fcp = seen.fcp ?? 0;
  const tbt = seen.tasks
    .filter((task) => task.start >= fcp)
    .reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0);
  return { fcp, tbt, tasks: seen.tasks, frames: seen.frames.filter((frame) => frame.blocking > 0) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
/** A script's file as its path, without the content hash. */
const fileOf = (url) => {
  try {
    return new URL(url).pathname.replace(/\.[0-9a-f]{8,}\./, '.');
  } catch {
    return url || '(page)';
  }
};

/** The function a script entered, named through its file's source map: « (src/boot/yield.ts:9 (yield)) ». */
const named = (root, script) => {
  const source = sourceAt(root, script.source, script.position);
  return source === null ? '' : ` (${source})`;
};

const servers = [];
const report = { date: new Date().toISOString().slice(0, 10), cores: cpus().length, runs: RUNS, builds: {} };
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
          report.builds[name][path].push(await visit(browser, origin, path));
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
  `# Long tasks after the paint (${report.date}, ${String(report.cores)} cœurs, CPU ×4)`,
  '',
  `\`node bench/long-tasks.mjs --runs=${String(RUNS)}\`: a cold visit at 390 px, Chromium's CPU throttled 4×, no network throttle; blocking time after the first contentful paint from the observed long tasks (Σ (task − 50 ms)), median of ${String(RUNS)} runs.`,
  '',
  `| route | ${Object.keys(report.builds)
    .map((name) => `TBT observée ${name} (ms)`)
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
  lines.push(`## What the long frames ran (${name}, the median run of each route)`, '');
  for (const path of ROUTES) {
    const runs = build[path];
    const run = [...runs].sort((a, b) => a.tbt - b.tbt)[Math.floor(runs.length / 2)];
    lines.push(`### ${path} (TBT ${run.tbt.toFixed(0)} ms, FCP ${run.fcp.toFixed(0)} ms)`, '');
    lines.push(
      '| start (ms) | frame (ms) | blocking (ms) | scripts (file · function · invoker: ms) |',
      '| ---: | ---: | ---: | --- |',
    );
    for (const frame of run.frames) {
      const scripts = frame.scripts
        .filter((script) => script.duration >= 5)
        .map(
          (script) =>
            `${fileOf(script.source)} · ${script.fn || '—'}${named(roots[name], script)} · ${script.invoker}: ${script.duration.toFixed(0)}`,
        )
        .join('<br>');
      lines.push(
        `| ${frame.start.toFixed(0)} | ${frame.duration.toFixed(0)} | ${frame.blocking.toFixed(0)} | ${scripts || '(style, layout, paint)'} |`,
      );
    }
    lines.push('');
  }
}
writeFileSync(join(here, 'bench', 'results', `${OUT}.json`), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(here, 'bench', 'results', `${OUT}.md`), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
