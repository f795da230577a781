import { expectNoViolations } from '../axe';
import { localhost, signUp } from '../editor';
import { expect, test } from '../fixtures';

// « Fusions d'artistes » in Chromium (docs/artists.md, « Merges »; docs/content.md, « The
// editor »): an admin invited with `npm run admin`, signed in with a passkey of Chromium's virtual
// authenticator, finds a played artist with the form's search, merges them into another page,
// publishes, and the merged page answers the canonical artist; at a phone's and a desktop's width,
// checked by axe, with a screenshot for a person to look at. The browser tests share one content
// folder and other specs open the artists' pages: the merges are published empty again at the end.

for (const width of [390, 1280]) {
  test.describe(`« Fusions d’artistes » at ${String(width)} px`, () => {
    test.slow();
    test.use({ viewport: { width, height: width < 600 ? 844 : 900 } });

    test('an admin merges a spelling found by the search into another page, then takes it back', async ({
      page,
    }, testInfo) => {
      await signUp(page, ['--role', 'admin'], 'fusions');
      await page.getByLabel('Contenu à modifier').selectOption({ label: 'Fusions d’artistes' });
      const form = page.getByRole('region', { name: 'Fusions d’artistes', exact: true });
      await form.getByRole('button', { name: 'Ajouter : fusion' }).click();
      const merge = form.getByRole('group', { name: 'Fusion 1 :' });
      await merge.getByLabel('Page qui reste').fill('basic-channel');

      await form.getByRole('searchbox', { name: 'Chercher un artiste' }).fill('moritz');
      await form.getByRole('button', { name: 'Chercher', exact: true }).click();
      const found = form.getByRole('list', { name: 'Artistes trouvés' });
      await found.getByRole('button', { name: 'Autre graphie : Moritz von Oswald Trio' }).click();
      await expect(merge.getByLabel('Autres graphies')).toHaveValue('Moritz von Oswald Trio');
      await expectNoViolations(page, 'the merges’ form');
      await form.screenshot({ path: testInfo.outputPath('fusions.png') });

      await form.getByRole('button', { name: 'Publier' }).click();
      await expect(form.getByText(/les pages des artistes la montrent déjà/)).toBeVisible();
      try {
        const merged = (await (await page.request.get(localhost('/api/artists/moritz-von-oswald-trio'))).json()) as {
          slug: string;
        };
        expect(merged.slug).toBe('basic-channel');
      } finally {
        await form.getByRole('button', { name: 'Retirer : Fusion 1 : basic-channel' }).click();
        await form.getByRole('button', { name: 'Publier' }).click();
        await expect(form.getByText(/les pages des artistes la montrent déjà/)).toBeVisible();
      }
      const apart = (await (await page.request.get(localhost('/api/artists/moritz-von-oswald-trio'))).json()) as {
        slug: string;
      };
      expect(apart.slug).toBe('moritz-von-oswald-trio');
    });
  });
}
