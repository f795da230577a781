import type { Page } from '@playwright/test';
import { consoleTrouble, expect, HYDRATION_TROUBLE, test } from '../fixtures';

/** Resolves once React has taken over the page's content (a hydrated node carries React's keys). */
async function hydrated(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const node = document.querySelector('#contenu > *');
          return node !== null && Object.keys(node).some((key) => key.startsWith('__reactFiber'));
        }),
      { timeout: 15_000 },
    )
    .toBe(true);
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test.describe(`hydration at ${String(viewport.width)} px`, () => {
    test.use({ viewport });
    // Pages whose subject is not found (404): « not found » is an answer the browser starts from, as
    // the server said it, not a question it asks again while showing « Chargement ». Every route of
    // the menu is checked where it is loaded for its audit, at the same widths (a11y.spec.ts).
    for (const path of ['/emissions/nexiste-pas', '/residences/nexiste-pas']) {
      test(`${path}: the server's HTML is taken over with no hydration error or warning`, async ({ page }) => {
        const trouble = consoleTrouble(page);
        await page.goto(path);
        await hydrated(page);
        await page.waitForLoadState('networkidle');
        expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
      });
    }
  });
}

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });

  test('every page can be read, and its links followed', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Derniers podcasts' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Derniers podcasts' }).getByRole('listitem')).toHaveCount(8);
    await expect(page.getByRole('heading', { name: 'Dernières sorties' })).toBeVisible();

    // On a phone the menu's toggle needs JavaScript: the site's links show in the bar instead.
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    await nav.getByRole('link', { name: 'Résidences', exact: true }).click();
    await expect(page).toHaveURL(/\/residences$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Résidences' })).toBeVisible();

    await page
      .getByRole('link', { name: /Axonberg/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/residences\/axonberg$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Axonberg');
    await expect(page.getByRole('heading', { name: 'Dernières émissions' })).toBeVisible();
    await expect(page.locator('.residence__podcasts')).not.toContainText('Chargement');

    await nav.getByRole('link', { name: 'Label' }).click();
    await expect(page).toHaveURL(/\/label$/);
    await expect(page.locator('#contenu li').first()).toBeVisible();

    await nav.getByRole('link', { name: 'À propos' }).click();
    await expect(page).toHaveURL(/\/a-propos$/);
    await expect(page.getByRole('heading', { name: 'Le collectif' })).toBeVisible();
  });
});

test('the browser does not fetch again the data the page came with', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/podcasts' || url.pathname === '/api/releases') calls.push(url.pathname + url.search);
  });
  await page.goto('/');
  await hydrated(page);
  await page.waitForLoadState('networkidle');
  await page.goto('/residences/axonberg');
  await hydrated(page);
  await page.waitForLoadState('networkidle');
  expect(calls).toEqual([]);
});

test('the page is parsed and painted before its scripts are fetched, then hydrates and plays', async ({
  page,
  request,
}) => {
  // The HTML names no script file: the small loader is in the page, no script preload.
  const html = await (await request.get('/residences/axonberg')).text();
  expect(html.match(/<script\b[^>]*\ssrc=/g)).toBeNull();
  expect(html).not.toMatch(/as="script"|as="fetch"/);
  // Nor a style sheet: the sheets are in the page (docs/first-screen.md, « Styles in the page »).
  expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/);
  // The loader and the sheets written into the page run under the page's own policy, refused nowhere.
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  await page.goto('/residences/axonberg');
  await hydrated(page);
  expect(refused).toEqual([]);
  // The sheets written into the page are not fetched again once the page's modules have loaded
  // (a chunk asked for later, as « Me prévenir »'s, brings its own sheet: not one of these).
  await page.waitForLoadState('networkidle');
  const { written, fetched } = await page.evaluate(() => ({
    written: [...document.querySelectorAll('style[data-href]')].map(
      (style) => new URL(style.getAttribute('data-href') ?? '', location.href).href,
    ),
    fetched: performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => name.endsWith('.css')),
  }));
  expect(written.length).toBeGreaterThan(0);
  expect(fetched.filter((name) => written.includes(name))).toEqual([]);
  // The shell's entry asks Chromium to compile all its functions while it streams in, off the main
  // thread (V8's explicit compile hint, first in the file: docs/first-screen.md, « Work after the paint »).
  const entry = await page.evaluate(() => document.querySelector('script[data-src]')?.getAttribute('data-src') ?? '');
  expect(entry).toMatch(/^\/main\.[0-9a-f]{32}\.js$/);
  expect((await (await request.get(entry)).text()).startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
  const timing = await page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const scripts = performance
      .getEntriesByType('resource')
      .filter((entry) => /\/(main\.[0-9a-f]+|remoteEntry|__federation_expose_\w+\.[0-9a-f]+)\.js$/.test(entry.name));
    return {
      parsed: navigation?.domInteractive ?? Number.NaN,
      painted: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      scripts: scripts.map((entry) => entry.startTime),
    };
  });
  // The shell's entry, the remote entries and the pages' chunks: all once the document is parsed
  // and its first contentful paint is on the screen. Which of the two comes first is Chromium's
  // choice: on a busy machine it paints the first part of a long document before it has parsed it
  // all, and neither order is a fault.
  expect(timing.scripts.length).toBeGreaterThanOrEqual(4);
  expect(Number.isFinite(timing.painted) && Number.isFinite(timing.parsed)).toBe(true);
  for (const start of timing.scripts) {
    expect(start).toBeGreaterThanOrEqual(timing.parsed);
    expect(start).toBeGreaterThanOrEqual(timing.painted);
  }
  // Hydrated: the episode page's « Écouter » starts the replay in the player.
  await page.goto('/emissions/axonberg-synapses-11');
  await hydrated(page);
  await page.getByRole('button', { name: 'Écouter', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Revenir au direct' })).toBeVisible();
});

test.describe('what a crawler or a link preview gets', () => {
  test('each page has its own title, description, canonical URL, card and structured data', async ({ request }) => {
    const expectations = [
      { path: '/', title: 'Accueil', type: 'RadioStation' },
      { path: '/residences', title: 'Résidences', type: null },
      { path: '/residences/axonberg', title: /^Axonberg · .+ · Résidences$/, type: 'RadioSeries' },
      { path: '/label', title: 'Label', type: 'ItemList' },
      { path: '/a-propos', title: 'Collectif Garonne À Propos', type: 'Organization' },
    ];
    for (const { path, title, type } of expectations) {
      const res = await request.get(path);
      expect(res.status()).toBe(200);
      const html = await res.text();
      const found = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
      if (typeof title === 'string') expect(found).toBe(title);
      else expect(found).toMatch(title);
      expect(html).toMatch(/<meta name="description" content="[^"]{10,}"\/?>/);
      expect(html).toContain(`<link rel="canonical" href="http://localhost:`);
      expect(html).toMatch(/<meta property="og:image" content="http[^"]+"\/?>/);
      expect(html).toMatch(/<meta name="twitter:card" content="summary(_large_image)?"\/?>/);
      const scripts = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
        (match) => JSON.parse(match[1] ?? 'null') as { '@type': string },
      );
      if (type !== null) expect(scripts.map((script) => script['@type'])).toContain(type);
    }
  });

  test('an unknown residence answers 404 with the French page; HEAD answers like GET', async ({ request }) => {
    const res = await request.get('/residences/nexiste-pas');
    expect(res.status()).toBe(404);
    expect(await res.text()).toContain('Résidence introuvable');
    for (const path of ['/', '/residences', '/residences/axonberg', '/label', '/a-propos', '/residences/nexiste-pas']) {
      const [get, head] = [await request.get(path), await request.head(path)];
      expect(head.status(), path).toBe(get.status());
      expect(head.headers()['content-type']).toBe(get.headers()['content-type']);
      expect((await head.body()).length).toBe(0);
    }
  });

  test('hostile addresses get a clear page, never an error or their text unescaped', async ({ request }) => {
    const script = encodeURIComponent('<script>alert(1)</script>');
    const hostile = await request.get(`/residences/${script}`);
    expect(hostile.status()).toBe(404);
    expect(await hostile.text()).not.toContain('<script>alert(1)');
    const unreadable = await request.get('/residences/%E0%A4%A');
    expect(unreadable.status()).toBe(400);
    expect(await unreadable.text()).toContain('Adresse invalide');
    const long = await request.get(`/label?q=${'a'.repeat(100_000)}`);
    expect(long.status()).toBeLessThan(500);
  });
});
