import type { Page } from '@playwright/test';
import { expect, gotoPage, test } from '../fixtures';

// « Envoyer une démo » has ways in (docs/proposals.md, « The pages »): the label's page and About
// lead to its form, as the footer leads to « Proposer une émission », on a phone and a desktop.

const content = (page: Page) => page.locator('#contenu');

/** The form is reached in the same tab, by the site's router, and shows its heading. */
async function expectDemoForm(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/label\/envoyer-une-demo$/);
  await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Envoyer une démo');
}

for (const width of [390, 1280]) {
  test.describe(`at ${String(width)} px`, () => {
    test.use({ viewport: { width, height: 844 } });

    test('the label’s page leads to the demo form', async ({ page }) => {
      await gotoPage(page, '/label');
      const link = content(page).getByRole('link', { name: 'Envoyer une démo' });
      await link.scrollIntoViewIfNeeded();
      await expect(link).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`label-demo-${String(width)}.png`) });
      await link.click();
      await expectDemoForm(page);
    });

    test('About leads to the demo form beside the demos’ address', async ({ page }) => {
      await gotoPage(page, '/a-propos');
      const contact = content(page).getByRole('region', { name: 'Contact', exact: true });
      const link = contact.getByRole('link', { name: 'Envoyer une démo' });
      await link.scrollIntoViewIfNeeded();
      await expect(link).toBeVisible();
      await expect(contact.getByRole('link', { name: /^Démos label : / })).toBeVisible();
      // Once the section has revealed itself (RevealSection), as a visitor sees it.
      await expect.poll(() => contact.evaluate((node) => getComputedStyle(node).opacity)).toBe('1');
      await page.screenshot({ path: test.info().outputPath(`a-propos-demo-${String(width)}.png`) });
      await link.click();
      await expectDemoForm(page);
    });
  });
}
