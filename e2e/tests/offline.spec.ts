import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { FOLLOW_KEY } from '@collectif/shared/follow';
import { expectNoViolations } from '../axe';
import { expect, test } from '../fixtures';
import { sendPart, settled, startSiteCopy, type SiteCopy } from '../site-copy';

/**
 * The installed site (docs/published.md, « Installable »): the service worker answers a page asked
 * for without network with the French offline page, serves a team's new deploy at the next visit
 * whatever it kept, and leaves the partner embed alone. On a copy of the built parts, where the
 * about team may deploy.
 */

// The one spec where the service worker runs (the others block it: playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const ABOUT_TOKEN = 'about-jeton-du-test-hors-ligne-000001';
let site: SiteCopy;

test.beforeAll(async () => {
  site = await startSiteCopy({ DEPLOY_TOKENS: `about:${ABOUT_TOKEN}`, EDITOR_ORIGIN: 'http://127.0.0.1:9' });
});

test.afterAll(() => site.stop());

const content = (page: Page) => page.locator('#contenu');

/** Opens `path`, then once the worker has taken the page over, opens it again: a page it answered. */
async function visitTwice(page: Page, path: string, origin = site.origin): Promise<void> {
  await page.goto(`${origin}${path}`);
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 })
    .toBe(true);
  await page.reload();
}

test('without network, a page not kept shows the offline page: the residences followed, « Mes résidences », the pages kept', async ({
  page,
  context,
}, testInfo) => {
  await page.goto(`${site.origin}/a-propos`);
  await page.evaluate((key) => {
    localStorage.setItem(key, JSON.stringify(['axonberg', 'zz-inconnue']));
  }, FOLLOW_KEY);
  await visitTwice(page, '/a-propos');
  await expect(content(page).getByRole('heading', { level: 1 })).toBeVisible();

  await context.setOffline(true);
  await page.goto(`${site.origin}/label`);
  await expect(page).toHaveTitle(/^Hors ligne · /);
  await expect(page.getByRole('heading', { level: 1, name: 'Vous êtes hors ligne' })).toBeVisible();
  const followed = page.getByRole('region', { name: 'Vos résidences suivies' });
  await expect(followed.getByRole('link', { name: /^axonberg/ })).toHaveAttribute('href', '/residences/axonberg');
  await expect(followed.getByRole('link', { name: /^zz-inconnue/ })).toContainText('Sa page s’ouvrira avec le réseau.');
  await expect(followed.getByRole('link', { name: 'Mes résidences' })).toHaveAttribute('href', '/mes-residences');
  const seen = page.getByRole('region', { name: 'Dernières pages vues' });
  const about = seen.getByRole('link', { name: /À propos/i });
  await expect(about).toHaveAttribute('href', '/a-propos');
  await expect(seen.getByRole('link')).toHaveCount(1);
  await expectNoViolations(page, 'la page hors ligne');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.screenshot({ path: testInfo.outputPath(`hors-ligne-${String(width)}.png`), fullPage: true });
  }

  // A page kept opens without network.
  await about.click();
  await expect(page).toHaveURL(`${site.origin}/a-propos`);
  await expect(content(page).getByRole('heading', { level: 1 })).toBeVisible();
  await context.setOffline(false);
});

/** The about part's next version, as a team's build would make it: the page says where the collective is in other words. */
function nextAboutVersion(next: string): void {
  const exposed = readdirSync(next).find((file) => /^__federation_expose_AboutPage\.[0-9a-f]{32}\.js$/.test(file));
  if (exposed === undefined) throw new Error('module de la page À propos introuvable');
  const oldHash = exposed.split('.')[1] ?? '';
  const code = readFileSync(join(next, exposed), 'utf8').replace(
    /\("dd",\{children:[\w$]+\.city\}\)/,
    '("dd",{children:"Toulouse, nouvelle version"})',
  );
  // Named as the build names it, which the worker checks before it answers from its cache.
  const newHash = createHash('sha256').update(code).digest('hex').slice(0, 32);
  writeFileSync(join(next, exposed.replace(oldHash, newHash)), code);
  for (const file of ['remoteEntry.js', 'mf-manifest.json']) {
    writeFileSync(join(next, file), readFileSync(join(next, file), 'utf8').replaceAll(oldHash, newHash));
  }
  const server = join(next, 'server', 'remoteEntry.js');
  writeFileSync(
    server,
    readFileSync(server, 'utf8').replace('children: stats.city', 'children: "Toulouse, nouvelle version"'),
  );
  // The pre-compressed copies of what changed would be the old version's.
  for (const file of readdirSync(next, { recursive: true }).map(String)) {
    if (/(^|\/)(remoteEntry\.js|mf-manifest\.json)\.(br|gz)$/.test(file)) rmSync(join(next, file));
  }
}

test('a team’s deploy reaches a visitor whose worker kept the previous version, at the next visit', async ({
  page,
}) => {
  await visitTwice(page, '/a-propos');
  const before = content(page).getByText('Toulouse, France');
  await expect(before).toBeVisible();
  // The worker holds the about part's page module as it was (its entry, the browser revalidates).
  const kept = () =>
    page.evaluate(async () =>
      (await (await caches.open('collectif-fichiers')).keys())
        .map((request) => new URL(request.url).pathname)
        .filter((path) => path.startsWith('/mf-about/')),
    );
  // Kept by the worker once its answers are in (it writes its caches after answering the page).
  await expect
    .poll(async () => (await kept()).some((path) => path.includes('__federation_expose_AboutPage')))
    .toBe(true);
  const keptBefore = await kept();

  const next = join(site.distRoot, 'about-next');
  cpSync(join(site.distRoot, 'mf-about', 'dist'), next, { recursive: true });
  nextAboutVersion(next);
  expect((await sendPart(site.origin, 'about', ABOUT_TOKEN, next)).status).toBe(200);
  await settled(site.origin);

  // The next visit: the new version, rendered by the server and then by the browser's new module.
  await page.goto(`${site.origin}/a-propos`);
  await expect(content(page).getByText('Toulouse, nouvelle version')).toBeVisible();
  await expect
    .poll(() =>
      page.evaluate(() =>
        Object.keys(document.querySelector('#contenu > *') ?? {}).some((key) => key.startsWith('__reactFiber')),
      ),
    )
    .toBe(true);
  await expect(content(page).getByText('Toulouse, nouvelle version')).toBeVisible();
  await expect(before).toHaveCount(0);
  const modules = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.includes('__federation_expose_AboutPage')),
  );
  expect(modules).toHaveLength(1);
  expect(keptBefore).not.toContain(modules[0]);
});

test('the partner embed has no worker: none registered by its page, none of its requests answered by the site’s', async ({
  page,
  context,
  baseURL,
}) => {
  // The tests' own server, which serves the embed's build.
  const embed = '/embed/lecteur?residence=axonberg';
  await page.goto(embed);
  await expect(page.getByRole('button', { name: 'Lecture' })).toBeVisible();
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);

  // A visitor of the site, whose worker is installed and answers the site's pages, meets the embed.
  await visitTwice(page, '/', baseURL);
  const partner = await context.newPage();
  const answered: boolean[] = [];
  partner.on('response', (response) => answered.push(response.fromServiceWorker()));
  await partner.goto(embed);
  await expect(partner.getByRole('button', { name: 'Lecture' })).toBeVisible();
  await partner.evaluate(() => document.fonts.ready);
  expect(answered.length).toBeGreaterThan(1);
  expect(answered.filter(Boolean)).toEqual([]);
  // The site's own page, meanwhile, is the worker's.
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${String(baseURL)}/sw.js`);
});
