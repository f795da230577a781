import { expect, gotoPage, test } from '../fixtures';

test.describe('routes', () => {
  // The same head once the browser has taken the page over, and after a navigation: head.spec.ts, on
  // every route.
  test('the page as served, before any script runs, already has its title and description', async ({ request }) => {
    for (const [path, title, description] of [
      ['/', 'Accueil', null],
      ['/residences', 'Résidences', null],
      ['/label', 'Label', 'Liste des releases du label'],
      ['/a-propos', 'Collectif Garonne À Propos', 'Qui sommes-nous ?'],
      // A residence's head is its own: artist and show, its description's first sentence.
      [
        '/residences/axonberg',
        'Axonberg · Synapses · Résidences',
        'Voyage entre electro de Détroit et techno hypnotique.',
      ],
    ] as const) {
      const html = await (await request.get(path)).text();
      expect(html).toContain('<html lang="fr"');
      expect(html).toContain(`<title>${title}</title>`);
      if (description !== null) expect(html).toContain(`<meta name="description" content="${description}"`);
    }
  });

  test('an unknown path lands on home', async ({ page }) => {
    await gotoPage(page, '/nimporte/quoi');
    await expect(page).toHaveURL(/\/$/);
    await expect(page).toHaveTitle('Accueil');
  });

  test('a deep link survives a reload', async ({ page }) => {
    await gotoPage(page, '/residences/axonberg');
    await page.reload();
    await expect(page).toHaveURL(/\/residences\/axonberg$/);
    await expect(page.getByRole('button', { name: 'Retour aux résidences' })).toBeVisible();
  });
});

test.describe('the page announces what it needs (server hints)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  const LARGEST_IMAGE: Record<string, string | null> = {
    '/': 'img.carousel__image',
    '/residences': '.residence-card img.card__image',
    '/residences/axonberg': 'img.residence__header-image',
    '/label': '.release-card img.card__image',
    '/emissions/axonberg-synapses-11': 'img.episode__cover',
    '/a-propos': 'img.about-image',
  };

  for (const [path, imageSelector] of Object.entries(LARGEST_IMAGE)) {
    test(`${path}: every announced file is used, and downloaded once`, async ({ page }) => {
      await gotoPage(page, path);
      await expect(page.getByRole('button', { name: /Stream/ })).toBeVisible();
      // The scripts' preloads are added once the page is painted (docs/rendering.md): all settled.
      await page.waitForLoadState('networkidle');
      const seen = await page.evaluate(() => ({
        preloads: [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')].map((link) => ({
          as: link.as,
          href: link.href,
          srcset: link.getAttribute('imagesrcset'),
        })),
        fetched: performance.getEntriesByType('resource').map((entry) => entry.name),
        remoteMap: document.getElementById('remotes-config')?.textContent ?? null,
      }));
      // The remote map is in the page: the shell did not have to ask for it.
      expect(JSON.parse(seen.remoteMap ?? 'null')).toMatchObject({ radio: '/mf-radio/mf-manifest.json' });
      expect(seen.fetched.filter((url) => url.endsWith('/remotes.json'))).toEqual([]);

      const files = seen.preloads.filter((p) => p.as !== 'image');
      // Manifest, entry and chunks of the page's remote and of the player.
      expect(files.length).toBeGreaterThanOrEqual(6);
      for (const { href } of files)
        expect(
          seen.fetched.filter((url) => url === href),
          href,
        ).toHaveLength(1);
      // Nothing at all was downloaded twice (a preload the page could not reuse would be).
      expect(seen.fetched.filter((url, i) => seen.fetched.indexOf(url) !== i)).toEqual([]);

      const images = seen.preloads.filter((p) => p.as === 'image');
      if (imageSelector === null) {
        expect(images).toEqual([]);
        return;
      }
      // The announced image is the one the page shows first and large.
      expect(images).toHaveLength(1);
      const shown = await page
        .locator(imageSelector)
        .first()
        .evaluate((img: HTMLImageElement) => ({
          src: img.currentSrc,
          srcset: img.getAttribute('srcset'),
        }));
      expect(new URL(shown.src).pathname).toMatch(/^\/assets\/images\//);
      expect(images[0]?.srcset ?? null).toBe(shown.srcset === null ? null : shown.srcset);
      if (shown.srcset === null) expect(images[0]?.href).toBe(shown.src);
      expect(seen.fetched.filter((url) => url === shown.src)).toHaveLength(1);
    });
  }
});

test.describe('navbar on a desktop (1280×800)', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('pill menu follows the active link and is hidden on home', async ({ page }) => {
    await gotoPage(page, '/');
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    await expect(nav.getByRole('link', { name: 'Label' })).toBeVisible();
    await expect(page.locator('.pill-menu__highlighter')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Ouvrir le menu' })).toHaveCount(0);
    // « Nous soutenir » is in the mobile menu only (the footer has its own).
    await expect(page.locator('header').getByRole('link', { name: /Nous soutenir/ })).toHaveCount(0);

    await nav.getByRole('link', { name: 'Label' }).click();
    await expect(page).toHaveURL(/\/label$/);
    const highlighter = page.locator('.pill-menu__highlighter');
    await expect(highlighter).toBeVisible();
    const labelBox = await nav.getByRole('link', { name: 'Label' }).boundingBox();
    await expect
      .poll(async () => {
        const box = await highlighter.boundingBox();
        return box === null || labelBox === null
          ? Infinity
          : Math.abs(box.x - labelBox.x) + Math.abs(box.width - labelBox.width);
      })
      .toBeLessThan(2);
  });

  test('back button goes to the list from a residence and home from elsewhere', async ({ page }) => {
    await gotoPage(page, '/residences/axonberg');
    await page.getByRole('button', { name: 'Retour aux résidences' }).click();
    await expect(page).toHaveURL(/\/residences$/);
    await page.getByRole('button', { name: "Retour à l'accueil" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Collectif Garonne, accueil' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Retour/ })).toHaveCount(0);
  });

  test('the bar hides when scrolling down past 30 px and returns on scrolling up', async ({ page }) => {
    await gotoPage(page, '/label');
    await page.evaluate(() => {
      document.body.style.minHeight = '4000px';
    });
    const header = page.getByRole('banner');
    await page.evaluate(() => {
      window.scrollTo(0, 400);
    });
    await expect(header).toHaveClass(/navbar--hidden/);
    await page.evaluate(() => {
      window.scrollTo(0, 200);
    });
    await expect(header).not.toHaveClass(/navbar--hidden/);
  });
});

test.describe('navbar on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the right-hand icon opens and closes the full-screen menu', async ({ page }) => {
    await gotoPage(page, '/');
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    // HelloAsso takes payments on the site (the embedded demo's): the site's own page, in the same tab.
    const support = menu.getByRole('link', { name: /Nous soutenir/ });
    await expect(support).toHaveAttribute('href', '/soutenir');
    await expect(support).not.toHaveAttribute('target', /./);
    await expect(page.locator('.page-area')).toHaveClass(/page-area--menu-open/);
    await page.getByRole('button', { name: 'Fermer le menu' }).click();
    await expect(menu).toHaveCount(0);

    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Ouvrir le menu' })).toBeFocused();
  });

  test('a menu link closes the menu and opens the page', async ({ page }) => {
    await gotoPage(page, '/');
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'À propos' }).click();
    await expect(page).toHaveURL(/\/a-propos$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: "Retour à l'accueil" })).toBeVisible();
  });
});

/** A script of one of three of the menu's pages, from three parts: the residences (radio), the label and About. */
const MENU_PAGE_SCRIPT = /__federation_expose_(ResidencesPage|LabelPage|AboutPage)\.[0-9a-f]+\.js$/;

test("a page read without a touch, a key, a scroll or a mouse moving evaluates none of the menu's pages", async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (MENU_PAGE_SCRIPT.test(request.url())) asked.push(request.url());
  });
  await page.goto('/');
  await expect(page.getByRole('button', { name: /Stream/ })).toBeVisible();
  // Past the few seconds after the load that the shell waits for, then an idle period: without a
  // visitor's interaction, the time the first of them was asked for until now.
  await page.evaluate(async () => {
    if (document.readyState !== 'complete')
      await new Promise((resolve) => {
        addEventListener('load', resolve);
      });
    await new Promise((resolve) => setTimeout(resolve, 3500));
    await new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 }));
    await new Promise((resolve) => setTimeout(resolve, 500));
  });
  expect(asked).toEqual([]);
  // The visitor's first movement: they come, one after the other (below).
  await page.mouse.move(200, 300);
  await expect.poll(() => asked.length, { timeout: 20_000 }).toBe(3);
});

test("when idle, the menu's pages are fetched one after another, not in one task", async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: /Stream/ })).toBeVisible();
  // The visitor's first interaction: a scroll of the wheel.
  await page.mouse.wheel(0, 200);
  const prefetched = () =>
    page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => /__federation_expose_(ResidencesPage|LabelPage|AboutPage)\.[0-9a-f]+\.js$/.test(entry.name))
        .map((entry) => ({ name: entry.name, start: entry.startTime, end: entry.responseEnd }))
        .sort((a, b) => a.start - b.start),
    );
  await expect.poll(async () => (await prefetched()).length, { timeout: 20_000 }).toBe(3);
  const [first, second, third] = await prefetched();
  // Each is asked for once the one before has arrived (and run): one page per idle period.
  expect(second!.start).toBeGreaterThanOrEqual(first!.end);
  expect(third!.start).toBeGreaterThanOrEqual(second!.end);
});

test('footer: legal numbers, current year, mail and network links', async ({ page }) => {
  await gotoPage(page, '/');
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText(`© ${String(new Date().getFullYear())} Collectif Garonne`);
  await expect(footer).toContainText('RNA W313000000');
  await expect(footer.getByRole('link', { name: 'Nous contacter' })).toHaveAttribute(
    'href',
    'mailto:contact@example.org',
  );
  // « Proposer une émission » leads to the radio's page, which shows the shows' address too (docs/proposals.md).
  await expect(footer.getByRole('link', { name: 'Proposer une émission' })).toHaveAttribute(
    'href',
    '/proposer-une-emission',
  );
  for (const name of ['Instagram', 'SoundCloud', 'Bandcamp', 'Tous nos liens']) {
    await expect(footer.getByRole('link', { name: `${name} (nouvel onglet)` })).toHaveAttribute('target', '_blank');
  }
});

test('a remote that cannot load shows its fallback; the rest works; Réessayer recovers', async ({ page }) => {
  await page.route('**/mf-label/**', (route) => route.abort('connectionrefused'));
  await page.goto('/label');
  const fallback = page.getByRole('alert');
  await expect(fallback).toContainText('La page du label est momentanément indisponible', { timeout: 15_000 });
  await expect(page.getByRole('contentinfo')).toContainText('Collectif Garonne');
  await expect(page.getByRole('button', { name: /Stream/ })).toBeVisible();

  // The other remotes keep working while the label is down.
  const nav = page.getByRole('navigation', { name: 'Navigation principale' });
  await nav.getByRole('link', { name: 'Résidences', exact: true }).click();
  await expect(page).toHaveTitle('Résidences');
  await expect(page.locator('#contenu h1')).toBeVisible();
  await nav.getByRole('link', { name: 'Label' }).click();
  await expect(fallback).toContainText('La page du label est momentanément indisponible', { timeout: 15_000 });

  // Once the remote is reachable again, « Réessayer » brings the page without a reload.
  await page.unroute('**/mf-label/**');
  await page.getByRole('button', { name: 'Réessayer' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.locator('#contenu h1')).toBeVisible();
});
