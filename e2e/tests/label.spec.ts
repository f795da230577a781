import type { Release } from '@collectif/shared';
import { releaseUrl } from '@collectif/shared/config';
import type { Page } from '@playwright/test';
import { expect, gotoPage, test } from '../fixtures';

const cards = (page: Page) => page.getByRole('list', { name: 'Sorties du label' }).getByRole('listitem');

async function releasesFromService(page: Page): Promise<Release[]> {
  const response = await page.request.get('/api/releases');
  expect(response.status()).toBe(200);
  return (await response.json()) as Release[];
}

/** Lets the browser render two frames, so that intersection observers have reported. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() => {
          requestAnimationFrame(() => {
            resolve();
          });
        });
      }),
  );
}

test('sets the title, the meta description and the heading', async ({ page }) => {
  await gotoPage(page, '/label');
  await expect(page).toHaveTitle('Label');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', 'Liste des releases du label');
  await expect(page.locator('#contenu').getByRole('heading', { level: 1 })).toHaveText('Label');
});

test('shows every release of the label service, newest first, with its cover', async ({ page }) => {
  const releases = await releasesFromService(page);
  expect(releases.length).toBeGreaterThan(4);
  await gotoPage(page, '/label');

  await expect(cards(page)).toHaveCount(releases.length);
  for (const index of [0, 1, releases.length - 1]) {
    const release = releases[index]!;
    await expect(cards(page).nth(index).getByRole('heading')).toHaveText(release.title);
    await expect(cards(page).nth(index)).toContainText(release.artist);
  }
  const firstCover = cards(page).first().locator('img');
  await expect(firstCover).toHaveAttribute('loading', 'eager');
  await expect
    .poll(() => firstCover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  await expect(cards(page).last().locator('img')).toHaveAttribute('loading', 'lazy');
});

test("a click opens the release on the label's sales page in a new tab", async ({ page, context }) => {
  const [first] = await releasesFromService(page);
  await gotoPage(page, '/label');

  const link = cards(page).first().getByRole('link');
  await expect(link).toHaveAttribute('href', releaseUrl(first!.href));
  await expect(link).toHaveAttribute('target', '_blank');

  // The sales host is blocked in tests: the new tab's request shows where it was sent.
  const sent = context.waitForEvent('request', (request) => request.url() === releaseUrl(first!.href));
  const popup = context.waitForEvent('page');
  await link.click();
  const tab = await popup;
  expect((await sent).frame().page()).toBe(tab);
  expect(page.url()).toMatch(/\/label$/);
});

test('cards after the third reveal within 50 px of the viewport bottom, and hide again out of view', async ({
  page,
}) => {
  await gotoPage(page, '/label');
  // The card (list item) stays in place and is observed; its content carries the reveal marker.
  const marker = (index: number) => cards(page).nth(index).locator('.reveal');
  await expect(marker(3)).toHaveCount(1);

  const lastIndex = (await cards(page).count()) - 1;
  const last = cards(page).nth(lastIndex);
  await expect(marker(lastIndex)).not.toHaveClass(/\bactive\b/);

  const scrollTopEdgeTo = (pxAboveBottom: number) =>
    last.evaluate((el, above) => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      window.scrollTo(0, top - window.innerHeight + above);
    }, pxAboveBottom);
  // Top edge 30 px above the viewport bottom: not yet (the threshold is 50 px).
  await scrollTopEdgeTo(30);
  await settle(page);
  await expect(marker(lastIndex)).not.toHaveClass(/\bactive\b/);

  await scrollTopEdgeTo(70);
  await expect(marker(lastIndex)).toHaveClass(/\bactive\b/);

  await page.evaluate(() => {
    window.scrollTo(0, 0);
  });
  await expect(marker(lastIndex)).not.toHaveClass(/\bactive\b/);

  // The first three cards never take part, wherever the page is scrolled.
  for (const index of [0, 1, 2]) await expect(marker(index)).toHaveCount(0);
});

test("the label service down shows a French error and 'Réessayer', then loads on retry", async ({ page }) => {
  await page.route('**/api/releases*', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify({ error: 'upstream_unavailable', message: 'Le service du label ne répond pas.' }),
    }),
  );
  // The server sends the label page with its catalogue: the visitor meets the failing service when
  // the browser asks for it, on the way from another page.
  await gotoPage(page, '/a-propos');
  await page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Label' }).click();

  const alert = page.locator('#contenu').getByRole('alert');
  await expect(alert).toContainText('Le catalogue du label est momentanément indisponible.');
  const retry = alert.getByRole('button', { name: 'Réessayer' });
  await expect(retry).toBeVisible();
  await expect(page.locator('#contenu').getByRole('heading', { level: 1 })).toHaveText('Label');
  await expect(page.getByRole('contentinfo')).toBeVisible();

  await page.unroute('**/api/releases*');
  await retry.click();
  await expect(cards(page).first()).toBeVisible();
  await expect(alert).toBeHidden();
});
