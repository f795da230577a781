import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { startPartnerSite, type PartnerSite } from '../partner';

/** A partner site on another origin (../partner.ts), with no React and no federation: one script and one element. */
let partner: PartnerSite;
let partnerOrigin = '';
let siteOrigin = '';

test.beforeAll(async ({ baseURL }) => {
  siteOrigin = baseURL ?? '';
  partner = await startPartnerSite((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(partnerPage(siteOrigin));
  });
  partnerOrigin = partner.origin;
});

test.afterAll(async () => {
  await partner.close();
});

function partnerPage(server: string): string {
  return `<!doctype html>
<html lang="fr">
  <head><meta charset="utf-8"><title>Festival partenaire</title></head>
  <body>
    <h1>Festival partenaire</h1>
    <collectif-player api-base="${server}/api" stream-url="${server}/api/demo/live.mp3"></collectif-player>
    <script src="${server}/embed/collectif-player.js"></script>
  </body>
</html>`;
}

function audioState(page: Page) {
  return page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('#lecteur-audio');
    return audio === null ? null : { time: audio.currentTime, paused: audio.paused, src: audio.currentSrc };
  });
}

async function expectTimeAdvancing(page: Page, seconds = 1): Promise<void> {
  await expect.poll(async () => (await audioState(page))?.time ?? -1, { timeout: 15_000 }).toBeGreaterThan(0);
  const start = (await audioState(page))?.time ?? 0;
  await expect
    .poll(async () => (await audioState(page))?.time ?? -1, { timeout: 15_000 })
    .toBeGreaterThan(start + seconds);
}

test('a partner page on another origin plays the live stream, then a replay chosen from plain JavaScript', async ({
  page,
}) => {
  // A cold load of the whole embed script, then a live stream and a replay.
  test.slow();
  const server = siteOrigin;
  expect(new URL(partnerOrigin).origin).not.toBe(new URL(server).origin);
  await page.goto(`${partnerOrigin}/festival`);
  await expect(page).toHaveTitle('Festival partenaire');
  await page.evaluate(() => {
    const states: unknown[] = [];
    (window as unknown as { states: unknown[] }).states = states;
    window.addEventListener('collectif:player-state', (event) => states.push((event as CustomEvent).detail));
  });

  await page.getByRole('button', { name: 'Lecture' }).click();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expectTimeAdvancing(page);
  expect((await audioState(page))?.src.startsWith(`${server}/api/demo/live.mp3?direct=`)).toBe(true);

  // The partner's script asks the collective's API for a replay and hands it to the player.
  const item = await page.evaluate(async (api) => {
    const response = await fetch(`${api}/podcasts?limit=1`);
    const items = (await response.json()) as { artist: string; url: string }[];
    const first = items[0];
    if (first === undefined) throw new Error('aucun podcast');
    window.dispatchEvent(new CustomEvent('collectif:replay-selected', { detail: first }));
    return first;
  }, `${server}/api`);
  await expect(page.getByRole('button', { name: 'Revenir au direct' })).toBeVisible();
  await expect(page.getByText(item.artist)).toBeVisible();
  await expectTimeAdvancing(page, 0.5);
  expect((await audioState(page))?.src.startsWith(server)).toBe(true);

  const last = await page.evaluate(() =>
    (window as unknown as { states: { mode: string; playing: boolean }[] }).states.at(-1),
  );
  expect(last).toMatchObject({ mode: 'REPLAY', playing: true });
});

test('the demo partner page is served at /embed/demo.html and its buttons drive the player', async ({ page }) => {
  await page.goto('/embed/demo.html');
  await expect(page.getByRole('heading', { name: 'Page partenaire de démonstration' })).toBeVisible();
  await expect(page.locator('#extrait')).toContainText('/embed/collectif-player.js');
  await page.getByRole('button', { name: 'Écouter le direct' }).click();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expectTimeAdvancing(page);
  await page
    .getByRole('button', { name: /^Écouter « / })
    .first()
    .click();
  await expect(page.getByRole('button', { name: 'Revenir au direct' })).toBeVisible();
  await expectTimeAdvancing(page, 0.5);
  await expect(page.locator('#etat')).toContainText('"mode": "REPLAY"');
});

test('a partner script written for the former names (`title`, `description`) plays without them, and is told the names to send', async ({
  page,
}) => {
  test.slow();
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await page.goto(`${partnerOrigin}/festival`);
  await expect(page.getByRole('button', { name: 'Lecture' })).toBeVisible();
  await page.evaluate(async (api) => {
    const [first] = (await (await fetch(`${api}/podcasts?limit=1`)).json()) as { url: string; duration: number }[];
    if (first === undefined) throw new Error('aucun podcast');
    const detail = {
      url: first.url,
      duration: first.duration,
      title: 'Ancien artiste',
      description: 'Ancienne émission',
    };
    window.dispatchEvent(new CustomEvent('collectif:replay-selected', { detail }));
  }, `${siteOrigin}/api`);
  await expect(page.getByRole('button', { name: 'Revenir au direct' })).toBeVisible();
  // Ignored since contract 3.0.0 (docs/contract.md, « 3.0.0 »): the episode plays without its two lines.
  await expect(page.getByText('Ancien artiste')).toHaveCount(0);
  await expect(page.getByText('Ancienne émission')).toHaveCount(0);
  expect(warnings.join('\n')).toContain(
    'noms ignorés depuis la version 3 du contrat (« title » → « artist », « description » → « show »)',
  );
});
