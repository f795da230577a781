// Shared by the benchmarks: Debian's Chromium through playwright-core, and the real server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { builtServerArgs, SERVER_ENV, serverArgs } from '../../scripts/server-command.mjs';
import { chromium } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

export function launch() {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

/**
 * A mid-range phone on a slow mobile network, as the paint benchmarks measure: CPU 4× slower, 150 ms
 * of latency, 1.6 Mbit/s down and 750 kbit/s up (Chrome DevTools' « Slow 4G »).
 */
export async function throttle(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
}

/**
 * Starts the site server on a loopback port as `npm start` does, built (a checkout too old to build
 * its server runs its sources); resolves once /healthz answers.
 */
export async function startServer(root, port, env = {}) {
  const builder = join(root, 'server', 'scripts', 'build.mjs');
  const built = existsSync(builder) && spawnSync(process.execPath, [builder], { stdio: 'ignore' }).status === 0;
  const child = spawn(process.execPath, built ? builtServerArgs() : serverArgs(), {
    cwd: root,
    env: { ...process.env, ...SERVER_ENV, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 100; i += 1) {
    try {
      const res = await fetch(`http://127.0.0.1:${String(port)}/healthz`);
      if (res.ok) return child;
    } catch {
      // not up yet
    }
    await delay(100);
  }
  child.kill();
  throw new Error('le serveur ne répond pas');
}

// The federation runtime core's snapshot handler creates its manifest cache once per copy of the
// core. Counted in every script, not per script: the shell's entry once carried two copies (its
// CommonJS and ESM builds), which a per-file count showed as one.
const RUNTIME_MARK = /\.manifestCache\s*=\s*(?:\/\*[^*]*\*\/\s*)?new Map\b/g;

/**
 * Cold load of one URL: requests, compressed bytes by type, and how many copies of the federation
 * runtime's core its scripts carry.
 */
export async function coldLoad(browser, url, { viewport = { width: 390, height: 844 }, blockThirdParty = true } = {}) {
  const context = await browser.newContext({ viewport });
  if (blockThirdParty) await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (r) => r.abort());
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const byId = new Map();
  cdp.on('Network.responseReceived', (e) => byId.set(e.requestId, { url: e.response.url, type: e.type, bytes: 0 }));
  cdp.on('Network.loadingFinished', (e) => {
    const r = byId.get(e.requestId);
    if (r) r.bytes = e.encodedDataLength;
  });
  const scripts = [];
  page.on('response', async (res) => {
    if (res.request().resourceType() === 'script') {
      try {
        scripts.push({ url: res.url(), text: await res.text() });
      } catch {
        // aborted
      }
    }
  });
  await cdp.send('Performance.enable');
  await page.goto(url, { waitUntil: 'networkidle' });
  // A figure is only worth something if the page really showed: its heading, and no fallback.
  const shown = await page.evaluate(() => ({
    heading: document.querySelector('#contenu h1')?.textContent ?? null,
    fallback: [...document.querySelectorAll('[role="alert"]')].map((e) => e.textContent).join(' '),
  }));
  if (shown.heading === null || shown.fallback.includes('indisponible')) {
    throw new Error(`${url} ne s'est pas affichée (titre : ${String(shown.heading)} ; ${shown.fallback})`);
  }
  const { metrics } = await cdp.send('Performance.getMetrics');
  const scriptMs = Math.round((metrics.find((m) => m.name === 'ScriptDuration')?.value ?? 0) * 1000);
  const requests = [...byId.values()].filter((r) => r.url.startsWith('http://127.0.0.1'));
  const bytesByType = {};
  for (const r of requests) bytesByType[r.type] = (bytesByType[r.type] ?? 0) + r.bytes;
  const runtimeCopies = scripts.reduce((n, s) => n + (s.text.match(RUNTIME_MARK)?.length ?? 0), 0);
  await context.close();
  return { requests: requests.length, bytesByType, runtimeCopies, scriptMs, requestList: requests };
}
