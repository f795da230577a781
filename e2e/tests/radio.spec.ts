import type { Page } from '@playwright/test';
import { expect, gotoPage, test } from '../fixtures';

interface PodcastItem {
  artist: string;
  show: string;
  link: string;
  url: string;
}

const main = (page: Page) => page.locator('#contenu');

test.describe('home', () => {
  test('shows the five blocks in order, with their headings', async ({ page }) => {
    // The live status is shared by every test of the server: answer 'not live' for this page only.
    await page.route('**/api/islive', (route) => route.fulfill({ json: { live: false } }));
    await gotoPage(page, '/');
    await expect(page).toHaveTitle('Accueil');
    await expect(
      main(page)
        .getByRole('button', { name: /Artiste|Écouter/ })
        .first(),
    ).toBeVisible();
    await expect(main(page).getByRole('heading', { level: 2 })).toHaveText([
      'À la une',
      'Pas de direct au studio actuellement',
      'Radio Schedule',
      'Derniers podcasts',
      'Dernières sorties',
    ]);
    // The first slide is the largest paint: loaded at once, with high priority.
    const firstSlide = main(page)
      .getByRole('group', { name: /^1 sur 2/ })
      .locator('img');
    await expect(firstSlide).toHaveAttribute('fetchpriority', 'high');
    await expect(firstSlide).toHaveJSProperty('complete', true);
    // A desktop viewport gets the full-size artwork; phones get the 800 px variant (srcset).
    expect(await firstSlide.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(
      /\/slides\/[a-z-]+(?<!-800)\.webp$/,
    );
    expect(await firstSlide.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    // Each card's play button (« Écouter : … »); its « Ajouter à la file » is another button.
    const podcasts = main(page)
      .getByRole('list', { name: 'Derniers podcasts' })
      .getByRole('button', { name: /^Écouter : / });
    await expect(podcasts).toHaveCount(8);
    const releases = main(page).getByRole('list', { name: 'Dernières sorties' }).getByRole('link');
    await expect(releases).toHaveCount(4);
    await expect(releases.first()).toHaveAttribute('href', /^https:\/\/example-label\.bandcamp\.com\//);
    await expect(releases.first()).toHaveAttribute('target', '_blank');

    await main(page).getByRole('button', { name: "Afficher l'agenda" }).click();
    const calendar = main(page).getByTitle('Programme de la radio (agenda)');
    await expect(calendar).toHaveAttribute('src', /mode=AGENDA.*ctz=Europe%2FParis/);
  });

  test('blocks 3 to 5 fade in near the viewport and out when scrolled away', async ({ page }) => {
    await gotoPage(page, '/');
    const releases = main(page).getByRole('region', { name: 'Dernières sorties' });
    const opacity = () => releases.evaluate((el) => Number(getComputedStyle(el).opacity));
    await expect.poll(opacity).toBe(0);
    await releases.scrollIntoViewIfNeeded();
    await expect.poll(opacity).toBe(1);
    await page.evaluate(() => {
      window.scrollTo({ top: 0, behavior: 'instant' });
    });
    await expect.poll(opacity).toBe(0);
  });
});

test.describe('carousel', () => {
  const pageText = (page: Page) => main(page).getByText(/^Page \d sur 2$/);

  test('autoplays every 5 s from page 1, circularly', async ({ page }) => {
    await page.clock.install();
    await gotoPage(page, '/');
    await expect(pageText(page)).toHaveText('Page 1 sur 2');
    await page.clock.runFor(5000);
    await expect(pageText(page)).toHaveText('Page 2 sur 2');
    await page.clock.runFor(5000);
    await expect(pageText(page)).toHaveText('Page 1 sur 2');

    // The visible pause control stops it.
    await main(page).getByRole('button', { name: 'Pause du défilement' }).click();
    await expect(main(page).getByRole('button', { name: 'Lecture du défilement' })).toBeVisible();
    await page.clock.runFor(6000);
    await expect(pageText(page)).toHaveText('Page 1 sur 2');
  });

  test('indicators and buttons navigate, and manual navigation stops autoplay', async ({ page }) => {
    await page.clock.install();
    await gotoPage(page, '/');
    const carousel = main(page).getByRole('region', { name: 'À la une' });
    const indicators = carousel.getByRole('group', { name: 'Choisir une page' }).getByRole('button');
    await expect(indicators).toHaveCount(2);
    await expect(indicators.nth(0)).toHaveAttribute('aria-current', 'true');

    await carousel.getByRole('button', { name: 'Diapositive suivante' }).click();
    await expect(pageText(page)).toHaveText('Page 2 sur 2');
    await expect(indicators.nth(1)).toHaveAttribute('aria-current', 'true');
    await expect(carousel.getByRole('button', { name: 'Lecture du défilement' })).toBeVisible();
    await page.clock.runFor(6000);
    await expect(pageText(page)).toHaveText('Page 2 sur 2');

    await indicators.nth(0).click();
    await expect(pageText(page)).toHaveText('Page 1 sur 2');
    // A click on the slide itself advances.
    await carousel.getByRole('group', { name: /^1 sur 2/ }).click({ position: { x: 40, y: 40 } });
    await expect(pageText(page)).toHaveText('Page 2 sur 2');
    await carousel.getByRole('button', { name: 'Diapositive précédente' }).click();
    await expect(pageText(page)).toHaveText('Page 1 sur 2');

    // The pause control resumes autoplay.
    await carousel.getByRole('button', { name: 'Lecture du défilement' }).click();
    await expect(carousel.getByRole('button', { name: 'Pause du défilement' })).toBeVisible();
    await page.clock.runFor(5000);
    await expect(pageText(page)).toHaveText('Page 2 sur 2');
  });

  test('the release slide has a "+" link opening in a new tab', async ({ page }) => {
    await gotoPage(page, '/');
    const more = main(page).getByRole('link', { name: /^En savoir plus : .+ \(nouvel onglet\)$/ });
    await expect(more).toHaveCount(1);
    await expect(more).toHaveAttribute('target', '_blank');
    await expect(more).toHaveAttribute('href', /^https:\/\//);
  });

  test.describe('with reduced motion', () => {
    test.use({ reducedMotion: 'reduce' });

    test('does not autoplay', async ({ page }) => {
      await page.clock.install();
      await gotoPage(page, '/');
      await expect(main(page).getByRole('button', { name: 'Lecture du défilement' })).toBeVisible();
      await page.clock.runFor(12_000);
      await expect(pageText(page)).toHaveText('Page 1 sur 2');
    });
  });
});

test.describe('podcasts', () => {
  test('a click on a podcast starts it in the player', async ({ page }) => {
    await gotoPage(page, '/');
    await page.evaluate(() => {
      const seen: unknown[] = [];
      (window as unknown as { __replays: unknown[] }).__replays = seen;
      window.addEventListener('collectif:replay-selected', (event) => {
        seen.push((event as CustomEvent).detail);
      });
    });
    const expected = (await (await page.request.get('/api/podcasts?limit=8')).json()) as PodcastItem[];
    const first = expected[0]!;
    await main(page).getByRole('list', { name: 'Derniers podcasts' }).getByRole('button').first().click();
    const replays = await page.evaluate(() => (window as unknown as { __replays: PodcastItem[] }).__replays);
    expect(replays).toHaveLength(1);
    expect(replays[0]).toMatchObject({ artist: first.artist, show: first.show, link: first.link });
    await expect(page.getByRole('region', { name: 'Lecteur radio' })).toContainText(first.artist);
  });
});

test.describe('residences', () => {
  test('the grid has 4 columns on a desktop and leads to a residence', async ({ page }) => {
    await gotoPage(page, '/residences');
    await expect(page).toHaveTitle('Résidences');
    const cards = main(page).getByRole('list', { name: 'Émissions résidentes' }).getByRole('listitem');
    expect(await cards.count()).toBeGreaterThanOrEqual(50);
    const tops = await Promise.all([0, 1, 2, 3, 4].map(async (i) => (await cards.nth(i).boundingBox())?.y));
    expect(new Set(tops.slice(0, 4)).size).toBe(1);
    expect(tops[4]).toBeGreaterThan(tops[0]!);
    // The generated artwork loads, at the size the srcset offers for the column width.
    const image = cards.first().locator('img');
    await expect(image).toHaveJSProperty('complete', true);
    expect(await image.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/-(400|800)\.webp$/);
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    await main(page)
      .getByRole('link', { name: /^Axonberg/ })
      .click();
    await expect(page).toHaveURL(/\/residences\/axonberg$/);
    await expect(main(page).getByRole('heading', { level: 1, name: 'Axonberg' })).toBeVisible();
    await expect(page).toHaveTitle('Axonberg · Synapses · Résidences');
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('the grid has 2 columns', async ({ page }) => {
      await gotoPage(page, '/residences');
      const cards = main(page).getByRole('list', { name: 'Émissions résidentes' }).getByRole('listitem');
      const tops = await Promise.all([0, 1, 2].map(async (i) => (await cards.nth(i).boundingBox())?.y));
      expect(tops[0]).toBe(tops[1]);
      expect(tops[2]).toBeGreaterThan(tops[0]!);
    });
  });

  test('a residence with a slash in its name lists only its own shows, playable', async ({ page }) => {
    await gotoPage(page, '/residences/kalibre-mona-vex');
    await expect(main(page).getByRole('heading', { level: 1, name: 'Kalibre / Mona Vex' })).toBeVisible();
    await expect(main(page).getByRole('heading', { name: 'Dernières émissions' })).toBeVisible();
    const shows = main(page)
      .getByRole('list', { name: 'Émissions de Kalibre / Mona Vex' })
      .getByRole('button', { name: /^Écouter : / });
    await expect(shows.first()).toBeVisible();
    // Each card's play button is named by its show (« Écouter : … »).
    const texts = await shows.evaluateAll((buttons) =>
      buttons.map((button) => button.getAttribute('aria-label') ?? ''),
    );
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(text).toMatch(/Kalibre|Mona Vex/);
    const all = (await (await page.request.get('/api/podcasts')).json()) as PodcastItem[];
    const theirs = all.filter((p) => /Kalibre|Mona Vex/.test(`${p.artist} ${p.show}`));
    expect(texts).toHaveLength(new Set(theirs.map((p) => p.link)).size);

    await shows.first().click();
    await expect(page.getByRole('region', { name: 'Lecteur radio' })).toContainText('Kalibre / Mona Vex');
  });

  test('a description with HTML shows its emphasis and runs nothing', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await gotoPage(page, '/residences/158cm');
    const article = main(page).getByRole('article');
    await expect(article.locator('em')).toHaveText('2-step');
    await expect(article.locator('script')).toHaveCount(0);
    await expect(article.locator('[onerror], [onclick], [onload]')).toHaveCount(0);
    await expect(main(page).getByRole('list', { name: 'Styles' }).getByRole('listitem')).toHaveText([
      'uk garage',
      'breakbeat',
    ]);
    const links = main(page).getByRole('list', { name: 'Liens' }).getByRole('link');
    await expect(links).toHaveText(['SoundCloud (nouvel onglet)', 'Bandcamp (nouvel onglet)']);
    expect(dialogs).toEqual([]);
  });

  test('an unknown id shows "Résidence introuvable" with a way back to the list', async ({ page }) => {
    await gotoPage(page, '/residences/nexiste-pas');
    await expect(main(page).getByRole('heading', { level: 1, name: 'Résidence introuvable' })).toBeVisible();
    await expect(page).toHaveTitle('Résidence introuvable · Résidences');
    await main(page).getByRole('link', { name: 'Voir toutes les résidences' }).click();
    await expect(page).toHaveURL(/\/residences$/);
    await expect(main(page).getByRole('heading', { level: 1, name: 'Résidences' })).toBeVisible();
  });
});
