// The main thread after the paint as a visitor's browser runs it (issue 85), not a test. Every other
// browser bench drives Chromium through DevTools (Playwright, Lighthouse), and a DevTools client
// changes what the page costs: with the protocol's Runtime on, V8 records a stack with its source
// positions for every Error the page makes (React DOM makes five as its module starts, RTK Query
// one), and Lighthouse's trace records one for every timer and request; each needs the functions on
// the stack parsed again, and a bundled library is one function of hundreds of kilobytes.
// So here Chromium is started on the page's address with its own startup trace (--trace-startup),
// no DevTools client attached, at 390 px, its CPU not slowed; a task's time is multiplied by 4 as
// Lighthouse's simulation does (a phone 4× slower), and the blocking time is what the tasks after the
// first contentful paint hold past 50 ms so counted. With --devtools, each visit is made a second
// time through Playwright with Lighthouse's trace categories, unthrottled too, so that the two differ
// by the DevTools client alone; « positions des sources » is the time V8 spent parsing again.
// Writes bench/results/NAME.md and .json (--out=NAME, visitor-tasks by default).
//   node bench/visitor-tasks.mjs [--runs=5] [--routes=/,/label] [--root=DIR] [--pair=DIR] [--devtools] [--out=NAME]
// --pair=DIR: another built checkout (its own server), visited in turns with this one, route by route.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { chromiumArgs, chromiumPath, launch, startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';
import {
  browserWorkEvents,
  browserWorkIn,
  mainThread,
  median,
  navigationStart,
  tasksAfterPaint,
} from './lib/trace.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(arg('runs', '5'));
const ROUTES = arg('routes', '/,/residences,/residences/axonberg,/label,/a-propos,/emissions').split(',');
const OUT = arg('out', 'visitor-tasks');
const DEVTOOLS = process.argv.includes('--devtools');
const roots = { après: arg('root', here) };
const pair = arg('pair', undefined);
if (pair !== undefined) roots.avant = pair;
/** A phone 4× slower than this machine, as Lighthouse's simulation counts it. */
const SLOWDOWN = 4;
const LONG_MS = 50;
/** Seconds the started browser waits on a blank page before it goes to the address. */
const SETTLE_S = 3;
/** Seconds of the startup trace: the browser's start, the wait, the visit and the idle prefetch at 5 s. */
const TRACE_S = SETTLE_S + 10;

const CATEGORIES = [
  'blink.user_timing',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-v8.compile',
  'loading',
  'toplevel',
  'v8',
  'v8.execute',
];
/** What Lighthouse adds: a stack for every timer, request and style invalidation the page makes. */
const LIGHTHOUSE_STACKS = 'disabled-by-default-devtools.timeline.stack';

/** What a task's time went to: the scripts it ran (by file and entry) and the browser's own work. */
const SCRIPT_WORK = {
  EvaluateScript: (data) => `évaluation ${fileOf(data.url)}`,
  FunctionCall: (data) => `appel ${fileOf(data.url)}`,
  TimerFire: () => 'minuterie',
  FireAnimationFrame: () => 'image suivante (requestAnimationFrame)',
  FireIdleCallback: () => 'temps libre (requestIdleCallback)',
  EventDispatch: (data) => `événement ${String(data.type)}`,
};

function fileOf(url) {
  if (typeof url !== 'string' || !URL.canParse(url)) return '(script)';
  return new URL(url).pathname.replace(/\.[0-9a-f]{8,}\./, '.');
}

/** One visit's trace read: the blocking time after the FCP (×4) and each task that counts in it. */
function analyse(events, url) {
  const main = mainThread(events);
  if (main === null) return null;
  const start = navigationStart(events, main, url);
  if (start === null) return null;
  const tasks = tasksAfterPaint(events, main, LONG_MS / SLOWDOWN);
  const work = browserWorkEvents(events, main);
  const scripts = events.filter(
    (event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && SCRIPT_WORK[event.name],
  );
  const positions = events
    .filter((event) => event.pid === main.pid && event.name === 'V8.CollectSourcePositions' && event.ts >= main.fcp)
    .reduce((sum, event) => sum + event.dur / 1000, 0);
  const counted = tasks.map((task) => {
    const ran = new Map();
    for (const event of scripts) {
      if (event.ts < task.ts || event.ts + event.dur > task.ts + task.dur) continue;
      // The outermost script event in the task: one nested in another is in its time.
      if (
        scripts.some(
          (outer) =>
            outer !== event &&
            outer.ts <= event.ts &&
            outer.ts + outer.dur >= event.ts + event.dur &&
            outer.ts >= task.ts,
        )
      )
        continue;
      const what = SCRIPT_WORK[event.name](event.args?.data ?? {});
      ran.set(what, (ran.get(what) ?? 0) + event.dur / 1000);
    }
    return {
      start: (task.ts - start) / 1000,
      ms: task.dur / 1000,
      ran: [...ran].filter(([, ms]) => ms >= 1).sort((x, y) => y[1] - x[1]),
      browser: browserWorkIn(work, task, 1),
    };
  });
  return {
    fcp: (main.fcp - start) / 1000,
    blocking: counted.reduce((sum, task) => sum + Math.max(0, task.ms * SLOWDOWN - LONG_MS), 0),
    positions,
    tasks: counted,
  };
}

/** Chromium started on the address with its startup trace, no DevTools client: the trace's events. */
async function withoutDevtools(url) {
  const dir = mkdtempSync(join(tmpdir(), 'visitor-tasks-'));
  const file = join(dir, 'trace.json');
  const child = spawn(
    chromiumPath,
    [
      ...chromiumArgs,
      '--headless=new',
      `--user-data-dir=${join(dir, 'profile')}`,
      '--window-size=390,844',
      // Only the site's own server is reachable, as the other benches' visits abort the rest.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      `--trace-startup=${CATEGORIES.join(',')}`,
      `--trace-startup-file=${file}`,
      `--trace-startup-duration=${String(TRACE_S)}`,
      '--trace-startup-format=json',
      // A blank page first, which paints nothing, so that the visit does not carry the browser's own
      // start (its first process, fonts and caches), as a visit through DevTools does not.
      `data:text/html,<script>setTimeout(() => { location.href = ${JSON.stringify(url)}; }, ${String(SETTLE_S * 1000)});</script>`,
    ],
    { stdio: 'ignore' },
  );
  try {
    for (let waited = 0; waited < (TRACE_S + 30) * 1000; waited += 250) {
      await delay(250);
      if (!existsSync(file)) continue;
      try {
        // Written whole once the duration is over; until then it does not parse.
        return JSON.parse(readFileSync(file, 'utf8')).traceEvents;
      } catch {
        // still being written
      }
    }
    throw new Error(`${url} : pas de trace au bout de ${String(TRACE_S + 30)} s`);
  } finally {
    child.kill();
    await delay(200);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same visit through Playwright (DevTools' protocol on), with Lighthouse's trace categories. */
async function withDevtools(browser, url) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  const page = await context.newPage();
  await browser.startTracing(page, { categories: [...CATEGORIES, LIGHTHOUSE_STACKS] });
  await page.goto(url, { waitUntil: 'load' });
  await delay((TRACE_S - SETTLE_S - 2) * 1000);
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString('utf8'));
  await context.close();
  return traceEvents;
}

const modes = DEVTOOLS ? ['sans DevTools', 'avec DevTools'] : ['sans DevTools'];
const report = {
  date: new Date().toISOString().slice(0, 10),
  cores: cpus().length,
  runs: RUNS,
  slowdown: SLOWDOWN,
  builds: {},
};
const servers = [];
const browser = DEVTOOLS ? await launch() : null;
try {
  const origins = {};
  for (const [name, root] of Object.entries(roots)) {
    const port = await freePort();
    servers.push(await startServer(root, port));
    origins[name] = `http://127.0.0.1:${String(port)}`;
    report.builds[name] = Object.fromEntries(modes.map((mode) => [mode, {}]));
  }
  for (const path of ROUTES) {
    for (const name of Object.keys(origins)) for (const mode of modes) report.builds[name][mode][path] = [];
    // In turns, so that the machine's ups and downs fall on both alike.
    for (let run = 0; run < RUNS; run += 1) {
      for (const [name, origin] of Object.entries(origins)) {
        for (const mode of modes) {
          const url = `${origin}${path}`;
          const events = mode === 'sans DevTools' ? await withoutDevtools(url) : await withDevtools(browser, url);
          const seen = analyse(events, url);
          if (seen === null)
            console.error(`${path} (${name}, ${mode}) : trace sans peinture ni navigation, visite ignorée`);
          else report.builds[name][mode][path].push(seen);
        }
      }
    }
  }
} finally {
  await browser?.close();
  for (const server of servers) server.kill();
}

const columns = Object.keys(report.builds).flatMap((name) => modes.map((mode) => [name, mode]));
const lines = [
  `# The main thread after the paint, as a visitor's browser runs it (${report.date}, ${String(report.cores)} cœurs)`,
  '',
  `\`node bench/visitor-tasks.mjs --runs=${String(RUNS)}${DEVTOOLS ? ' --devtools' : ''}\`: Chromium started on the page (390 px) with its startup trace and no DevTools client${DEVTOOLS ? " (« sans DevTools »), then the same visit through Playwright with Lighthouse's trace categories (« avec DevTools »)" : ''}; each task's time ×${String(SLOWDOWN)} as Lighthouse's simulation counts a phone; blocking is what the tasks after the first contentful paint hold past ${String(LONG_MS)} ms. Medians of ${String(RUNS)} runs, in turns; « positions » is V8 parsing functions again for stacks with their source positions (ms, not multiplied).`,
  '',
  `| route | ${columns.map(([name, mode]) => `blocage ${name}, ${mode} (ms)`).join(' | ')} | ${columns.map(([name, mode]) => `positions ${name}, ${mode}`).join(' | ')} |`,
  `| --- | ${columns.map(() => '---:').join(' | ')} | ${columns.map(() => '---:').join(' | ')} |`,
  ...ROUTES.map((path) => {
    const runs = columns.map(([name, mode]) => report.builds[name][mode][path]);
    return `| ${path} | ${runs.map((list) => median(list.map((run) => run.blocking)).toFixed(0)).join(' | ')} | ${runs.map((list) => median(list.map((run) => run.positions)).toFixed(1)).join(' | ')} |`;
  }),
  '',
];
for (const [name, mode] of columns) {
  lines.push(`# ${name}, ${mode}`, '');
  for (const path of ROUTES) {
    const runs = report.builds[name][mode][path];
    if (runs.length === 0) continue;
    const run = [...runs].sort((a, b) => a.blocking - b.blocking)[Math.floor(runs.length / 2)];
    lines.push(
      `## ${path}, ${name}, ${mode} (blocking ${run.blocking.toFixed(0)} ms; runs ${runs.map((r) => r.blocking.toFixed(0)).join(', ')}; FCP ${run.fcp.toFixed(0)} ms)`,
      '',
      `| start (ms) | task (ms) | ×${String(SLOWDOWN)} | scripts in it (ms) | the browser's own work in it (ms) |`,
      '| ---: | ---: | ---: | --- | --- |',
      ...run.tasks.map(
        (task) =>
          `| ${task.start.toFixed(0)} | ${task.ms.toFixed(1)} | ${(task.ms * SLOWDOWN).toFixed(0)} | ${task.ran.map(([what, ms]) => `${what}: ${ms.toFixed(1)}`).join('<br>') || '—'} | ${task.browser.map(([what, ms]) => `${what}: ${ms.toFixed(1)}`).join('<br>') || '—'} |`,
      ),
      '',
    );
  }
}
writeFileSync(join(here, 'bench', 'results', `${OUT}.json`), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(here, 'bench', 'results', `${OUT}.md`), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
