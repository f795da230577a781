import type { Page } from '@playwright/test';
import { E2E_NOW } from '../clock';
import { expect, gotoPage, test, untilInteractive } from '../fixtures';
import { EVENT_PATH } from '../screen';

/**
 * One head (docs/head.md, « One head »): the head a page has once the browser has taken it over is
 * the one the server sent, element for element (title, description, canonical, alternates, cards,
 * and the JSON-LD in the page), and a client-side navigation to the same address gives that head again. Before, the
 * server and the browser each had their own idea: « Axonberg · Synapses · Résidences » became
 * « Axonberg · Résidences » under the visitor.
 */

const HEAD =
  'title, meta[name="description"], link[rel="canonical"], link[rel="alternate"], meta[property^="og:"], meta[name^="twitter:"]';

/**
 * The elements a page's head is made of, as HTML, in document order, then its JSON-LD (written
 * where the page is: React keeps a title, a meta or a link in the head, never a script of data).
 */
function managed(head: string): string[] {
  return [
    ...document.head.querySelectorAll(head),
    ...document.querySelectorAll('script[type="application/ld+json"]'),
  ].map((element) => element.outerHTML);
}

/** Elements as HTML, each with its attributes in one order, in one order. */
function unordered(elements: readonly string[]): string[] {
  return elements
    .map((html) => {
      const [, tag = '', attributes = '', rest = ''] = /^<(\w+)((?:\s[^\s=>]+="[^"]*")*)>(.*)$/s.exec(html) ?? [];
      return `<${tag}${(attributes.match(/\s[^\s=>]+="[^"]*"/g) ?? []).sort().join('')}>${rest}`;
    })
    .sort();
}

/** The same elements in the HTML the server sends for `path`, parsed by the browser. */
async function serverHead(page: Page, path: string): Promise<string[]> {
  const html = await (await page.request.get(path)).text();
  return page.evaluate(
    ([source, head]) => {
      const sent = new DOMParser().parseFromString(source, 'text/html');
      return [...sent.head.querySelectorAll(head), ...sent.querySelectorAll('script[type="application/ld+json"]')].map(
        (element) => element.outerHTML,
      );
    },
    [html, HEAD] as const,
  );
}

async function episodePath(page: Page): Promise<string> {
  const { items } = (await (await page.request.get('/api/episodes?residence=axonberg')).json()) as {
    items: { slug: string }[];
  };
  const slug = items[0]?.slug;
  if (slug === undefined) throw new Error('aucune émission d’Axonberg');
  return `/emissions/${slug}`;
}

const ROUTES: readonly [string, (page: Page) => Promise<string>][] = [
  ['home', () => Promise.resolve('/')],
  ['the programme', () => Promise.resolve('/programme')],
  ['another week of the programme', () => Promise.resolve('/programme?semaine=2026-11-25')],
  ['a week not known (404)', () => Promise.resolve('/programme?semaine=2030-01-07')],
  ['the events', () => Promise.resolve('/evenements')],
  ['an event', () => Promise.resolve(EVENT_PATH)],
  ['an unknown event (404)', () => Promise.resolve('/evenements/2026-12-05-0000000000')],
  ['the residences', () => Promise.resolve('/residences')],
  ['a residence', () => Promise.resolve('/residences/axonberg')],
  ['an unknown residence (404)', () => Promise.resolve('/residences/nexiste-pas')],
  ['the archive', () => Promise.resolve('/emissions')],
  ['a search', () => Promise.resolve('/emissions?q=dub')],
  ['a page of the archive', () => Promise.resolve('/emissions?page=2')],
  ['an archive page past the last (404)', () => Promise.resolve('/emissions?page=999')],
  ['an episode', episodePath],
  ['an unknown episode (404)', () => Promise.resolve('/emissions/nexiste-pas')],
  ['« Intégrer le lecteur »', () => Promise.resolve('/integrer')],
  [
    '« Intégrer le lecteur » preset on an episode',
    async (page) => `/integrer?format=carte&episode=${(await episodePath(page)).split('/').pop() ?? ''}`,
  ],
  ['the artists', () => Promise.resolve('/artistes')],
  ['an artist', () => Promise.resolve('/artistes/basic-channel')],
  ['an artist played once (noindex)', () => Promise.resolve('/artistes/ballake-sissoko')],
  ['an unknown artist (404)', () => Promise.resolve('/artistes/personne-de-ce-nom')],
  ['the label', () => Promise.resolve('/label')],
  ['about', () => Promise.resolve('/a-propos')],
];

for (const [name, pathOf] of ROUTES) {
  test(`${name}: the head after hydration and after a navigation is the server's`, async ({ page }) => {
    // The browser's clock is the server's (the next shows, in the heads of /programme and a residence).
    await page.clock.install({ time: new Date(E2E_NOW) });
    const path = await pathOf(page);
    const sent = await serverHead(page, path);
    expect(sent.length).toBeGreaterThan(10);

    await gotoPage(page, path);
    // Hydrated, every data query of the page answered (from the server's state) and applied: the
    // head is the server's. Not « no request for 500 ms » (`networkidle`), which a page with a player
    // or a preview may not reach in a test's time on a loaded machine.
    await untilInteractive(page, 'shell');
    await expect.poll(() => page.evaluate(managed, HEAD), { timeout: 15_000 }).toEqual(sent);

    // From another page, a client-side navigation to the same address.
    await gotoPage(page, path === '/a-propos' ? '/label' : '/a-propos');
    await page.evaluate((to) => {
      window.history.pushState({}, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    // The same elements with the same attributes and texts. React changes the elements it keeps in
    // place, and adds the new ones at the end of the head: their order there means nothing to a
    // reader of the head (a search engine, a link preview), and React's own.
    await expect.poll(() => page.evaluate(managed, HEAD).then(unordered), { timeout: 15_000 }).toEqual(unordered(sent));
  });
}

test('a visit across the menu by its links: one document, each page’s head the server’s', async ({ page }) => {
  // The table of pages is not in the documents (docs/rendering.md, « The document »): the shell
  // reads it from its file, and builds from it the routes and the menu every link below follows.
  await page.clock.install({ time: new Date(E2E_NOW) });
  const tables: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/pages.json') tables.push(request.url());
  });
  await gotoPage(page, '/');
  expect(await page.locator('#pages-config').count()).toBe(0);
  // Set on the first document: a link the browser followed itself would load another one.
  await page.evaluate(() => {
    (window as { visite?: string }).visite = 'une';
  });
  const menu = page.locator('nav.navbar__desktop .pill-menu a');
  const paths = await menu.evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  expect(paths.length).toBeGreaterThan(5);
  for (const path of paths) {
    const sent = await serverHead(page, path);
    await menu.and(page.locator(`[href="${path}"]`)).click();
    await expect(page).toHaveURL(path);
    await expect.poll(() => page.evaluate(managed, HEAD).then(unordered), { timeout: 15_000 }).toEqual(unordered(sent));
    expect(await page.evaluate(() => (window as { visite?: string }).visite)).toBe('une');
  }
  expect(tables).toHaveLength(1);
});
