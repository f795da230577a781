import type { Page } from '@playwright/test';
import { expect, gotoPage, test } from '../fixtures';

/**
 * What a page's script writes into the service worker's caches is never run (docs/published.md,
 * « What a page's script cannot forge »). Any script of the site's origin can write any of the
 * worker's caches (`caches.open(name).put(…)`): a team's hostile version, while it is live, could
 * leave there a player chunk, a shell script or an offline page of its own, which the worker would
 * go on answering after the version is rolled back. Here the page's script does so, as that version
 * would, and the next visit runs the genuine files: the worker checks every file it answers from its
 * caches against its name, or against the digest its own script carries, and a kept page it cannot
 * check runs nothing.
 */

// The worker runs in this spec (the others block it: playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

/** The attributes the forged files set on `<html>` when they run. */
const MARKERS = [
  'data-contrefait-lecteur',
  'data-contrefait-shell',
  'data-contrefait-hors-ligne',
  'data-contrefait-page',
];

/** The player's page module, as the worker keeps it. */
const PLAYER_MODULE = /^\/mf-player\/__federation_expose_Player\.[0-9a-f]+\.js$/;
/** The shell's entry script, precached. */
const SHELL_ENTRY = /^\/main\.[0-9a-f]+\.js$/;

const markers = (page: Page) =>
  page.evaluate((names) => names.filter((name) => document.documentElement.hasAttribute(name)), MARKERS);

/** The paths the worker's cache `name` holds (the precache: any of Workbox's). */
const kept = (page: Page, name: string) =>
  page.evaluate(async (name) => {
    const cacheName =
      name === 'precache' ? (await caches.keys()).find((key) => key.startsWith('workbox-precache')) : name;
    if (cacheName === undefined) return [];
    return (await (await caches.open(cacheName)).keys()).map((request) => new URL(request.url).pathname);
  }, name);

test('a player chunk, a shell script, the offline page and a kept page forged by a page’s script are never run: the next visit runs the genuine player', async ({
  page,
  context,
}) => {
  // A visitor whose worker keeps the site's files: the second visit is the worker's.
  await page.goto('/');
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 })
    .toBe(true);
  await gotoPage(page, '/');
  await expect
    .poll(async () => (await kept(page, 'collectif-fichiers')).some((path) => PLAYER_MODULE.test(path)))
    .toBe(true);
  await expect.poll(async () => (await kept(page, 'precache')).includes('/hors-ligne.html')).toBe(true);
  const player = (await kept(page, 'collectif-fichiers')).find((path) => PLAYER_MODULE.test(path)) ?? '';

  // The hostile version's script: each file forged as a working copy that also runs its own code.
  await page.evaluate(
    async ({ player, shellEntry }) => {
      const mark = (name: string) => `document.documentElement.setAttribute(${JSON.stringify(name)}, 'oui');\n`;
      const script = { headers: { 'content-type': 'application/javascript; charset=utf-8' } };
      const html = { headers: { 'content-type': 'text/html; charset=utf-8' } };
      const files = await caches.open('collectif-fichiers');
      const genuinePlayer = await (await files.match(player))?.text();
      await files.put(player, new Response(mark('data-contrefait-lecteur') + (genuinePlayer ?? ''), script));

      const precacheName = (await caches.keys()).find((key) => key.startsWith('workbox-precache')) ?? '';
      const precache = await caches.open(precacheName);
      for (const request of await precache.keys()) {
        const path = new URL(request.url).pathname;
        const genuine = (await (await precache.match(request))?.text()) ?? '';
        if (new RegExp(shellEntry).test(path)) {
          await precache.put(request, new Response(mark('data-contrefait-shell') + genuine, script));
        }
        if (path === '/hors-ligne.html') {
          const forged = genuine.replace('<head>', `<head><script>${mark('data-contrefait-hors-ligne')}</script>`);
          await precache.put(request, new Response(forged, html));
        }
      }

      // A page never seen, as if kept: shown only without network.
      const pages = await caches.open('collectif-pages');
      await pages.put(
        '/evenements',
        new Response(
          `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Évènements</title></head><body><h1>Page gardée contrefaite</h1><script>${mark('data-contrefait-page')}</script></body></html>`,
          { headers: { ...html.headers, date: new Date().toUTCString() } },
        ),
      );
    },
    { player, shellEntry: SHELL_ENTRY.source },
  );

  // The next visit (after the hostile version's rollback, the pages name the genuine files again;
  // these did not change): the genuine shell and player run, and play the live stream.
  await gotoPage(page, '/');
  const pill = page.getByRole('button', { name: 'Ouvrir le lecteur' });
  await expect(pill).toHaveText(/Stream/);
  await pill.click();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  expect(await markers(page)).toEqual([]);
  // The worker dropped the forged copies and keeps the genuine ones in their place.
  const bodies = () =>
    page.evaluate(
      async ({ player }) => {
        const precacheName = (await caches.keys()).find((key) => key.startsWith('workbox-precache')) ?? '';
        const precache = await caches.open(precacheName);
        const texts = await Promise.all(
          [
            (await caches.open('collectif-fichiers')).match(player),
            ...(await precache.keys()).map((request) => precache.match(request)),
          ].map(async (response) => (await response)?.text() ?? ''),
        );
        return texts.filter((text) => text.includes('data-contrefait')).length;
      },
      { player },
    );
  await expect.poll(bodies, { message: 'copies contrefaites gardées' }).toBe(0);

  // Without network: the genuine offline page, and the forged page shown as kept, its script not run.
  await context.setOffline(true);
  await page.goto('/label');
  await expect(page.getByRole('heading', { level: 1, name: 'Vous êtes hors ligne' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Dernières pages vues' }).getByRole('link', { name: /Accueil/ }),
  ).toHaveAttribute('href', '/');
  expect(await markers(page)).toEqual([]);
  await page.goto('/evenements');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page gardée contrefaite');
  expect(await markers(page)).toEqual([]);
  // A page the visitor saw still opens without network.
  await page.goto('/');
  await expect(page.locator('#contenu').getByRole('heading', { level: 1 })).toBeVisible();
  await context.setOffline(false);
});

test('an offline page forged by a page’s script is never shown, even without network to fetch it again; the next visit with network puts it back', async ({
  page,
  context,
}) => {
  await page.goto('/a-propos');
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 })
    .toBe(true);
  await gotoPage(page, '/a-propos');
  await expect.poll(async () => (await kept(page, 'precache')).includes('/hors-ligne.html')).toBe(true);
  const offlinePage = () =>
    page.evaluate(async () => {
      const precacheName = (await caches.keys()).find((key) => key.startsWith('workbox-precache')) ?? '';
      const precache = await caches.open(precacheName);
      const request = (await precache.keys()).find((key) => new URL(key.url).pathname === '/hors-ligne.html');
      return request === undefined ? '' : ((await (await precache.match(request))?.text()) ?? '');
    });
  const genuine = await offlinePage();
  expect(genuine).toContain('Dernières pages vues');

  // The hostile version's script, on the page the visitor leaves last before the network goes.
  await page.evaluate(async () => {
    const precacheName = (await caches.keys()).find((key) => key.startsWith('workbox-precache')) ?? '';
    const precache = await caches.open(precacheName);
    const request = (await precache.keys()).find((key) => new URL(key.url).pathname === '/hors-ligne.html');
    if (request === undefined) throw new Error('page hors ligne absente du précache');
    await precache.put(
      request,
      new Response(
        '<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Hors ligne</title></head><body><h1>Vous êtes hors ligne</h1><p>Appelez le 08 00 00 00 00.</p><script>document.documentElement.setAttribute("data-contrefait-hors-ligne", "oui")</script></body></html>',
        { headers: { 'content-type': 'text/html; charset=utf-8' } },
      ),
    );
  });

  await context.setOffline(true);
  await page.goto('/label');
  await expect(page.getByRole('heading', { level: 1, name: 'Vous êtes hors ligne' })).toBeVisible();
  await expect(page.getByText('Appelez le')).toHaveCount(0);
  expect(await markers(page)).toEqual([]);
  await context.setOffline(false);

  // With network again, a visit: the worker fetches the genuine offline page again.
  await gotoPage(page, '/a-propos');
  await expect.poll(offlinePage).toBe(genuine);
});
