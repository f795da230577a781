import type { Page } from '@playwright/test';
import { expect, gotoPage, test } from '../fixtures';

// The home page's live block (« Direct » or « Pas de direct au studio actuellement »), with the live
// status switched as an admin does: the status is shared by every spec, so this one runs alone
// (e2e/phases.mjs); the rest of the home page is radio.spec.ts's.

/** Switches the demo live status as an admin would: bearer token plus the XSRF cookie and header. */
async function setLive(page: Page, live: boolean): Promise<void> {
  // The XSRF-TOKEN cookie, asked as the site's client asks before a write; the page's context keeps it.
  await page.request.get('/api/xsrf');
  const cookies = await page.context().cookies();
  const token = cookies.find((c) => c.name === 'XSRF-TOKEN')?.value;
  expect(token, 'XSRF-TOKEN cookie').toBeTruthy();
  const response = await page.request.post('/api/admin/live', {
    headers: { Authorization: 'Bearer e2e-jeton-admin-de-24-caracteres', 'X-XSRF-TOKEN': token ?? '' },
    data: { live },
  });
  expect(response.status()).toBe(200);
}

const main = (page: Page) => page.locator('#contenu');

test.describe('live block', () => {
  test.describe.configure({ mode: 'serial' });

  test.afterEach(async ({ page }) => {
    await setLive(page, false);
  });

  test('refresh shows the live with a channel link when Twitch cannot load, then goes back off air', async ({
    page,
  }) => {
    const islive: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/islive')) islive.push(request.url());
    });
    await setLive(page, false);
    await gotoPage(page, '/');
    const block = main(page).getByRole('region', { name: /^(Direct|Pas de direct au studio actuellement)$/ });
    await expect(block.getByRole('heading', { name: 'Pas de direct au studio actuellement' })).toBeVisible();
    await expect(
      block.getByText('Cliquez pour rafraîchir ou regarder les derniers directs en replay sur Twitch'),
    ).toBeVisible();
    await expect(block.getByRole('link', { name: /Regarder sur Twitch/ })).toHaveAttribute(
      'href',
      'https://www.twitch.tv/example_collectif',
    );
    expect(islive).toHaveLength(1);

    await setLive(page, true);
    // The check is held until its loading state has been seen (it may otherwise answer first).
    let answer: (value?: unknown) => void = () => undefined;
    const held = new Promise((resolve) => {
      answer = resolve;
    });
    await page.route('**/api/islive', async (route) => {
      await held;
      await route.continue();
    });
    await block.getByRole('button', { name: 'Rafraîchir' }).click();
    await expect(block.getByRole('button', { name: 'Chargement ...' })).toBeVisible();
    answer();
    await expect(block.getByRole('heading', { name: 'Direct', exact: true })).toBeVisible();
    await page.unroute('**/api/islive');
    expect(islive).toHaveLength(2);
    // The Twitch script is blocked on this machine: the channel link stands in, with no page error.
    const fallback = block.getByRole('link', { name: /Regarder le direct sur Twitch/ });
    await expect(fallback).toBeVisible();
    await expect(fallback).toHaveAttribute('target', '_blank');

    await setLive(page, false);
    await block.getByRole('button', { name: 'Rafraîchir' }).click();
    await expect(main(page).getByRole('heading', { name: 'Pas de direct au studio actuellement' })).toBeVisible();
    await expect(main(page).getByRole('heading', { name: 'Direct', exact: true })).toHaveCount(0);
    await expect(main(page).getByRole('region', { name: 'Lecteur vidéo du direct' })).toHaveCount(0);
  });

  test('a failed check is logged as the spec says and the button comes back', async ({ page }) => {
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text());
    });
    await page.route('**/api/islive', (route) =>
      route.fulfill({ status: 503, json: { error: 'upstream', message: 'Twitch ne répond pas.' } }),
    );
    await gotoPage(page, '/');
    // The button is in the server's HTML: the failed check is logged once the page has hydrated and asked.
    await expect.poll(() => logged.some((text) => text.startsWith('Erreur lors du refresh:'))).toBe(true);
    await expect(main(page).getByRole('button', { name: 'Rafraîchir' })).toBeEnabled();
  });
});
