// What the service worker costs and gives (docs/published.md, « Installable »), paired on one
// machine in one run: the real server on the built parts, five routes, each visited by a new
// visitor at 390×844 with the CPU slowed 4× and a slow 4G network (as bench/paint.mjs), twice in
// turn: with the worker, and with it blocked (Playwright's `serviceWorkers: 'block'`: the same
// build, registration refused). Per route: the bytes of the first visit (every response's body as
// sent and its headers, the worker's own requests included; the HTTP cache on), counted until the
// worker is active and the network idle; the first visit's largest paint; and a return visit's (the same context,
// the page opened again), median of `--runs`. Nothing is written; figures go to the note.
//   node bench/service-worker.mjs [--runs=3] [--routes=/,/label]
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath, startServer, throttle } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(arg('runs', '3'));
const ROUTES = arg('routes', '/,/residences,/residences/axonberg,/label,/a-propos').split(',');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

async function lcpOf(page) {
  await page.waitForFunction(() => document.querySelector('#contenu h1') !== null, undefined, { timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  return page.evaluate(() => Math.round(window.__lcp));
}

async function visit(browser, url, worker) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    serviceWorkers: worker ? 'allow' : 'block',
  });
  let bytes = 0;
  let workerBytes = 0;
  // What crossed the network: a page's request the worker answered is counted once, as the
  // worker's own request when it made one (a file from a cache, HTTP or the worker's, counts 0).
  context.on('requestfinished', (request) => {
    void (async () => {
      const response = await request.response().catch(() => null);
      if (response === null || response.fromServiceWorker()) return;
      const sizes = await request.sizes().catch(() => null);
      if (sizes === null) return;
      const sent = sizes.responseBodySize + sizes.responseHeadersSize;
      bytes += sent;
      if (request.serviceWorker() !== null) workerBytes += sent;
    })();
  });
  await context.addInitScript(() => {
    window.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  const page = await context.newPage();
  await throttle(context, page);
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  const firstLcp = await lcpOf(page);
  if (worker) {
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
  }
  await page.waitForLoadState('networkidle');
  // The shell prefetches the menu's pages 3 s after the load: counted in both runs alike.
  await page.waitForTimeout(5000);
  await page.waitForLoadState('networkidle');
  const firstBytes = bytes;
  const again = await context.newPage();
  await throttle(context, again);
  await again.goto(url, { waitUntil: 'load', timeout: 60_000 });
  const returnLcp = await lcpOf(again);
  await context.close();
  return { firstBytes, workerBytes, firstLcp, returnLcp };
}

const port = await freePort();
const server = await startServer(root, port);
// Other hosts are unreachable here, refused by the browser's resolver rather than by Playwright's
// routing, which would turn the HTTP cache off: the worker's precache and a return visit read it.
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: [...chromiumArgs, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
});
try {
  console.log(
    `| route | octets, 1re visite sans / avec | dont le worker | LCP 1re visite sans / avec | LCP retour sans / avec |`,
  );
  console.log(`| --- | --- | --- | --- | --- |`);
  for (const path of ROUTES) {
    const runs = { off: [], on: [] };
    for (let run = 0; run < RUNS; run += 1) {
      runs.off.push(await visit(browser, `http://127.0.0.1:${String(port)}${path}`, false));
      runs.on.push(await visit(browser, `http://127.0.0.1:${String(port)}${path}`, true));
    }
    const m = (side, key) => median(runs[side].map((r) => r[key]));
    console.log(
      `| ${path} | ${String(m('off', 'firstBytes'))} / ${String(m('on', 'firstBytes'))} | ${String(m('on', 'workerBytes'))} | ${String(m('off', 'firstLcp'))} / ${String(m('on', 'firstLcp'))} ms | ${String(m('off', 'returnLcp'))} / ${String(m('on', 'returnLcp'))} ms |`,
    );
  }
} finally {
  await browser.close();
  server.kill();
}
