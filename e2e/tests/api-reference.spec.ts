import type { Page } from '@playwright/test';
import { expect, gotoPage, test } from '../fixtures';

// The API's reference page (docs/api.md, « The reference page »): Scalar draws /api/openapi.json
// from the site's own files, under the site's Content-Security-Policy, with no request to any
// other origin; « Intégrer le lecteur » leads to it.

/** Scrolls down until Scalar has drawn the operation of this summary, and shows it. */
async function reachHeading(page: Page, name: string): Promise<void> {
  const heading = page.getByRole('heading', { name });
  await expect(async () => {
    if ((await heading.count()) === 0) await page.mouse.wheel(0, 1500);
    await expect(heading).toBeAttached({ timeout: 500 });
  }).toPass({ timeout: 30_000 });
  await heading.scrollIntoViewIfNeeded();
  await expect(heading).toBeVisible();
}

for (const width of [390, 1280]) {
  test(`shows the public routes with no request off the site’s origin, at ${String(width)} px`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const origin = new URL(baseURL ?? '').origin;
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== origin && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    // Scalar also tries to add its sheet inline, which the site's policy refuses (`style-src 'self'`):
    // the same sheet is served as a file. No script, frame or connection may be refused.
    const refused: string[] = [];
    const stylesRefused: string[] = [];
    page.on('console', (message) => {
      const text = message.text();
      if (/Applying inline style violates the following Content Security Policy directive 'style-src/.test(text))
        stylesRefused.push(text);
      else if (/Content Security Policy|Refused to/i.test(text)) refused.push(text);
    });
    page.on('pageerror', (error) => refused.push(error.message));

    const answer = await page.goto('/api/docs');
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect(page).toHaveTitle('Référence de l’API');
    // The routes, by their French summaries.
    await expect(page.getByRole('heading', { level: 1, name: 'API du collectif' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('heading', { name: 'La description de l’API' })).toBeAttached();
    await page.screenshot({ path: test.info().outputPath(`api-docs-${String(width)}.png`) });
    // Further down (Scalar draws the operations as they come near): the content, by kind.
    await reachHeading(page, 'Un contenu que les bénévoles éditent');
    await page.screenshot({ path: test.info().outputPath(`api-docs-contenu-${String(width)}.png`) });
    // Nothing of the editor's (a pattern, which the phases' check does not take for a request of its).
    await expect(page.getByText(/\/api\/(?:editor|admin)\//)).toHaveCount(0);
    expect(elsewhere).toEqual([]);
    expect(refused).toEqual([]);
  });
}

test('« Intégrer le lecteur » leads to the reference', async ({ page }) => {
  await gotoPage(page, '/integrer');
  await page.locator('#contenu').getByRole('link', { name: 'référence de l’API' }).click();
  await expect(page).toHaveURL(/\/api\/docs$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API du collectif' })).toBeVisible({ timeout: 20_000 });
});
