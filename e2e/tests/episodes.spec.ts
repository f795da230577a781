import type { Page } from '@playwright/test';
import { expect, gotoPage, test } from '../fixtures';
import { player } from '../screen';

// The archive and the episode pages (docs/episodes.md), on the demo feed.

interface EpisodeAnswer {
  slug: string;
  artist: string;
  show: string;
  duration: number;
  residences: string[];
}

async function episodeOf(page: Page, residence: string): Promise<EpisodeAnswer> {
  const response = await page.request.get(`/api/episodes?residence=${residence}`);
  const { items } = (await response.json()) as { items: EpisodeAnswer[] };
  const first = items[0];
  if (first === undefined) throw new Error(`aucune émission de ${residence}`);
  return first;
}

const grid = (page: Page) => page.getByRole('list', { name: 'Émissions', exact: true });
const audioTime = (page: Page) => page.evaluate(() => document.querySelector('audio')?.currentTime ?? -1);

test.describe('the archive', () => {
  test('lists the feed a page at a time, with links from the menu and from home', async ({ page }) => {
    await gotoPage(page, '/');
    await page.getByRole('link', { name: 'Toutes les émissions' }).click();
    await expect(page).toHaveURL(/\/emissions$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Émissions' })).toBeVisible();
    await expect(grid(page).getByRole('listitem')).toHaveCount(24);
    await expect(page.getByText(/^Page 1 sur \d+$/)).toBeVisible();
    // The page opens on its grid: the first covers load at once (the largest paint), the rest lazily.
    const loading = await grid(page)
      .locator('img')
      .evaluateAll((images) => images.map((img) => img.getAttribute('loading')));
    expect(loading.slice(0, 4)).toEqual(['eager', 'eager', 'eager', 'eager']);
    expect(new Set(loading.slice(4))).toEqual(new Set(['lazy']));
    await page.getByRole('link', { name: 'Page suivante' }).click();
    await expect(page).toHaveURL(/\/emissions\?page=2$/);
    await expect(page.getByText(/^Page 2 sur \d+$/)).toBeVisible();
    await expect(grid(page).getByRole('listitem')).toHaveCount(24);
    await expect(
      page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Émissions' }),
    ).toBeAttached();
  });

  test('searches as the visitor types, typos and accents forgiven, the search in the address', async ({ page }) => {
    await gotoPage(page, '/emissions');
    await page.getByLabel('Rechercher une émission').fill('axonbreg');
    await expect(page).toHaveURL(/\/emissions\?q=axonbreg$/);
    const titles = grid(page).locator('.card__title');
    await expect(titles.first()).toHaveText('Axonberg');
    // Every show found names Axonberg (its own, and the specials it is a guest of), or played it
    // (its tracklist, docs/tracklists.md): those come after Axonberg's own.
    const others = grid(page)
      .getByRole('listitem')
      .filter({ hasNot: page.locator('.card__title', { hasText: 'Axonberg' }) });
    const hrefs = await others
      .locator('.card__title a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) {
      const slug = href.split('/').at(-1) ?? '';
      const episode = (await (await page.request.get(`/api/episodes/${slug}`)).json()) as {
        tracks?: { artist: string }[];
      };
      expect(
        episode.tracks?.map((track) => track.artist),
        href,
      ).toContain('Axonberg');
    }

    await page.getByLabel('Rechercher une émission').fill('zzzz introuvable');
    await expect(page.getByText('Aucune émission ne correspond à cette recherche.')).toBeVisible();
    await page.getByRole('link', { name: 'Effacer la recherche' }).click();
    await expect(page).toHaveURL(/\/emissions$/);
    await expect(page.getByLabel('Rechercher une émission')).toHaveValue('');
    await expect(grid(page).getByRole('listitem')).toHaveCount(24);
  });

  test('filters by style and by residence', async ({ page }) => {
    await gotoPage(page, '/emissions');
    await page.getByLabel('Style').selectOption('jungle');
    await expect(page).toHaveURL(/style=jungle/);
    const count = page.getByRole('status').filter({ hasText: /émissions?$/ });
    await expect(count).toHaveText(/^\d+ émissions?$/);
    await page.getByLabel('Résidence').selectOption('axonberg');
    await expect(page.getByText('Aucune émission ne correspond à cette recherche.')).toBeVisible();
    await page.getByLabel('Style').selectOption('');
    await expect(grid(page).locator('.card__title').first()).toHaveText('Axonberg');
  });

  test('says so, with status 404, for a page that does not exist', async ({ page }) => {
    for (const path of ['/emissions?page=99999', '/emissions?page=-1']) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByText("Cette page de l'archive n'existe pas.")).toBeVisible();
      await expect(page.getByRole('link', { name: 'Revenir à la première page' })).toBeVisible();
    }
  });

  test('reads a hostile 10 KB search without reflecting it unescaped', async ({ page }) => {
    const hostile = `<script>window.hacked=1</script>${'x'.repeat(10 * 1024)}`;
    const response = await page.goto(`/emissions?q=${encodeURIComponent(hostile)}`);
    expect(response?.status()).toBe(200);
    expect(await response?.text()).not.toContain('<script>window.hacked');
    await expect(page.getByText('Aucune émission ne correspond à cette recherche.')).toBeVisible();
    expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
  });
});

test.describe('the archive without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('searches on submit and pages with links, rendered by the server', async ({ page }) => {
    await page.goto('/emissions');
    await page.getByLabel('Rechercher une émission').fill('axonberg');
    await page.getByRole('button', { name: 'Rechercher' }).click();
    await expect(page).toHaveURL(/\/emissions\?q=axonberg/);
    await expect(grid(page).locator('.card__title').first()).toHaveText('Axonberg');
    await page.goto('/emissions');
    await page.getByRole('link', { name: 'Page suivante' }).click();
    await expect(page.getByText(/^Page 2 sur \d+$/)).toBeVisible();
  });
});

test.describe('an episode', () => {
  test('has its own page, reached from a card title; « Écouter » plays it in the player', async ({ page }) => {
    const episode = await episodeOf(page, 'axonberg');
    await gotoPage(page, '/residences/axonberg');
    await page
      .getByRole('list', { name: 'Émissions de Axonberg' })
      .getByRole('link', { name: 'Axonberg' })
      .first()
      .click();
    await expect(page).toHaveURL(/\/emissions\/[a-z0-9-]+$/);
    await gotoPage(page, `/emissions/${episode.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: episode.artist })).toBeVisible();
    await expect(page.getByText(episode.show, { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Axonberg' }).first()).toHaveAttribute('href', '/residences/axonberg');
    await expect(page.getByRole('heading', { name: 'Autres émissions de Axonberg' })).toBeVisible();
    await page.getByRole('button', { name: 'Écouter', exact: true }).click();
    await expect(player(page).getByText(episode.artist, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Revenir au direct' })).toBeVisible();
  });

  test('starts at ?t=, and ignores a start past its end', async ({ page }) => {
    const episode = await episodeOf(page, 'axonberg');
    await gotoPage(page, `/emissions/${episode.slug}?t=0m20s`);
    await page.getByRole('button', { name: 'Écouter à partir de 0:20' }).click();
    await expect.poll(() => audioTime(page)).toBeGreaterThanOrEqual(20);
    await gotoPage(page, `/emissions/${episode.slug}?t=99h`);
    await expect(page.getByRole('button', { name: 'Écouter', exact: true })).toBeVisible();
  });

  test('« Partager » copies the link where the browser has no share sheet, and offers the position', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const episode = await episodeOf(page, 'axonberg');
    await gotoPage(page, `/emissions/${episode.slug}`);
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'share', { value: undefined });
    });
    await page.getByRole('button', { name: 'Partager', exact: true }).click();
    await expect(page.getByText('Lien copié dans le presse-papiers.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      new RegExp(`/emissions/${episode.slug}$`),
    );
    await gotoPage(page, `/emissions/${episode.slug}?t=15`);
    await page.getByRole('button', { name: 'Écouter à partir de 0:15' }).click();
    const fromHere = page.getByRole('button', { name: /^Partager à partir de 0:1\d$/ });
    await expect(fromHere).toBeVisible();
    await fromHere.click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\?t=1\ds$/);
  });

  test('offers to resume where the listener stopped, after a reload, without leaving the live by itself', async ({
    page,
  }) => {
    const episode = await episodeOf(page, 'axonberg');
    await gotoPage(page, `/emissions/${episode.slug}?t=14`);
    await page.getByRole('button', { name: 'Écouter à partir de 0:14' }).click();
    await expect.poll(() => audioTime(page)).toBeGreaterThanOrEqual(15);
    await player(page).getByRole('button', { name: 'Pause', exact: true }).click();
    await gotoPage(page, `/emissions/${episode.slug}`);
    const resume = page.getByRole('button', { name: /^Reprendre à 0:1\d$/ });
    await expect(resume).toBeVisible();
    await expect(page.getByRole('button', { name: 'Revenir au direct' })).toHaveCount(0);
    await gotoPage(page, '/residences/axonberg');
    await expect(page.getByText(/^Reprendre à 0:1\d$/).first()).toBeVisible();
    await gotoPage(page, `/emissions/${episode.slug}`);
    await resume.click();
    await expect.poll(() => audioTime(page)).toBeGreaterThanOrEqual(14);
  });

  test('answers 404 with a French page pointing to the archive for an unknown or hostile slug', async ({ page }) => {
    for (const slug of ['inconnue', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', '..%2F..%2Fetc%2Fpasswd']) {
      const response = await page.goto(`/emissions/${slug}`);
      expect(response?.status()).toBe(404);
      expect(await response?.text()).not.toContain('<script>alert');
      await expect(page.getByRole('heading', { level: 1, name: 'Émission introuvable' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Voir toutes les émissions' })).toHaveAttribute('href', '/emissions');
    }
  });
});

test.describe("a residence's podcast feed", () => {
  test('is announced in the page and offered under « S’abonner », its link copied for a podcast app', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await gotoPage(page, '/residences/axonberg');
    const alternate = page.locator('head link[rel="alternate"][type="application/rss+xml"]');
    await expect(alternate).toHaveAttribute('href', /\/residences\/axonberg\/feed\.xml$/);
    await expect(page.locator('head link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    await expect(page.getByRole('heading', { name: "S'abonner" })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Flux RSS' })).toHaveAttribute('href', '/residences/axonberg/feed.xml');
    await page.getByRole('button', { name: 'Copier le lien du flux' }).click();
    await expect(page.getByText('Lien copié : collez-le dans votre application de podcasts.')).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/residences\/axonberg\/feed\.xml$/);
    const feed = await page.request.get(copied);
    expect(feed.headers()['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(await feed.text()).toContain('<itunes:author>Axonberg</itunes:author>');
  });
});
