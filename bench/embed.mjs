// The player on partner sites (docs/embed.md): what a partner page downloads before the first play
// and after it, how long from the page's load to the first sound, and the iframe page's Lighthouse.
//   node bench/embed.mjs [--runs=5] [--lighthouse-runs=3]     (after `npm run build -- player`)
// Writes bench/results/embed.md and embed.json.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { launch, startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';
import { lighthouseRun } from './lib/lighthouse.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'mf-player', 'dist-embed');
const runs = Number(arg('runs', '5'));
const lighthouseRuns = Number(arg('lighthouse-runs', '3'));

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const kib = (bytes) => (bytes / 1024).toFixed(1);

/** Each built script, minified and compressed as the server sends it (brotli at its best). */
function builtSizes() {
  return readdirSync(dist)
    .filter((name) => name.endsWith('.js'))
    .map((name) => {
      const body = readFileSync(join(dist, name));
      return {
        name,
        bytes: statSync(join(dist, name)).size,
        brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
        gzip: gzipSync(body, { level: 9 }).length,
      };
    });
}

const sitePort = await freePort();
const partnerPort = await freePort();
const site = `http://127.0.0.1:${String(sitePort)}`;
const pages = {
  '/script': `<script src="${site}/embed/collectif-player.js" defer></script>
<collectif-player api-base="${site}/api"></collectif-player>`,
  // An episode: the first sound depends on the player and the file, not on the live stream's start.
  '/episode': `<script src="${site}/embed/collectif-player.js" defer></script>
<collectif-player api-base="${site}/api" episode="axonberg-synapses-11"></collectif-player>`,
  '/cadre': `<iframe src="${site}/embed/lecteur" title="Lecteur" width="100%" height="104" frameborder="0" allow="autoplay"></iframe>`,
};
const partner = createServer((req, res) => {
  const body = pages[req.url ?? ''];
  res.writeHead(body === undefined ? 404 : 200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Partenaire</title></head><body>${body ?? ''}</body></html>`,
  );
});
await new Promise((resolve) => partner.listen(partnerPort, '127.0.0.1', resolve));
const server = await startServer(root, sitePort);
const browser = await launch();

/**
 * One cold visit of a partner page: the scripts it downloads before the press (bytes on the wire),
 * the time from navigation to the bar showing its names, the press as soon as it does, and the time
 * from the press to the first sound (the audio element's time moving), with the scripts after.
 */
async function visit(path) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  // Every script of the page and of its frames, as sent (compressed body and headers).
  const scripts = new Map();
  page.on('requestfinished', async (request) => {
    if (request.resourceType() !== 'script') return;
    const sizes = await request.sizes();
    scripts.set(request.url(), { bytes: sizes.responseBodySize + sizes.responseHeadersSize });
  });
  const started = Date.now();
  await page.goto(`http://127.0.0.1:${String(partnerPort)}${path}`);
  const frame = path === '/cadre' ? page.frameLocator('iframe') : page;
  const button = frame.getByRole('button', { name: 'Lecture' });
  await button.waitFor();
  await frame.locator('.player__artist').filter({ hasNotText: 'Le direct' }).first().waitFor();
  const barMs = Date.now() - started;
  const beforePress = [...scripts.values()].reduce((sum, s) => sum + s.bytes, 0);
  const scriptsBefore = scripts.size;
  const pressed = Date.now();
  await button.click();
  const audioFrame =
    path === '/cadre' ? page.frames().find((f) => f.url().includes('/embed/lecteur')) : page.mainFrame();
  await audioFrame.waitForFunction(() => (document.querySelector('#lecteur-audio')?.currentTime ?? 0) > 0, undefined, {
    polling: 10,
    timeout: 20_000,
  });
  const soundMs = Date.now() - pressed;
  const total = [...scripts.values()].reduce((sum, s) => sum + s.bytes, 0);
  await context.close();
  return { barMs, soundMs, totalMs: Date.now() - started, beforePress, scriptsBefore, afterPress: total - beforePress };
}

const results = { built: builtSizes(), visits: {}, lighthouse: [] };
try {
  for (const path of Object.keys(pages)) {
    const list = [];
    for (let i = 0; i < runs; i += 1) list.push(await visit(path));
    results.visits[path] = list;
  }
  for (let i = 0; i < lighthouseRuns; i += 1) results.lighthouse.push(await lighthouseRun(`${site}/embed/lecteur`));
} finally {
  await browser.close();
  server.kill();
  partner.close();
}

const first = results.built.find((s) => s.name === 'collectif-player.js');
const lines = [
  '# The player on partner sites',
  '',
  `\`node bench/embed.mjs --runs=${String(runs)}\`, ${new Date().toISOString().slice(0, 10)}, on the production build`,
  '(`npm run build -- player`), loopback, Debian’s Chromium at 390×844.',
  '',
  '## The scripts as built (brotli 11, gzip 9)',
  '',
  '| file | minified | brotli | gzip |',
  '| --- | ---: | ---: | ---: |',
  ...results.built
    .filter((s) => !s.name.startsWith('demo'))
    .map((s) => `| \`${s.name}\` | ${kib(s.bytes)} KiB | ${kib(s.brotli)} KiB | ${kib(s.gzip)} KiB |`),
  '',
  `The partner script a page loads before the first play: **${kib(first?.brotli ?? 0)} KiB** brotli. Before`,
  'this change (the whole player with React, at 23680c4): 364.6 KiB minified, 99.5 KiB brotli.',
  '',
  '## A cold visit of a partner page (median of each run)',
  '',
  '| snippet | scripts before the press | on the wire | bar with its names | press → first sound | after the press |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...Object.entries(results.visits).map(
    ([path, list]) =>
      `| ${{ '/script': 'script, live', '/episode': 'script, an episode', '/cadre': 'iframe, live' }[path] ?? path} | ${String(median(list.map((v) => v.scriptsBefore)))} | ${kib(median(list.map((v) => v.beforePress)))} KiB | ${String(median(list.map((v) => v.barMs)))} ms | ${String(median(list.map((v) => v.soundMs)))} ms | ${kib(median(list.map((v) => v.afterPress)))} KiB |`,
  ),
  '',
  '“On the wire”: the scripts’ encoded bytes (brotli from the server, with headers). “Press → first',
  'sound”: from the click to the audio element’s time moving, fetching the player, its settings and the',
  'stream included. The live stream’s figure is the demo stream’s own start (the site’s own player takes',
  'as long from its « Stream » button); an episode’s is the player’s.',
  '',
  '## Lighthouse (mobile, simulated throttling): `/embed/lecteur`',
  '',
  '| run | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS |',
  '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...results.lighthouse.map(
    (r, i) =>
      `| ${String(i + 1)} | ${String(r.performance)} | ${String(r.accessibility)} | ${String(r.bestPractices)} | ${String(r.seo)} | ${String(r.fcpMs)} ms | ${String(r.lcpMs)} ms | ${String(r.tbtMs)} ms | ${String(r.cls)} |`,
  ),
  '',
  'SEO is low by design: the framed page says `noindex` (it is a part of other sites’ pages).',
  '',
];
writeFileSync(join(root, 'bench', 'results', 'embed.md'), lines.join('\n'));
writeFileSync(join(root, 'bench', 'results', 'embed.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(lines.join('\n'));
