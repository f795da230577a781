// The first screen's bytes of every page (docs/first-screen.md, « The first screen's budget »): the
// document, the requests made before the first paint and those the loader makes after it, all
// compressed as sent. Bytes are the same on every machine: unlike times, they can be compared across
// machines and held to a budget by the browser tests (e2e/tests/first-screen.spec.ts).
//   node bench/first-screen.mjs [--root=DIR] [--out=first-screen] [--write-budget]
// --root=DIR measures another built checkout (its own server), e.g. a commit of a bisect.
// --write-budget writes e2e/first-screen.budget.json from these figures with the budget's headroom:
// raising the budget is that command, and a commit that says why.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';
import { routePaths } from './lib/routes.mjs';
import { firstScreen } from '../scripts/first-screen.mjs';
import { BUDGET_FILE, budgetOf, EVENT_ROUTE, resolveRoute } from '../e2e/first-screen-budget.mjs';
import { E2E_NOW } from '../e2e/clock.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const measured = arg('root', root);
const out = arg('out', 'first-screen');
const port = await freePort();
const origin = `http://127.0.0.1:${String(port)}`;
// At the browser tests' instant (e2e/server-clock.mjs): what a page shows of the date (the week's
// shows, the coming events) is then what the budget's test measures.
const server = await startServer(measured, port, {
  NODE_OPTIONS: `--import=${join(root, 'e2e', 'server-clock.mjs')}`,
  E2E_CLOCK_START: E2E_NOW,
  E2E_CLOCK_EPOCH: String(Date.now()),
});
const figures = {};
try {
  const paths = new Map();
  for (const route of [...routePaths, EVENT_ROUTE]) {
    const path = await resolveRoute(origin, route);
    if (path !== null) paths.set(route, path);
  }
  // A server that just started renders a page before its calendars or feed are read (the data's
  // deadline): once each first, so that every page is measured with its data, as visitors get it.
  for (const path of paths.values()) await firstScreen(origin, path);
  for (const [route, path] of paths) {
    figures[route] = await firstScreen(origin, path);
    const f = figures[route];
    console.log(
      route.padEnd(34),
      `document ${String(f.document)}`.padEnd(16),
      `before ${String(f.beforePaint.requests.length)} / ${String(f.beforePaint.bytes)}`.padEnd(20),
      `after ${String(f.afterPaint.requests.length)} / ${String(f.afterPaint.bytes)}`,
    );
  }
} finally {
  server.kill();
}

const results = join(root, 'bench', 'results');
mkdirSync(results, { recursive: true });
writeFileSync(join(results, `${out}.json`), `${JSON.stringify(figures, null, 2)}\n`);
const kb = (bytes) => (bytes / 1024).toFixed(1);
writeFileSync(
  join(results, `${out}.md`),
  [
    `# The first screen's bytes (${new Date().toISOString().slice(0, 10)})`,
    '',
    'Compressed as sent to Chromium (`Accept-Encoding: br, gzip`); images as a phone of 412 CSS px at',
    '1.75 dppx takes them. `node bench/first-screen.mjs`. The budget: e2e/first-screen.budget.json.',
    '',
    '| page | document KiB | before the paint: requests, KiB | after the paint: requests, KiB |',
    '| --- | --- | --- | --- |',
    ...Object.entries(figures).map(
      ([route, f]) =>
        `| ${route} | ${kb(f.document)} | ${String(f.beforePaint.requests.length)}, ${kb(f.beforePaint.bytes)} | ${String(f.afterPaint.requests.length)}, ${kb(f.afterPaint.bytes)} |`,
    ),
    '',
  ].join('\n'),
);
if (process.argv.includes('--write-budget')) {
  writeFileSync(join(root, BUDGET_FILE), `${JSON.stringify(budgetOf(figures), null, 2)}\n`);
  console.log(`Budget écrit : ${BUDGET_FILE}`);
}
