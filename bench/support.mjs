// « Nous soutenir »: the time from the press of « Donner » to HelloAsso's payment page (issue 62),
// not a test. The built site on loopback with the demo's HelloAsso (nothing configured), Debian's
// Chromium at 390×844, unthrottled and as a mid-range phone on « Slow 4G » (bench/lib/browser.mjs).
// For each press: the intent's creation as the browser saw it (POST /api/support/don, from its
// request to its answer: the server's call to HelloAsso), and the press to the payment page's first paint of its heading. --runs presses each.
// Writes bench/results/support.md and .json.
//   node bench/support.mjs [--runs=5]
import { mkdirSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, startServer, throttle } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Five presses a minute at most from one address (the site's own bound, docs/support.md): five runs
// for each network, a minute apart.
const RUNS = Math.min(5, Number(arg('runs', '5')));
const port = await freePort();
const origin = `http://127.0.0.1:${String(port)}`;
const server = await startServer(root, port);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

/** One press in a new visitor's context: the intent's round trip and the press to the payment page. */
async function press(browser, throttled) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'fr-FR' });
  const page = await context.newPage();
  if (throttled) await throttle(context, page);
  await page.goto(`${origin}/soutenir`);
  const button = page.getByRole('button', { name: 'Donner 20 €' });
  await button.waitFor();
  // React has taken the form over (the button is the server's until then).
  await page.waitForFunction(() => {
    const form = document.querySelector('form.support-donation');
    return form !== null && Object.keys(form).some((key) => key.startsWith('__react'));
  });
  const intent = page.waitForResponse((response) => response.url().endsWith('/api/support/don'));
  const pressed = Date.now();
  await button.click();
  const answered = await intent;
  const timing = answered.request().timing();
  await page.waitForURL(/\/api\/demo\/helloasso\/paiement\//);
  await page.getByRole('heading', { level: 1 }).waitFor();
  const arrived = Date.now() - pressed;
  await context.close();
  return { intentMs: Math.round(timing.responseEnd), pageMs: arrived };
}

const figures = {};
try {
  const browser = await launch();
  for (const throttled of [false, true]) {
    if (throttled) await delay(61_000);
    const runs = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await press(browser, throttled));
    figures[throttled ? 'slow4g' : 'loopback'] = {
      runs,
      intentMedianMs: median(runs.map((r) => r.intentMs)),
      pageMedianMs: median(runs.map((r) => r.pageMs)),
    };
    console.log(throttled ? 'Slow 4G' : 'loopback', figures[throttled ? 'slow4g' : 'loopback']);
  }
  await browser.close();
} finally {
  server.kill();
}

const results = join(root, 'bench', 'results');
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'support.json'), `${JSON.stringify(figures, null, 2)}\n`);
const row = (name, f) =>
  `| ${name} | ${String(f.intentMedianMs)} (${f.runs.map((r) => r.intentMs).join(', ')}) | ${String(f.pageMedianMs)} (${f.runs.map((r) => r.pageMs).join(', ')}) |`;
writeFileSync(
  join(results, 'support.md'),
  [
    `# « Nous soutenir »: from the press to HelloAsso's page (${new Date().toISOString().slice(0, 10)})`,
    '',
    `\`node bench/support.mjs --runs=${String(RUNS)}\`: the built site, the demo's HelloAsso, Chromium at 390×844, a new visitor each press.`,
    'The intent: POST /api/support/don from its request to its answer (the server creating the checkout intent).',
    "The page: from the press to the payment page's heading (the XSRF cookie asked first on a first visit, the",
    'intent, then the payment page). Medians, every run in brackets.',
    '',
    '| network | intent ms | press to the payment page ms |',
    '| --- | --- | --- |',
    row('loopback', figures.loopback),
    row('Slow 4G, CPU 4×', figures.slow4g),
    '',
  ].join('\n'),
);
