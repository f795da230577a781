import type { Page } from '@playwright/test';
import { audioTime } from '../audio';
import { expectNoViolations } from '../axe';
import { expect, gotoPage, test } from '../fixtures';
import { player } from '../screen';

// An episode's tracklist (docs/episodes.md, « Tracklist »; docs/player.md, « The current track of
// a replay »): « Titres joués » on its page, a time that plays the episode from there without
// leaving the page, the track that plays in the player and marked in the list, at a phone's width
// and a desktop's. The demo's replay of this episode is real audio of about a minute, its rows at
// 0, 11, 22, 33 and 44 s.

const SLUG = 'axonberg-synapses-11';
const PATH = `/emissions/${SLUG}`;

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

const tracklist = (page: Page) => page.getByRole('region', { name: 'Titres joués' });
const rows = (page: Page) => tracklist(page).getByRole('listitem');

/** Documents the browser loads from now on: a reload or a navigation would be one. */
function documentsLoaded(page: Page): string[] {
  const loaded: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document' && request.frame() === page.mainFrame()) loaded.push(request.url());
  });
  return loaded;
}

// Revealed blocks fully shown at once: contrast is measured on the content, not on a fade.
test.use({ reducedMotion: 'reduce' });

for (const size of WIDTHS) {
  test.describe(`${String(size.width)} px`, () => {
    test.use({ viewport: size });

    test('a time plays the episode from there without leaving the page, and the player follows its tracks', async ({
      page,
    }) => {
      await gotoPage(page, PATH);
      await expect(tracklist(page).getByRole('heading', { level: 2, name: 'Titres joués' })).toBeVisible();
      await expect(rows(page)).toHaveCount(5);
      await expect(rows(page).nth(1)).toContainText('Moritz von Oswald Trio — Pattern 3');
      await expect(tracklist(page).getByRole('link', { name: 'Synapses EP (nouvel onglet)' })).toHaveAttribute(
        'href',
        /\/album\/synapses-ep$/,
      );
      const at11 = tracklist(page).getByRole('link', { name: 'Écouter à partir de 0:11' });
      await expect(at11).toHaveText('0:11');
      await expect(at11).toHaveAttribute('href', `${PATH}?t=11`);
      await expect(page.getByRole('button', { name: 'Écouter', exact: true })).toBeVisible();
      await expectNoViolations(page, `${PATH}, ${String(size.width)} px`);

      // The page stays: no document is loaded again, and what it held is still there.
      const documents = documentsLoaded(page);
      await page.evaluate(() => {
        (window as { resteIci?: boolean }).resteIci = true;
      });
      await at11.click();
      await expect(player(page).getByRole('button', { name: 'Revenir au direct' })).toBeVisible();
      await expect.poll(() => audioTime(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(11);
      await expect(page).toHaveURL(new RegExp(`${PATH}\\?t=11$`));
      await expect(page.getByRole('button', { name: 'Écouter à partir de 0:11' })).toBeVisible();
      expect(await page.evaluate(() => (window as { resteIci?: boolean }).resteIci)).toBe(true);
      expect(documents).toEqual([]);

      // The track that plays, in the player and marked in the list, as the replay goes on past 0:22.
      await expect(player(page).getByText(/Moritz von Oswald Trio — Pattern 3/)).toBeVisible();
      await expect(rows(page).nth(1)).toHaveAttribute('aria-current', 'true');
      await expect(player(page).getByText(/Basic Channel — Phylyps Trak/)).toBeVisible({ timeout: 30_000 });
      await expect(rows(page).nth(2)).toHaveAttribute('aria-current', 'true');
      await expect(rows(page).nth(1)).not.toHaveAttribute('aria-current', 'true');
      await expect(tracklist(page).locator('[aria-current="true"]')).toHaveCount(1);
      expect(await audioTime(page)).toBeGreaterThanOrEqual(22);
      await expectNoViolations(page, `${PATH}, ${String(size.width)} px, playing its third track`);
      expect(documents).toEqual([]);
    });

    test('a shared ?t= opens the page ready to play from there', async ({ page }) => {
      await gotoPage(page, `${PATH}?t=22`);
      await expect(rows(page)).toHaveCount(5);
      await page.getByRole('button', { name: 'Écouter à partir de 0:22' }).click();
      await expect.poll(() => audioTime(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(22);
      await expect(player(page).getByText(/Basic Channel — Phylyps Trak/)).toBeVisible();
    });
  });
}
