import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { expect, test, THIRD_PARTY } from '../fixtures';
import { chromiumArgs, chromiumPath } from '../chromium';
import { PARTS } from '../../shared/parts.mjs';
import { freeOffset, freePort } from '../../scripts/ports.mjs';

/**
 * `npm run dev` as a contributor opens it (docs/parts.md, « Development »): at localhost, at
 * 127.0.0.1, and at the machine's name on the network (a phone on the same Wi-Fi), here a name
 * that Chromium resolves to the loopback. Every part is in development, so every remote comes
 * from a webpack dev server, through the site's port.
 */

const ROOT = join(__dirname, '..', '..');
const LAN_NAME = 'poste-benevole.test';

let dev: ChildProcess;
let sitePort: number;
let offset: number;
let browser: Browser;

async function waitFor(url: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (dev.exitCode !== null) throw new Error(`npm run dev s'est arrêté (code ${String(dev.exitCode)})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} ne répond pas`);
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  sitePort = await freePort();
  offset = await freeOffset(PARTS.map((part) => part.devPort));
  dev = spawn(process.execPath, ['scripts/dev.mjs'], {
    cwd: ROOT,
    stdio: 'ignore',
    detached: true,
    env: {
      ...process.env,
      PORT: String(sitePort),
      DEV_PORT_OFFSET: String(offset),
      LOG_LEVEL: 'silent',
      // Content of its own in the run's temporary folder (global-setup.ts), not a contributor's
      // server/.content, which `npm run dev` uses.
      CONTENT_DIR: mkdtempSync(join(tmpdir(), 'contenu-')),
    },
  });
  await waitFor(`http://127.0.0.1:${String(sitePort)}/healthz`);
  for (const part of PARTS.filter((p) => p.name !== 'shell')) {
    await waitFor(`http://127.0.0.1:${String(sitePort)}/_dev/${part.folder}/mf-manifest.json`);
  }
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...chromiumArgs, `--host-resolver-rules=MAP ${LAN_NAME} 127.0.0.1`],
  });
});

/** Sends `signal` to the whole group (the site's server and every dev server); false once none is left. */
function signalGroup(signal: NodeJS.Signals | 0): boolean {
  try {
    if (dev.pid === undefined) return false;
    process.kill(-dev.pid, signal);
    return true;
  } catch {
    return false;
  }
}

test.afterAll(async () => {
  await browser.close();
  // Waited for (10 s at most): what the site's server saves as it closes is in the run's temporary
  // folder, removed when the run ends (e2e/global-setup.ts).
  signalGroup('SIGTERM');
  for (let i = 0; i < 100 && signalGroup(0); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  signalGroup('SIGKILL');
});

for (const host of ['localhost', '127.0.0.1', LAN_NAME]) {
  test(`home at http://${host}: every block, every part from the dev servers, hot reload connected`, async () => {
    const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris' });
    await context.route(THIRD_PARTY, (route) =>
      new URL(route.request().url()).hostname === LAN_NAME ? route.continue() : route.abort('blockedbyclient'),
    );
    const page = await context.newPage();
    const refused: string[] = [];
    const errors: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 403) refused.push(response.url());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const sockets: string[] = [];
    page.on('websocket', (socket) => {
      socket.on('framereceived', (frame) => {
        if (String(frame.payload).includes('"type":"ok"')) sockets.push(new URL(socket.url()).pathname);
      });
    });

    await page.goto(`http://${host}:${String(sitePort)}/`);
    for (const heading of ['Radio Schedule', 'Derniers podcasts', 'Dernières sorties']) {
      await expect(page.getByRole('heading', { name: heading })).toBeVisible({ timeout: 20_000 });
    }
    await expect(page.getByRole('list', { name: 'Derniers podcasts' }).getByRole('listitem')).toHaveCount(8);
    await expect(page.getByRole('button', { name: /Stream/ })).toBeVisible();
    // The remotes came from the dev servers, through the page's own origin.
    const remotes = await page.evaluate(
      () =>
        (JSON.parse(document.getElementById('remotes-config')?.textContent ?? '{}') as Record<string, string>).radio,
    );
    expect(remotes).toBe('/_dev/mf-radio/mf-manifest.json');
    await expect
      .poll(() => sockets.sort(), { timeout: 15_000 })
      .toEqual(expect.arrayContaining(['/_dev/mf-player/ws', '/_dev/mf-radio/ws']));
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
}

/** A GET's status with the headers given as they are (fetch will not send another Host). */
function statusOf(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', reject);
  });
}

test('the dev servers keep their checks: another host name, or another site asking through the proxy, is refused', async () => {
  const radio = PARTS.find((part) => part.name === 'radio');
  if (radio === undefined) throw new Error('mf-radio absent du registre');
  const direct = `http://127.0.0.1:${String(radio.devPort + offset)}/remoteEntry.js`;
  expect(await statusOf(direct, { host: `attaquant.example:${String(radio.devPort + offset)}` })).toBe(403);
  expect(await statusOf(direct, {})).toBe(200);
  const proxied = `http://127.0.0.1:${String(sitePort)}/_dev/mf-radio/remoteEntry.js`;
  expect(await statusOf(proxied, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' })).toBe(403);
  expect(await statusOf(proxied, { host: `${LAN_NAME}:${String(sitePort)}`, 'sec-fetch-site': 'same-origin' })).toBe(
    200,
  );
});
