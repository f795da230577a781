import { expectNoViolations } from '../axe';
// `editor` is the form's region below: the editor's address is `onEditor`.
import { editor as onEditor, localhost, signUp } from '../editor';
import { expect, test } from '../fixtures';

// « Listes de titres » in Chromium (docs/content.md, « Tracklists »): a resident invited with
// `npm run admin`, signed in with a passkey of Chromium's virtual authenticator, opens their newest
// episode's list, prefills it from what the demo radio played, sees a time it cannot read refused
// beside its row, saves it, and reads it back from the site; at a phone's and a desktop's width,
// checked by axe, with a screenshot of each for a person to look at. The list is deleted at the end,
// through the form: the browser tests share one content folder, and other specs read the episodes'
// tracklists (tracklists.spec.ts, the first screen's budget), so this one writes to a residence
// whose episodes they do not open (Tournesol) and leaves it as it found it. The editor on its own
// origin (docs/content.md, « The editor's origin »), the site's pages and reads on the public one.

/** A residence whose newest episode has no tracklist in the repository's content. */
const RESIDENCE = 'tournesol';

for (const width of [390, 1280]) {
  test.describe(`« Listes de titres » at ${String(width)} px`, () => {
    test.slow();
    test.use({ viewport: { width, height: width < 600 ? 844 : 900 } });

    test('a resident prefills their episode’s list from the radio, corrects it, saves it and deletes it', async ({
      page,
    }, testInfo) => {
      await signUp(page, ['--role', 'residence', '--residence', RESIDENCE], 'titres');
      const editor = page.getByRole('region', { name: 'Listes de titres' });
      await expect(editor.getByLabel('Épisode')).toBeVisible();
      const slug = await editor.getByLabel('Épisode').inputValue();
      const form = editor.getByRole('form');
      await expect(form).toBeVisible();
      await expectNoViolations(page, 'the tracklist’s form');

      await editor.getByRole('button', { name: 'Pré-remplir depuis l’antenne' }).click();
      await expect(editor.getByRole('status')).toContainText('à l’antenne entre');
      // Whatever the radio gave (the demo's recent episodes only), one row added at the end.
      await editor.getByRole('button', { name: 'Ajouter un titre' }).click();
      const added = editor.getByRole('group').last();
      await added.getByLabel('Artiste', { exact: true }).fill('Verglas');
      await added.getByLabel('Titre', { exact: true }).fill('Froid Sec');
      await added.getByLabel('Sortie du label (facultatif)').selectOption({ label: 'Verglas — Froid Sec' });

      // A time it cannot read, said beside its row; nothing sent.
      const first = editor.getByRole('group').first();
      const time = await first.getByLabel('Début', { exact: true }).inputValue();
      await first.getByLabel('Début', { exact: true }).fill('une minute');
      await editor.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(first.getByText('Heure invalide : écrivez m:ss ou h:mm:ss', { exact: false })).toBeVisible();
      await expectNoViolations(page, 'a time refused');
      await editor.screenshot({ path: testInfo.outputPath('liste-refusee.png') });
      await first.getByLabel('Début', { exact: true }).fill(time);
      await editor.screenshot({ path: testInfo.outputPath('liste.png') });

      await editor.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(editor.getByText(/la page de l’émission et son lecteur la montrent déjà/)).toBeVisible();
      await expectNoViolations(page, 'the list saved');
      const lists = (await (await page.request.get(localhost('/api/content/tracklists'))).json()) as {
        episode: string;
        tracks: { start: number; artist: string; release?: string }[];
      }[];
      const saved = lists.find((entry) => entry.episode === slug);
      expect(saved?.tracks.at(-1)).toMatchObject({
        artist: 'Verglas',
        title: 'Froid Sec',
        release: '/album/froid-sec',
      });
      // The episode's page shows it…
      await page.goto(`/emissions/${slug}`);
      await expect(page.getByRole('region', { name: 'Titres joués' })).toContainText('Froid Sec');

      // …until « Supprimer la liste », after which the site has no list for it.
      await page.goto(onEditor('/admin'));
      await page
        .getByRole('region', { name: 'Listes de titres' })
        .getByRole('button', { name: 'Supprimer la liste' })
        .click();
      await expect(page.getByText(/Liste supprimée le .* : la page de l’émission ne la montre plus\./)).toBeVisible();
      const after = (await (await page.request.get(localhost('/api/content/tracklists'))).json()) as {
        episode: string;
      }[];
      expect(after.some((entry) => entry.episode === slug)).toBe(false);
    });
  });
}
