import { expect, gotoPage, test } from '../fixtures';

test('an unknown path lands on home', async ({ page }) => {
  await gotoPage(page, '/nimporte/quoi');
  await expect(page).toHaveURL(/\/$/);
  await expect(page).toHaveTitle('Accueil');
});
