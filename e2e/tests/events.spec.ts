import type { Page } from '@playwright/test';
import ICAL from 'ical.js';
import { E2E_NOW } from '../clock';
import { consoleTrouble, expect, gotoPage, HYDRATION_TROUBLE, test } from '../fixtures';
import { EVENT_PATH } from '../screen';

// « Évènements » (docs/events.md): the demo's events calendar as a visitor sees it. The tests' server
// lives on Sunday 22 November 2026 at 11:00 in Paris (server-clock.mjs); the browser's clock too.

test.beforeEach(async ({ page }) => {
  await page.clock.setFixedTime(new Date(E2E_NOW));
});

const content = (page: Page) => page.locator('#contenu');
const card = (page: Page, title: string) => content(page).locator('.event-card').filter({ hasText: title });

/** The site's public origin (SITE_ORIGIN), as the page's canonical address gives it. */
async function siteOrigin(page: Page): Promise<string> {
  return new URL((await page.locator('link[rel="canonical"]').getAttribute('href')) ?? '').origin;
}

/** The calendar a file holds, read back with ical.js: its VEVENTs. */
function events(text: string): ICAL.Component[] {
  return new ICAL.Component(ICAL.parse(text) as unknown[]).getAllSubcomponents('vevent');
}

test('/evenements: the coming events first with their date in Paris, then the past ones by year', async ({ page }) => {
  const trouble = consoleTrouble(page);
  await gotoPage(page, '/evenements');
  await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Évènements');
  await expect(content(page).getByRole('heading', { level: 2 })).toHaveText(['À venir', 'Plus tôt en 2026', '2025']);
  const coming = content(page).getByRole('region', { name: 'À venir' }).locator('.event-card');
  await expect(coming).toHaveCount(6);
  await expect(coming.first()).toContainText('mardi 1 décembre 2026 · 16:00 – 23:00');
  await expect(coming.first()).toContainText('Sound system au bord de l');

  // A cancelled one says so in words and sells nothing; a moved one says its date changed.
  const cancelled = card(page, 'Coquelicot en concert');
  await expect(cancelled.locator('.event-status')).toHaveText('Annulé');
  await expect(cancelled.getByRole('link', { name: /^Billets/ })).toHaveCount(0);
  await expect(card(page, 'Les Vendredis Garonne').first().locator('.event-status')).toHaveText('Date modifiée');
  await expect(card(page, 'Plein air techno').locator('.event-status')).toHaveText('À confirmer');

  // The line-up leads to the residences; a guest is a name.
  const faya = card(page, 'Carte blanche à Faya Rootz');
  await expect(faya).toContainText('Avec Faya Rootz / Dalia Sound et Selecta Gaïa');
  await expect(faya.getByRole('link', { name: 'Faya Rootz / Dalia Sound' })).toHaveAttribute(
    'href',
    '/residences/kiko-lumen-faya',
  );
  await expect(faya.getByRole('link', { name: /^Billets/ })).toHaveAttribute('target', '_blank');
  expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);

  // In the menu, after « Programme ».
  const menu = page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link');
  await expect(menu.nth(0)).toHaveText('Programme');
  await expect(menu.nth(1)).toHaveText('Évènements');
  await expect(menu.nth(1)).toHaveAttribute('aria-current', 'page');

  // Its subscription: every event, cancelled ones said cancelled.
  const subscribe = content(page).getByRole('link', { name: 'S’abonner aux évènements' });
  const file = await page.request.get((await subscribe.getAttribute('href')) ?? '');
  expect(file.headers()['content-type']).toMatch(/^text\/calendar/);
  const all = events(await file.text());
  expect(all).toHaveLength(13);
  const coquelicot = all.find((event) => String(event.getFirstPropertyValue('summary')).startsWith('Coquelicot'));
  expect(coquelicot?.getFirstPropertyValue('status')).toBe('CANCELLED');
  // The same file at the site's own address.
  const site = await page.request.get('/evenements.ics');
  expect(site.headers()['content-type']).toMatch(/^text\/calendar/);
  expect(events(await site.text())).toHaveLength(13);

  // A card leads to its event's page.
  await faya.getByRole('link', { name: 'Carte blanche à Faya Rootz', exact: true }).click();
  await expect(page).toHaveURL(EVENT_PATH);
  await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Carte blanche à Faya Rootz');
  await expect(page).toHaveTitle('Carte blanche à Faya Rootz · Évènements');
});

test('an event’s page: date and hours, venue and its map, line-up, Billets, and its .ics read back', async ({
  page,
}) => {
  await gotoPage(page, EVENT_PATH);
  const main = content(page);
  await expect(main.getByRole('img', { name: 'Affiche : Carte blanche à Faya Rootz' })).toBeVisible();
  const facts = main.locator('.event__facts');
  await expect(facts).toContainText('mercredi 13 janvier 2027');
  await expect(facts).toContainText('22:00 – 04:00 (heure de Paris)');
  await expect(facts).toContainText('Le Hangar Garonne');
  const map = facts.getByRole('link', { name: /Ouvrir dans une carte/ });
  await expect(map).toHaveAttribute('href', /^https:\/\/www\.openstreetmap\.org\//);
  await expect(map).toHaveAttribute('target', '_blank');
  // No third-party frame on the page.
  await expect(page.locator('iframe')).toHaveCount(0);
  const tickets = main.getByRole('link', { name: /^Billets/ });
  await expect(tickets).toHaveAttribute('href', 'https://billetterie.example.org/carte-blanche-faya-rootz');
  await expect(tickets).toHaveAttribute('target', '_blank');

  const download = page.waitForEvent('download');
  await main.getByRole('link', { name: 'Ajouter à mon agenda' }).click();
  const text = (await import('node:fs')).readFileSync(await (await download).path(), 'utf8');
  const [event, ...others] = events(text);
  expect(others).toEqual([]);
  expect(event?.getFirstPropertyValue('summary')).toBe('Carte blanche à Faya Rootz');
  const start = event?.getFirstProperty('dtstart');
  expect(start?.getParameter('tzid')).toBe('Europe/Paris');
  expect(String(start?.getFirstValue())).toBe('2027-01-13T22:00:00');
  expect(String(event?.getFirstPropertyValue('location'))).toContain('Le Hangar Garonne');
  expect(event?.getFirstPropertyValue('url')).toBe(new URL(EVENT_PATH, await siteOrigin(page)).href);

  // Its residence's link, and the residence's page lists what is to come.
  await facts.getByRole('link', { name: 'Faya Rootz / Dalia Sound' }).click();
  await expect(page).toHaveURL('/residences/kiko-lumen-faya');
  const next = content(page).getByRole('region', { name: /^Prochains évènements avec/ });
  await expect(next.locator('.event-card')).toHaveCount(1);
  await expect(next).toContainText('Carte blanche à Faya Rootz');
  // On its own page, the residence is named in the line-up, not linked to the page the visitor is on.
  await expect(next.locator('.event-card__lineup')).toContainText('Faya Rootz / Dalia Sound');
  await expect(next.getByRole('link', { name: 'Faya Rootz / Dalia Sound' })).toHaveCount(0);
});

test('an event’s JSON-LD: a MusicEvent, field by field', async ({ page }) => {
  await gotoPage(page, EVENT_PATH);
  const data = await page
    .locator('script[type="application/ld+json"]')
    .evaluateAll((scripts) => scripts.map((script) => JSON.parse(script.textContent) as unknown));
  const event = data.find((node) => (node as { '@type'?: string })['@type'] === 'MusicEvent') as Record<
    string,
    unknown
  >;
  const origin = await siteOrigin(page);
  expect(event).toMatchObject({
    '@context': 'https://schema.org',
    name: 'Carte blanche à Faya Rootz',
    url: `${origin}${EVENT_PATH}`,
    startDate: '2027-01-13T22:00:00+01:00',
    endDate: '2027-01-14T04:00:00+01:00',
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    image: [`${origin}/assets/images/evenements/carte-blanche-faya-rootz.webp`],
    location: {
      '@type': 'Place',
      name: 'Le Hangar Garonne',
      address: { '@type': 'PostalAddress', addressCountry: 'FR' },
    },
    offers: { '@type': 'Offer', url: 'https://billetterie.example.org/carte-blanche-faya-rootz' },
    performer: [
      { '@type': 'PerformingGroup', name: 'Faya Rootz / Dalia Sound', url: `${origin}/residences/kiko-lumen-faya` },
      { '@type': 'PerformingGroup', name: 'Selecta Gaïa' },
    ],
    organizer: { '@type': 'Organization', url: `${origin}/` },
  });
  expect((event.location as { address: { streetAddress: string } }).address.streetAddress).toMatch(/Toulouse/);

  // A cancelled event says so to search engines too.
  const { coming } = (await (await page.request.get('/api/events')).json()) as {
    coming: { slug: string; status: string }[];
  };
  const cancelled = coming.find((one) => one.status === 'cancelled');
  await gotoPage(page, `/evenements/${cancelled?.slug ?? ''}`);
  await expect(content(page).getByRole('note')).toHaveText('Annulé : cet évènement n’aura pas lieu.');
  const status = await page
    .locator('script[type="application/ld+json"]')
    .evaluateAll((scripts) =>
      scripts.map((script) => (JSON.parse(script.textContent) as { eventStatus?: string }).eventStatus),
    );
  expect(status).toContain('https://schema.org/EventCancelled');
});

test('an unknown event: a 404 page that leads to every event', async ({ page }) => {
  const answer = await page.request.get('/evenements/2026-12-05-0000000000');
  expect(answer.status()).toBe(404);
  await gotoPage(page, '/evenements/2026-12-05-0000000000');
  await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Évènement introuvable');
  await content(page).getByRole('link', { name: 'Voir tous les évènements' }).click();
  await expect(page).toHaveURL('/evenements');
});

test('by keyboard: from the list to an event, and to its tickets', async ({ page }) => {
  await gotoPage(page, '/evenements');
  const title = card(page, 'Carte blanche à Faya Rootz').getByRole('link', {
    name: 'Carte blanche à Faya Rootz',
    exact: true,
  });
  await title.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(EVENT_PATH);
  // The event's own page, not the list still on screen while it loads.
  await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Carte blanche à Faya Rootz');
  const tickets = content(page).getByRole('link', { name: /^Billets/ });
  for (let i = 0; i < 40 && !(await tickets.evaluate((link) => link === document.activeElement)); i += 1) {
    await page.keyboard.press('Tab');
  }
  await expect(tickets).toBeFocused();
});

test.describe('a visitor in New York', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('sees the hours in Paris, and their own beside them', async ({ page }) => {
    await gotoPage(page, '/evenements');
    await expect(content(page).locator('.events__zone')).toHaveText('Entre parenthèses : chez vous (America/New York)');
    await expect(card(page, 'Carte blanche à Faya Rootz')).toContainText(
      'mercredi 13 janvier 2027 · 22:00 – 04:00 (16:00 – 22:00 chez vous)',
    );
    await gotoPage(page, EVENT_PATH);
    await expect(content(page).locator('.event__facts')).toContainText(
      '22:00 – 04:00 (heure de Paris) · 16:00 – 22:00 chez vous',
    );
  });
});
