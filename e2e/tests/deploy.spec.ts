import { cpSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../fixtures';
import {
  partRequest,
  sendPart,
  settled as settledAt,
  startSiteCopy,
  type PartsReady,
  type SiteCopy,
} from '../site-copy';

/**
 * A team deploys its remote alone (docs/parts.md, « Pages »): a site served from a copy of the
 * built parts, into which a new build of mf-about, declaring one more page, is deployed while the
 * server runs. Nothing else is rebuilt or restarted.
 */

const NEW_PAGE = {
  path: 'nous-rejoindre',
  module: 'AboutPage',
  title: 'Nous rejoindre',
  description: 'Bénévoles, résidents, techniciens : comment rejoindre le collectif.',
  area: 'La page Nous rejoindre',
  menu: 'Nous rejoindre',
};

const ABOUT_TOKEN = 'about-jeton-du-test-navigateur-000001';

let site: SiteCopy;
let distRoot: string;
let origin: string;

test.beforeAll(async () => {
  site = await startSiteCopy({
    // A looping bundle's trial ends sooner than the default 15 s.
    RENDER_TRIAL_S: '5',
    // Teams' deploys on: every part served from its live version (its dist/ until a deploy).
    DEPLOY_TOKENS: `about:${ABOUT_TOKEN}`,
    EDITOR_ORIGIN: 'http://127.0.0.1:9',
  });
  ({ distRoot, origin } = site);
});

test.afterAll(() => site.stop());

/** Once every part's new server container copied by hand has been tried (docs/deploy.md, « The trial »). */
const settled = (): Promise<PartsReady> => settledAt(origin);

/** What a team's deployment does: the new dist/ put in place of the old one in one step. */
function deployAbout(pages: unknown[]): void {
  const next = join(distRoot, 'mf-about', 'dist.next');
  cpSync(join(distRoot, 'mf-about', 'dist'), next, { recursive: true });
  writeFileSync(join(next, 'pages.json'), JSON.stringify(pages));
  const old = join(distRoot, 'mf-about', 'dist.old');
  renameSync(join(distRoot, 'mf-about', 'dist'), old);
  renameSync(next, join(distRoot, 'mf-about', 'dist'));
  rmSync(old, { recursive: true, force: true });
}

/**
 * The page's area sent as React's mark for « render in the browser » (`<!--$!-->`), after the page's
 * head boundary (its JSON-LD, shell/src/layout/PageHead.tsx) at the top of `<main>`.
 */
const LEFT_TO_BROWSER =
  /<main id="contenu" tabindex="-1" data-zone="page">(?:<!--\$-->(?:(?!<!--\/\$-->)[\s\S])*<!--\/\$-->)?<!--\$!-->/;

test('a remote deployed alone with one more page: the running site serves it, in its menu too', async ({ page }) => {
  const before = await fetch(`${origin}/${NEW_PAGE.path}`, { redirect: 'manual' });
  expect(before.status).toBe(302);

  const declared = JSON.parse(readFileSync(join(distRoot, 'mf-about', 'dist', 'pages.json'), 'utf8')) as unknown[];
  deployAbout([...declared, NEW_PAGE]);
  await settled();

  // Rendered on the server, with its own title and description.
  const response = await page.goto(`${origin}/${NEW_PAGE.path}`);
  expect(response?.status()).toBe(200);
  const html = (await response?.text()) ?? '';
  expect(html).toContain(`<title>${NEW_PAGE.title}</title>`);
  expect(html).toContain(`<meta name="description" content="${NEW_PAGE.description}"`);
  await expect(page.locator('#contenu').getByRole('heading', { name: 'Le collectif' })).toBeVisible();

  // The shell built its routes and menu from the new table: the page is reached from home too.
  await page.goto(`${origin}/`);
  const menu = page.getByRole('navigation', { name: 'Navigation principale' });
  await menu.getByRole('link', { name: NEW_PAGE.menu }).click();
  await expect(page).toHaveURL(`${origin}/${NEW_PAGE.path}`);
  await expect(page).toHaveTitle(NEW_PAGE.title);
  await expect(page.locator('#contenu').getByRole('heading', { name: 'Le collectif' })).toBeVisible();

  // The team takes the page back: the next request no longer finds it.
  deployAbout(declared);
  const after = await fetch(`${origin}/${NEW_PAGE.path}`, { redirect: 'manual' });
  expect(after.status).toBe(302);
});

/** mf-radio deployed alone: its new dist/ in place of the old one, its pages as `pages` (none: as built). */
function deployRadio(pages?: unknown[]): void {
  const next = join(distRoot, 'mf-radio', 'dist.next');
  cpSync(join(distRoot, 'mf-radio', 'dist'), next, { recursive: true });
  if (pages !== undefined) writeFileSync(join(next, 'pages.json'), JSON.stringify(pages));
  const old = join(distRoot, 'mf-radio', 'dist.old');
  renameSync(join(distRoot, 'mf-radio', 'dist'), old);
  renameSync(next, join(distRoot, 'mf-radio', 'dist'));
  rmSync(old, { recursive: true, force: true });
}

test('a remote deployed alone with its routes renamed: every address follows, and the former ones redirect', async ({
  page,
}) => {
  const built = readFileSync(join(distRoot, 'mf-radio', 'dist', 'pages.json'), 'utf8');
  const declared = JSON.parse(built) as { module: string; path: string }[];
  // What the build writes for an episode and a residence module whose `route` says `episodes/:slug`
  // and `residents/:id`, their former paths kept as aliases: of the whole build, only pages.json
  // depends on a route (every link is built from the table at run time).
  const renamed = declared.map((entry) => {
    if (entry.module === 'EpisodePage') return { ...entry, path: 'episodes/:slug', aliases: ['emissions/:slug'] };
    if (entry.module === 'ResidencePage') return { ...entry, path: 'residents/:id', aliases: ['residences/:id'] };
    return entry;
  });
  const { items } = (await (await fetch(`${origin}/api/episodes?residence=axonberg`)).json()) as {
    items: { slug: string }[];
  };
  const slug = items[0]?.slug ?? '';
  expect(slug).not.toBe('');
  deployRadio(renamed);
  await settled();
  try {
    // Links in the pages, rendered on the server: the archive's cards, the episode's residence.
    const archive = await (await fetch(`${origin}/emissions?residence=axonberg`)).text();
    expect(archive).toContain(`href="/episodes/${slug}"`);
    expect(archive).not.toContain(`href="/emissions/${slug}"`);
    const shown = await fetch(`${origin}/episodes/${slug}`);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain(`<link rel="canonical" href="${origin}/episodes/${slug}"/>`);
    expect(html).toContain('href="/residents/axonberg"');

    // A former address: for good, to the page's new one, its query kept.
    const former = await fetch(`${origin}/emissions/${slug}?t=1:00`, { redirect: 'manual' });
    expect(former.status).toBe(301);
    expect(former.headers.get('location')).toBe(`/episodes/${slug}?t=1:00`);

    // The server's own documents: the sitemap, a residence's podcast feed, oEmbed, a calendar file.
    const sitemap = await (await fetch(`${origin}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${origin}/episodes/${slug}</loc>`);
    expect(sitemap).toContain(`<loc>${origin}/residents/axonberg</loc>`);
    expect(sitemap).not.toContain(`${origin}/emissions/${slug}<`);
    const feed = await (await fetch(`${origin}/residences/axonberg/feed.xml`)).text();
    expect(feed).toContain(`<link>${origin}/episodes/${slug}</link>`);
    expect(feed).toContain(`<link>${origin}/residents/axonberg</link>`);
    for (const address of [`${origin}/episodes/${slug}`, `${origin}/emissions/${slug}`]) {
      const oembed = await fetch(`${origin}/oembed?url=${encodeURIComponent(address)}`);
      expect(oembed.status, address).toBe(200);
      expect(((await oembed.json()) as { author_url?: string }).author_url).toBe(`${origin}/residents/axonberg`);
    }
    const ics = (await (await fetch(`${origin}/api/schedule.ics?residence=axonberg`)).text()).replace(/\r\n[ \t]/g, '');
    expect(ics).toContain(`URL:${origin}/residents/axonberg`);
    expect(ics).not.toContain('/residences/axonberg');

    // In the browser: a card of the archive leads to the new address, the old one lands there too.
    await page.goto(`${origin}/emissions?residence=axonberg`);
    await page.locator('#contenu').getByRole('list', { name: 'Émissions' }).getByRole('link').first().click();
    await expect(page).toHaveURL(`${origin}/episodes/${slug}`);
    await expect(page.locator('#contenu').getByRole('heading', { level: 1 })).toBeVisible();
    await page.goto(`${origin}/emissions/${slug}`);
    await expect(page).toHaveURL(`${origin}/episodes/${slug}`);
    await page.locator('#contenu').getByText('Résidence :').getByRole('link').click();
    await expect(page).toHaveURL(`${origin}/residents/axonberg`);
  } finally {
    deployRadio(declared);
    await settled();
  }
  // Deployed back: the former addresses are the pages again.
  expect((await fetch(`${origin}/emissions/${slug}`, { redirect: 'manual' })).status).toBe(200);
});

test('a part whose server code is missing or throws: its area is rendered by the browser, the rest is HTML', async ({
  page,
}) => {
  const bundle = (part: string) => join(distRoot, part, 'dist', 'server', 'remoteEntry.js');
  const label = readFileSync(bundle('mf-label'), 'utf8');
  const about = readFileSync(bundle('mf-about'), 'utf8');
  rmSync(bundle('mf-label'));
  writeFileSync(bundle('mf-about'), 'throw new Error("exercice : conteneur serveur cassé");');
  try {
    for (const [path, shown] of [
      ['/label', page.locator('#contenu').getByRole('list', { name: 'Sorties du label' })],
      ['/a-propos', page.locator('#contenu').getByRole('heading', { name: 'Le collectif' })],
    ] as const) {
      const response = await fetch(`${origin}${path}`);
      const html = await response.text();
      expect(response.status, path).toBe(200);
      // The shell and the player are HTML; the page's area is React's mark for « render in the browser ».
      expect(html, path).toContain('Navigation principale');
      expect(html, path).toMatch(LEFT_TO_BROWSER);
      await page.goto(`${origin}${path}`);
      await expect(shown).toBeVisible({ timeout: 15_000 });
    }
  } finally {
    writeFileSync(bundle('mf-label'), label);
    writeFileSync(bundle('mf-about'), about);
  }
  // Deployed again, the parts render on the server once tried.
  await settled();
  const again = await (await fetch(`${origin}/label`)).text();
  expect(again).not.toMatch(LEFT_TO_BROWSER);
  expect(again).toContain('Garonne Dub Vol. 6');
});

test('a part whose server code never ends: refused at its trial, the page is still answered and shown, the site keeps answering', async ({
  page,
}) => {
  // Two bundles that loop, each tried until its deadline (RENDER_TRIAL_S, 5 s here).
  test.slow();
  const bundle = join(distRoot, 'mf-label', 'dist', 'server', 'remoteEntry.js');
  const label = readFileSync(bundle, 'utf8');
  // A careless deploy: a loop at the top of the bundle, then one in the page's render.
  for (const hostile of [
    'for (;;) {}',
    // The container's exports are read-only (webpack's getters): a new container in their place,
    // whose modules' components loop.
    `${label}\nconst built = module.exports;\nmodule.exports = { init: built.init, get: (request) => built.get(request).then((factory) => () => ({ ...factory(), default: () => { for (;;) {} } })) };`,
  ]) {
    writeFileSync(bundle, hostile);
    try {
      const answered = fetch(`${origin}/label`);
      // Meanwhile the rest of the site answers.
      const [health, podcasts] = await Promise.all([
        fetch(`${origin}/healthz`),
        fetch(`${origin}/api/podcasts?limit=1`),
      ]);
      expect(health.status).toBe(200);
      expect(podcasts.status).toBe(200);
      // No thread that serves visitors evaluates it: the page is HTML, the label's area left to the
      // browser while the new bundle is on trial, and once it is refused.
      const response = await answered;
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(LEFT_TO_BROWSER);
      const parts = await settled();
      expect(parts.label?.state).toBe('refused');
      expect(parts.label?.reason).toContain('ne finit pas');
      const next = await (await fetch(`${origin}/label`)).text();
      expect(next).toContain('Navigation principale');
      expect(next).toMatch(LEFT_TO_BROWSER);
      // The visitor gets the label's page, rendered by the browser.
      await page.goto(`${origin}/label`);
      await expect(page.locator('#contenu').getByRole('list', { name: 'Sorties du label' })).toBeVisible({
        timeout: 15_000,
      });
    } finally {
      writeFileSync(bundle, label);
    }
    // The good bundle back: rendered on the server again once tried, with no restart.
    await settled();
    const again = await (await fetch(`${origin}/label`)).text();
    expect(again).toContain('Garonne Dub Vol. 6');
    expect(again).not.toMatch(LEFT_TO_BROWSER);
  }
});

test('a visitor’s open page keeps navigating across a team’s deploy and rollback', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const menu = page.getByRole('navigation', { name: 'Navigation principale' });
  const releases = page.locator('#contenu').getByRole('list', { name: 'Sorties du label' });
  const about = page.locator('#contenu').getByRole('heading', { name: 'Le collectif' });
  await page.goto(`${origin}/label`);
  await expect(releases).toBeVisible();

  // The about team deploys its part (its build, packed as npm run deploy packs it) while the page is open.
  const deployed = await sendPart(origin, 'about', ABOUT_TOKEN, join(distRoot, 'mf-about', 'dist'));
  expect(deployed.status).toBe(200);

  // The open page goes on: the new version's part in place, then back.
  await menu.getByRole('link', { name: 'À propos' }).click();
  await expect(page).toHaveURL(`${origin}/a-propos`);
  await expect(about).toBeVisible();
  await menu.getByRole('link', { name: 'Label' }).click();
  await expect(releases).toBeVisible();

  // Rolled back while the page is open: the same.
  expect((await partRequest(origin, '/api/parts/about/rollback', ABOUT_TOKEN)).status).toBe(200);
  await menu.getByRole('link', { name: 'À propos' }).click();
  await expect(about).toBeVisible();
  expect(errors).toEqual([]);
});
