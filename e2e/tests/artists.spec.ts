import type { Page } from '@playwright/test';
import { audioTime } from '../audio';
import { expectNoViolations } from '../axe';
import { consoleTrouble, expect, gotoPage, HYDRATION_TROUBLE, test } from '../fixtures';
import { player } from '../screen';

// A played artist's page (docs/site.md, « Artists »; docs/artists.md): reached from a row of an
// episode's tracklist, its plays listed by episode, « Tout écouter » putting every play in the
// player's queue and the first starting at its time; the list A–Z; an unknown artist and a thin
// page; at a phone's width and a desktop's, with axe. The demo's replays last about a minute and
// its tracklists name artists across episodes (Basic Channel: two plays, in two episodes).

const EPISODE = '/emissions/axonberg-synapses-11';
const SLUG = 'basic-channel';

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

interface Play {
  episode: string;
  artist: string;
  show: string;
  start: number;
  title: string;
}

/** The artist's plays as the API gives them, newest episode first. */
async function playsOf(page: Page, slug: string): Promise<Play[]> {
  const response = await page.request.get(`/api/artists/${slug}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { plays: Play[] }).plays;
}

/** The queue kept on the device: what comes next. */
function storedQueue(page: Page): Promise<{ slug: string; start?: number }[]> {
  return page.evaluate(
    () => JSON.parse(localStorage.getItem('collectif:file') ?? '[]') as { slug: string; start?: number }[],
  );
}

// Revealed blocks fully shown at once: contrast is measured on the content, not on a fade.
test.use({ reducedMotion: 'reduce' });

for (const size of WIDTHS) {
  test.describe(`${String(size.width)} px`, () => {
    test.use({ viewport: size });

    test('an artist’s page from a tracklist row; « Tout écouter » starts at the first play’s time', async ({
      page,
    }) => {
      const trouble = consoleTrouble(page);
      const plays = await playsOf(page, SLUG);
      expect(plays.length).toBeGreaterThanOrEqual(2);
      const [first, second] = plays as [Play, Play];

      await gotoPage(page, EPISODE);
      const row = page
        .getByRole('region', { name: 'Titres joués' })
        .getByRole('listitem')
        .filter({ hasText: 'Basic Channel — Phylyps Trak' });
      await row.getByRole('link', { name: 'Basic Channel', exact: true }).click();

      await expect(page).toHaveURL(new RegExp(`/artistes/${SLUG}$`));
      await expect(page.getByRole('heading', { level: 1, name: 'Basic Channel' })).toBeVisible();
      await expect(page).toHaveTitle('Basic Channel · Artistes');
      const list = page.getByRole('region', { name: 'Passages à l’antenne' });
      await expect(list.getByRole('link', { name: `${first.artist} · ${first.show}` })).toHaveAttribute(
        'href',
        `/emissions/${first.episode}`,
      );
      await expect(
        list.getByRole('link', { name: new RegExp(`^Écouter à partir de .* : ${first.title}$`) }),
      ).toHaveAttribute('href', `/emissions/${first.episode}?t=${String(first.start)}`);
      await expectNoViolations(page, `/artistes/${SLUG}, ${String(size.width)} px`);

      await page.getByRole('button', { name: 'Tout écouter' }).click();
      // The first play starts at its time; the others wait in the queue, each with its own.
      await expect.poll(() => audioTime(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(first.start);
      await expect(player(page)).toContainText(first.artist);
      await expect.poll(() => storedQueue(page)).toEqual([{ slug: second.episode, start: second.start }]);
      await expectNoViolations(page, `/artistes/${SLUG}, ${String(size.width)} px, playing`);

      // Rendered by the server as the browser renders it: no hydration trouble, the same head.
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'Basic Channel' })).toBeVisible();
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`/artistes/${SLUG}$`));
      const data = await page
        .locator('script[type="application/ld+json"]')
        .evaluateAll((scripts) => scripts.map((script) => JSON.parse(script.textContent) as Record<string, unknown>));
      expect(data.filter((node) => node['@type'] === 'MusicGroup')).toEqual([
        expect.objectContaining({
          name: 'Basic Channel',
          url: expect.stringMatching(new RegExp(`/artistes/${SLUG}$`)),
        }),
      ]);
      expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
    });

    test('the artists A–Z lead to their pages; an unknown artist is a French 404, a thin page is noindex', async ({
      page,
    }) => {
      await gotoPage(page, '/artistes');
      await expect(page.getByRole('heading', { level: 1, name: 'Artistes' })).toBeVisible();
      const artists = page.getByRole('list', { name: 'Artistes' });
      await expect(artists.getByRole('link', { name: 'Basic Channel' })).toHaveAttribute('href', `/artistes/${SLUG}`);
      await expect(artists.getByRole('listitem').filter({ hasText: 'Basic Channel' })).toContainText('2 passages');
      await expectNoViolations(page, `/artistes, ${String(size.width)} px`);

      const unknown = await page.goto('/artistes/personne-de-ce-nom');
      expect(unknown?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: 'Artiste introuvable' })).toBeVisible();
      await expect(page).toHaveTitle('Artiste introuvable · Artistes');

      // Played once, with no release nor residence: out of search engines (docs/artists.md, « Indexed »).
      const thin = await page.request.get('/api/artists?q=sissoko');
      const [once] = ((await thin.json()) as { items: { slug: string; plays: number; releases: number }[] }).items;
      expect(once).toMatchObject({ plays: 1, releases: 0 });
      await gotoPage(page, `/artistes/${once?.slug ?? ''}`);
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
      await expectNoViolations(page, `/artistes/${once?.slug ?? ''}, ${String(size.width)} px`);
    });
  });
}
