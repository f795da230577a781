import type { Locator, Page } from '@playwright/test';
import { expectNoViolations } from '../axe';
import { authenticator, editor, editorApi, editorXsrf, invite, localhost } from '../editor';
import { consoleTrouble, expect, gotoPage, HYDRATION_TROUBLE, test } from '../fixtures';

// « Nous soutenir » in Chromium (docs/support.md), with the demo's HelloAsso that the tests' server
// serves itself (nothing configured): from the footer's button to /soutenir, a tier or a gift, the
// demo's payment page accepted or refused, and the return page that says so once the site has read
// the payment back; « Soutenir Axonberg » from the residence's page; the editor's goal and figures.

const content = (page: Page) => page.locator('#contenu');

/** The demo's payment (or membership) page: « Accepter » or « Refuser », back to /soutenir/merci. */
async function answerPayment(page: Page, choice: 'Accepter' | 'Refuser'): Promise<void> {
  await expect(page).toHaveURL(/\/api\/demo\/helloasso\/(paiement|formulaire)\//);
  await page.getByRole('button', { name: choice }).click();
  await expect(page).toHaveURL(/\/soutenir\/merci\?/);
}

/** A screenshot to look at, beside the test's other outputs: the whole page, or one part of it. */
async function shot(page: Page, name: string, part?: Locator): Promise<void> {
  const { width } = page.viewportSize() ?? { width: 0 };
  const path = test.info().outputPath(`${name}-${String(width)}.png`);
  await (part === undefined ? page.screenshot({ path, fullPage: true }) : part.screenshot({ path }));
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test.describe(`« Nous soutenir » at ${String(viewport.width)} px`, () => {
    test.use({ viewport });

    test('from the footer’s button to /soutenir, a tier chosen, the payment accepted: « Merci ! »', async ({
      page,
    }) => {
      const trouble = consoleTrouble(page);
      await gotoPage(page, '/');
      const button = page.locator('footer').getByRole('link', { name: 'Nous soutenir', exact: true });
      await expect(button).not.toHaveAttribute('target');
      await button.click();
      await expect(page).toHaveURL(/\/soutenir$/);
      await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Nous soutenir');
      await expect(page).toHaveTitle(/Nous soutenir/);
      await expect(content(page).getByText(/^\d+ adhérents? en 2026$/)).toBeVisible();
      await expect(content(page).getByText(/le site du collectif ne voit jamais votre carte/)).toBeVisible();
      await expectNoViolations(page, '/soutenir');
      await shot(page, 'soutenir');

      const tier = content(page)
        .getByRole('link', { name: /^Adhérer : / })
        .first();
      await tier.click();
      await answerPayment(page, 'Accepter');
      const heading = content(page).getByRole('heading', { level: 1 });
      await expect(heading).toHaveText('Merci !');
      await expect(content(page)).toContainText('Votre adhésion est enregistrée');
      await expectNoViolations(page, '/soutenir/merci');
      await shot(page, 'merci');
      // Both pages as the server sent them, and hydrated as they were: the return page from its reading.
      await gotoPage(page, '/soutenir?residence=axonberg');
      expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
    });

    test('a gift refused on the payment page: said in French, nothing taken, and tried again', async ({ page }) => {
      await gotoPage(page, '/soutenir');
      await content(page).getByRole('radio', { name: '20 €' }).check();
      await content(page).getByRole('button', { name: 'Donner 20 €' }).click();
      await answerPayment(page, 'Refuser');
      await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Paiement refusé');
      await expect(content(page).getByRole('alert')).toHaveText(
        'Le paiement de votre don a été refusé : rien n’a été prélevé.',
      );
      await expect(content(page).getByText('Merci !')).toHaveCount(0);
      await expectNoViolations(page, 'a refused payment');
      await shot(page, 'refuse');
      await content(page).getByRole('link', { name: 'Réessayer' }).click();
      await expect(page).toHaveURL(/\/soutenir$/);
      await expect(content(page).getByRole('button', { name: /^Donner/ })).toBeVisible();
    });

    test('a free amount out of bounds is refused beside the field, in French, and nothing leaves', async ({ page }) => {
      await gotoPage(page, '/soutenir');
      const field = content(page).getByLabel('Autre montant, en euros');
      await field.fill('0,50');
      await content(page).getByRole('button', { name: 'Donner' }).click();
      await expect(content(page).getByRole('alert')).toHaveText(/Le montant doit être compris entre 1 € et 1.000 €\./);
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toBeFocused();
      await expect(page).toHaveURL(/\/soutenir$/);
      await expectNoViolations(page, 'an amount refused');
    });

    test('« Soutenir Axonberg » from the residence’s page: a gift in its name, « Merci ! »', async ({ page }) => {
      await gotoPage(page, '/residences/axonberg');
      await content(page).getByRole('link', { name: 'Soutenir Axonberg' }).click();
      await expect(page).toHaveURL(/\/soutenir\?residence=axonberg$/);
      await expect(content(page).getByRole('heading', { level: 2, name: 'Soutenir Axonberg' })).toBeVisible();
      await content(page).getByLabel('Autre montant, en euros').fill('12,50');
      await content(page).getByRole('button', { name: 'Donner 12,50 € pour Axonberg' }).click();
      await answerPayment(page, 'Accepter');
      await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Merci !');
      await expect(content(page)).toContainText('Votre don de 12,50 € est bien reçu, au nom de Axonberg.');
    });
  });
}

test.describe('« Nous soutenir » in the editor', () => {
  test.slow();
  test.use({ viewport: { width: 390, height: 844 } });

  test('an admin sets the membership goal: /soutenir shows the bar toward it', async ({ page }) => {
    const link = await invite(['--role', 'admin']);
    await authenticator(page);
    const api = editorApi(page.request);
    const admin = { Authorization: 'Bearer e2e-jeton-admin-de-24-caracteres', ...(await editorXsrf(page.context())) };
    const history = await api.get('/api/content/support/history', { headers: admin });
    expect(history.status()).toBe(200);
    const { current: before } = (await history.json()) as { current: string };
    try {
      await page.goto(link);
      await page.getByLabel('Nom du compte').fill(`admin-${String(Date.now())}`);
      await page.getByRole('button', { name: 'Créer ma clé d’accès' }).click();
      await expect(page).toHaveURL(editor('/admin'));
      await page
        .getByLabel('Contenu à modifier')
        .selectOption({ label: 'Nous soutenir (HelloAsso, objectif d’adhérents)' });
      // The settings' own region: « Mes chiffres » above has forms of its own.
      const settings = page.getByRole('region', { name: 'Nous soutenir', exact: true });
      const goal = settings.getByLabel('Objectif d’adhérents de l’année');
      await expect(settings.getByLabel('Adhésions et dons avec HelloAsso sur le site')).toBeChecked();
      await goal.fill('beaucoup');
      await settings.getByRole('button', { name: 'Publier' }).click();
      await expect(goal).toHaveAttribute('aria-invalid', 'true');
      await goal.fill('300');
      await settings.getByRole('button', { name: 'Publier' }).click();
      await expect(settings.getByRole('status').filter({ hasText: 'Publié le' })).toBeVisible();
      await expectNoViolations(page, 'the support settings');
      await shot(page, 'editeur-objectif', settings);

      await gotoPage(page, localhost('/soutenir'));
      await expect(content(page).getByText('Objectif : 300 adhérents')).toBeVisible();
      await expect(content(page).getByRole('progressbar')).toHaveAttribute('aria-valuemax', '300');
    } finally {
      const restored = await api.post('/api/content/support/restore', { headers: admin, data: { id: before } });
      expect(restored.status()).toBe(200);
    }
  });

  test('a resident sees how many gifts named their residence this year', async ({ page }) => {
    // A gift in Axonberg's name first, accepted on the demo's payment page.
    await gotoPage(page, localhost('/soutenir?residence=axonberg'));
    await content(page)
      .getByRole('button', { name: /^Donner .* pour Axonberg$/ })
      .click();
    await answerPayment(page, 'Accepter');
    await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Merci !');

    const link = await invite(['--role', 'residence', '--residence', 'axonberg']);
    await authenticator(page);
    await page.goto(link);
    await page.getByLabel('Nom du compte').fill(`res-${String(Date.now())}`);
    await page.getByRole('button', { name: 'Créer ma clé d’accès' }).click();
    await expect(page).toHaveURL(editor('/admin'));
    const figures = page.getByRole('region', { name: 'Mes chiffres' });
    await expect(figures.getByText(/^[1-9]\d* dons? au nom de votre résidence en 2026\./)).toBeVisible();
    await expect(figures).not.toContainText('€');
    await expectNoViolations(page, '« Mes chiffres »');
    await shot(page, 'editeur-chiffres', figures);
  });
});
