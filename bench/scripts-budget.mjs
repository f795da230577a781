// The scripts each page evaluates before the visitor's first interaction (docs/first-screen.md,
// « Scripts evaluated before the first interaction »): a cold visit in Chromium at 390 px, no click
// and no scroll, until the page is quiet, and the length of every script's source V8 evaluated
// (e2e/script-budget.mjs, which the browser tests measure with too). Bytes are the same on every
// machine: the test holds them to e2e/scripts.budget.json, the times stay in bench/long-tasks.mjs.
//   node bench/scripts-budget.mjs [--root=DIR] [--out=scripts-budget] [--write-budget]
// --root=DIR measures another built checkout (its own server). --write-budget writes the budget from
// these figures with its headroom: raising it is that command, in a commit that says why.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';
import { routePaths } from './lib/routes.mjs';
import { EVENT_ROUTE, resolveRoute } from '../e2e/first-screen-budget.mjs';
import { BUDGET_FILE, budgetOf, PHONE, QUIET_MS, scriptsEvaluated } from '../e2e/script-budget.mjs';
import { E2E_NOW } from '../e2e/clock.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const measured = arg('root', root);
const out = arg('out', 'scripts-budget');
const port = await freePort();
const origin = `http://127.0.0.1:${String(port)}`;
// At the browser tests' instant (e2e/server-clock.mjs), as bench/first-screen.mjs: what a page shows
// of the date is then what the budget's test measures.
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
  // A server that just started renders a page before its data has come (the data's deadline): each
  // page asked for once first, so that every page is measured with its data, as visitors get it.
  for (const path of paths.values()) await fetch(`${origin}${path}`);
  const browser = await launch();
  try {
    for (const [route, path] of paths) {
      // As the browser tests visit (e2e/playwright.config.ts, e2e/fixtures.ts): a new context, no
      // service worker, the hosts this machine cannot reach blocked.
      const context = await browser.newContext({
        ...PHONE,
        locale: 'fr-FR',
        timezoneId: 'Europe/Paris',
        serviceWorkers: 'block',
      });
      await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|(?:[a-z0-9-]+\.)*localhost[:/])/, (r) =>
        r.abort('blockedbyclient'),
      );
      try {
        const f = await scriptsEvaluated(await context.newPage(), `${origin}${path}`);
        figures[route] = f;
        console.log(route.padEnd(34), `${String(f.scripts.length)} scripts`.padEnd(12), `${String(f.bytes)} octets`);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
} finally {
  server.kill();
}

const results = join(root, 'bench', 'results');
mkdirSync(results, { recursive: true });
writeFileSync(join(results, `${out}.json`), `${JSON.stringify(figures, null, 2)}\n`);
const kb = (bytes) => (bytes / 1024).toFixed(1);
/** A script's file without its content hash, to compare two runs. */
const fileOf = (path) => path.replace(/\.[0-9a-f]{8,}\./, '.');
// What every page evaluates (the shell, the player's pill), then
// each page's own beyond it: what a change to one page moves.
const pages = Object.values(figures);
const everywhere = (pages[0]?.scripts ?? []).filter((script) =>
  pages.every((f) => f.scripts.some((s) => s.path === script.path && s.bytes === script.bytes)),
);
const common = new Set(everywhere.map((s) => `${s.path} ${String(s.bytes)}`));
writeFileSync(
  join(results, `${out}.md`),
  [
    `# Scripts evaluated before the first interaction (${new Date().toISOString().slice(0, 10)})`,
    '',
    `A cold visit in Chromium at 390 px, no click and no scroll, until no script has been asked for in ${String(QUIET_MS / 1000)} s`,
    "(the shell's prefetch of the menu's pages waits for a first interaction: none here); each script V8 evaluated counted once, by the",
    'length of its source (uncompressed). `node bench/scripts-budget.mjs`. The budget:',
    `${BUDGET_FILE}.`,
    '',
    '| page | scripts | bytes | KiB | beyond what every page evaluates (KiB) |',
    '| --- | ---: | ---: | ---: | --- |',
    ...Object.entries(figures).map(
      ([route, f]) =>
        `| ${route} | ${String(f.scripts.length)} | ${String(f.bytes)} | ${kb(f.bytes)} | ${
          f.scripts
            .filter((s) => !common.has(`${s.path} ${String(s.bytes)}`))
            .map((s) => `${fileOf(s.path)} ${kb(s.bytes)}`)
            .join(', ') || '—'
        } |`,
    ),
    '',
    `## What every page evaluates: ${String(everywhere.length)} scripts, ${kb(everywhere.reduce((sum, s) => sum + s.bytes, 0))} KiB`,
    '',
    '| script | KiB |',
    '| --- | ---: |',
    ...everywhere.map((s) => `| ${fileOf(s.path)} | ${kb(s.bytes)} |`),
    '',
  ].join('\n'),
);
if (process.argv.includes('--write-budget')) {
  writeFileSync(join(root, BUDGET_FILE), `${JSON.stringify(budgetOf(figures), null, 2)}\n`);
  console.log(`Budget écrit : ${BUDGET_FILE}`);
}
