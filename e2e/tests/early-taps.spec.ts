import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';

/**
 * Nothing lost before the scripts arrive (docs/first-screen.md): a page rendered on the server is on
 * screen before its scripts run. On a phone (CPU slowed 4×, the scripts held back as on a slow
 * network), a tap on one of the page's buttons made as soon as it shows is acted on once the page
 * is interactive; the visitor does not have to tap again.
 */

test.use({ viewport: { width: 390, height: 844 } });

/** Opens a page whose shell script is held until `release` is called. */
async function openHeld(page: Page, path: string): Promise<() => void> {
  const client = await page.context().newCDPSession(page);
  await client.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  let release: (value?: unknown) => void = () => undefined;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  await page.route(/\/main\.[0-9a-f]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(path, { waitUntil: 'domcontentloaded' });
  return () => {
    release();
  };
}

const interactive = (page: Page, name: string | RegExp) =>
  page
    .getByRole('button', { name })
    .evaluate((element) => Object.keys(element).some((key) => key.startsWith('__react')));

test('a tap on « Stream » before the scripts ran: the live stream plays once the page is interactive', async ({
  page,
}) => {
  const release = await openHeld(page, '/');
  const pill = page.getByRole('button', { name: /ouvrir le lecteur/i });
  await expect(pill).toBeVisible();
  // Still the server's HTML: no script has taken the button over.
  expect(await interactive(page, /ouvrir le lecteur/i)).toBe(false);
  await pill.click();
  release();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(() => page.evaluate(() => document.querySelector('audio')?.paused), { timeout: 20_000 })
    .toBe(false);
});

test('a tap on the menu button before the scripts ran: the menu opens once the page is interactive', async ({
  page,
}) => {
  const release = await openHeld(page, '/residences');
  const toggle = page.getByRole('button', { name: 'Ouvrir le menu', exact: true });
  await expect(toggle).toBeVisible();
  expect(await interactive(page, /^Ouvrir le menu$/)).toBe(false);
  await toggle.click();
  release();
  await expect(page.getByRole('button', { name: 'Fermer le menu', exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
});

test('a tap on a podcast card before the scripts ran plays that show', async ({ page }) => {
  const release = await openHeld(page, '/');
  const card = page.getByRole('list', { name: 'Derniers podcasts' }).getByRole('button').first();
  await card.scrollIntoViewIfNeeded();
  await expect(card).toBeVisible();
  const show = ((await card.getAttribute('aria-label')) ?? '').replace(/^Écouter : /, '');
  expect(show).not.toBe('');
  expect(await card.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__react')))).toBe(false);
  await card.click();
  release();
  await expect(page.getByRole('button', { name: 'Revenir au direct' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Lecteur radio' })).toContainText(show);
});

test('a card tapped while the player is still on its way plays once the player arrives', async ({ page }) => {
  // The page is interactive but the player's part is not there yet (its scripts held, as on a slow
  // network): the card's choice is kept for the player rather than sent to nobody.
  let release: (value?: unknown) => void = () => undefined;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  await page.route(/\/mf-player\/.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  const card = page.getByRole('list', { name: 'Derniers podcasts' }).getByRole('button').first();
  await card.scrollIntoViewIfNeeded();
  await expect
    .poll(() => card.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__react'))), {
      timeout: 20_000,
    })
    .toBe(true);
  const show = ((await card.getAttribute('aria-label')) ?? '').replace(/^Écouter : /, '');
  await card.click();
  expect(await page.getByRole('button', { name: 'Revenir au direct' }).count()).toBe(0);
  release();
  await expect(page.getByRole('button', { name: 'Revenir au direct' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Lecteur radio' })).toContainText(show);
});
