import ICAL from 'ical.js';
import type { Page } from '@playwright/test';
import { E2E_NOW } from '../clock';
import { consoleTrouble, expect, gotoPage, HYDRATION_TROUBLE, test } from '../fixtures';
import { expectNoViolations } from '../axe';
import { player } from '../screen';

// Following residences without an account (docs/follow.md): « Suivre » on a card and on a page,
// « Mes résidences » from the menu, the personal calendar read back with ical.js, the shared link,
// and a followed residence going on air said in the page, at a phone's width and a desktop's.

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

/** « Mes résidences » from the menu: the phone's, or the desktop's bar. */
async function openFollowed(page: Page): Promise<void> {
  const phone = (page.viewportSize()?.width ?? 0) < 1200;
  if (phone) {
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Mes résidences' }).click();
  } else {
    await page
      .getByRole('navigation', { name: 'Navigation principale' })
      .getByRole('link', { name: 'Mes résidences' })
      .click();
  }
  await expect(page.getByRole('heading', { level: 1, name: 'Mes résidences' })).toBeVisible();
}

/** The names of the residences « Mes résidences » lists, in order. */
const listed = (page: Page) =>
  page.getByRole('list', { name: 'Vos résidences' }).getByRole('listitem').getByRole('heading').allTextContents();

/** Scripts of the player's follow chunk the page asked for. */
function followChunks(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (/\/mf-player\/suivi\.[0-9a-f]+\.js$/.test(new URL(request.url()).pathname)) asked.push(request.url());
  });
  return asked;
}

// Revealed blocks fully shown at once: contrast is measured on the content, not on a fade.
test.use({ reducedMotion: 'reduce' });

for (const size of WIDTHS) {
  test.describe(`${String(size.width)} px`, () => {
    test.use({ viewport: size });

    test('follow on a card and on a page, « Mes résidences » lists them with their calendar, unfollow', async ({
      page,
    }) => {
      await page.clock.setFixedTime(new Date(E2E_NOW));
      const chunks = followChunks(page);
      const trouble = consoleTrouble(page);
      await gotoPage(page, '/mes-residences');
      await expect(page.getByText(/^Vous ne suivez aucune résidence/)).toBeVisible();
      await expectNoViolations(page, `/mes-residences, ${String(size.width)} px, nothing followed`);
      await gotoPage(page, '/residences');
      // Following none, the pages ask for none of it.
      expect(chunks).toEqual([]);
      const chip = page.getByRole('button', { name: 'Suivre Axonberg' });
      await expect(chip).toHaveAttribute('aria-pressed', 'false');
      await chip.click();
      await expect(chip).toHaveAttribute('aria-pressed', 'true');
      await expectNoViolations(page, `/residences, ${String(size.width)} px, one followed`);

      // The server writes « Suivre » unpressed for everyone; this browser's list presses it, with no
      // hydration mismatch.
      await gotoPage(page, '/residences/axonberg');
      await expect(page.getByRole('button', { name: 'Suivre', exact: true })).toHaveAttribute('aria-pressed', 'true');
      expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);

      await gotoPage(page, '/residences/la-brume');
      const follow = page.getByRole('button', { name: 'Suivre', exact: true });
      await expect(follow).toHaveAttribute('aria-pressed', 'false');
      await follow.click();
      await expect(follow).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByText('Dans Mes résidences')).toBeVisible();
      await expectNoViolations(page, `/residences/la-brume, ${String(size.width)} px, followed`);
      // Following one, each page loads what says it going on air.
      expect(chunks.length).toBeGreaterThan(0);

      await openFollowed(page);
      expect(await listed(page)).toEqual(['La Brume', 'Axonberg']);
      const axonberg = page.getByRole('listitem').filter({ hasText: 'Axonberg' });
      await expect(axonberg).toContainText(/Prochaine émission : \w+ \d+ \w+ à 20:00/);
      await expect(axonberg).toContainText(/Dernière émission : Synapses/);
      await expectNoViolations(page, `/mes-residences, ${String(size.width)} px`);

      // The calendar: a webcal: address to subscribe to and the .ics file, both the ids and nothing else.
      const agenda = page.getByRole('region', { name: 'Mon agenda' });
      const subscribe = await agenda.getByRole('link', { name: 'S’abonner dans mon agenda' }).getAttribute('href');
      const file = await agenda.getByRole('link', { name: 'Fichier .ics' }).getAttribute('href');
      const origin = new URL(page.url()).host;
      expect(subscribe).toBe(`webcal://${origin}/api/schedule/suivi.ics?residences=la-brume%2Caxonberg`);
      expect(file).toBe(`http://${origin}/api/schedule/suivi.ics?residences=la-brume%2Caxonberg`);
      const answer = await page.request.get(file ?? '');
      expect(answer.headers()['content-type']).toBe('text/calendar; charset=utf-8');
      const calendar = new ICAL.Component(ICAL.parse(await answer.text()) as unknown[]);
      const shows = calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
      expect(new Set(shows.map((show) => show.summary.split(' · ')[0]))).toEqual(new Set(['La Brume', 'Axonberg']));
      for (const show of shows) {
        const [alarm] = show.component.getAllSubcomponents('valarm');
        expect(alarm?.getFirstPropertyValue('action')).toBe('DISPLAY');
        expect(String(alarm?.getFirstPropertyValue('trigger'))).toBe('-PT15M');
        expect(alarm?.getFirstPropertyValue('description')).toBe(
          `${show.summary} commence dans 15 minutes sur Collectif Garonne.`,
        );
      }

      await page.getByRole('button', { name: 'Ne plus suivre Axonberg' }).click();
      await expect(page.getByText('Axonberg n’est plus suivie.')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Vos résidences' })).toBeFocused();
      // Kept by this browser, as it is now.
      await gotoPage(page, '/mes-residences');
      await expect(page.getByRole('list', { name: 'Vos résidences' }).getByRole('listitem')).toHaveCount(1);
      expect(await listed(page)).toEqual(['La Brume']);
    });

    test('a followed residence going on air is said in the page, and by a notification once allowed', async ({
      page,
      context,
    }) => {
      await page.clock.setFixedTime(new Date(E2E_NOW));
      await page.addInitScript(() => {
        window.localStorage.setItem('collectif:suivi', '["axonberg"]');
        // What the browser shows as notifications, recorded: the system's own are out of a test's sight.
        const shown: string[] = [];
        Object.assign(window, { shownNotifications: shown });
        const System = window.Notification;
        window.Notification = class extends System {
          constructor(title: string, options?: NotificationOptions) {
            shown.push(title);
            super(title, options);
          }
        };
      });
      // The radio plays someone else when the page opens; then its channel says Axonberg is on: the
      // demo's rotation moves every 3 minutes, too slow for a test, so the channel is the test's.
      await page.route('**/api/nowplaying', (route) =>
        route.fulfill({ json: { artist: 'Capitole Sound', title: 'Brique et Basse' } }),
      );
      const release: (() => void)[] = [];
      const onAir = new Promise<void>((resolve) => {
        release.push(resolve);
      });
      await page.route('**/api/nowplaying/events', async (route) => {
        await onAir;
        await route.fulfill({
          contentType: 'text/event-stream; charset=utf-8',
          body: `retry: 600000\nid: 2\nevent: nowplaying\ndata: ${JSON.stringify({ artist: 'Axonberg', title: 'Synapse 7' })}\n\n`,
        });
      });

      await gotoPage(page, '/mes-residences');
      const alerts = page.getByRole('region', { name: 'Quand elles passent en direct' });
      // No button of its own: « Me prévenir » is each residence's (push.spec.ts). A browser that
      // allowed the site's notifications gets the page's own too.
      await expect(alerts.getByText(/^Avec « Me prévenir » sur une résidence/)).toBeVisible();
      await expect(alerts.getByRole('button')).toHaveCount(0);
      await context.grantPermissions(['notifications']);
      // Elsewhere on the site, not a radio page: the player says it.
      const phone = size.width < 1200;
      if (phone) {
        await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
        await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'À propos' }).click();
      } else {
        await page
          .getByRole('navigation', { name: 'Navigation principale' })
          .getByRole('link', { name: 'À propos' })
          .click();
      }
      await expect(page).toHaveURL(/\/a-propos$/);
      const said = page.locator('.follow-live').getByRole('status');
      await expect(said).toBeEmpty();
      for (const goOnAir of release) goOnAir();
      await expect(said).toHaveText('Axonberg est en direct');
      expect(
        await page.evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications),
      ).toEqual(['Axonberg est en direct']);
      await expectNoViolations(page, `announcement, ${String(size.width)} px`);

      await page.getByRole('button', { name: 'Écouter le direct' }).click();
      await expect(player(page).getByRole('button', { name: 'Fermer le lecteur' })).toBeVisible();
      await expect(said).toBeEmpty();
    });
  });
}

test('a shared link offers its residences on another device, never follows them silently, and drops what is not one', async ({
  page,
  browser,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.addInitScript(() => {
    window.localStorage.setItem('collectif:suivi', '["verglas","axonberg"]');
  });
  await gotoPage(page, '/mes-residences');
  await page.getByRole('button', { name: 'Copier mon lien' }).click();
  await expect(page.getByText('Lien copié : ouvrez-le sur votre autre appareil.')).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(`${new URL(page.url()).origin}/mes-residences?suivre=axonberg%2Cverglas`);

  // Another device: another browser context, its own storage, which follows La Brume already.
  const other = await browser.newContext();
  try {
    const phone = await other.newPage();
    await phone.addInitScript(() => {
      if (window.localStorage.getItem('collectif:suivi') === null)
        window.localStorage.setItem('collectif:suivi', '["la-brume"]');
    });
    // A forged list after the real one: markup, an unknown residence, and a thousand ids (10,000 do
    // not fit in a request the server reads: 431, tested with the calendar's route).
    const forged = [
      'axonberg',
      '<img src=x onerror=alert(1)>',
      'verglas',
      'inconnue',
      ...Array.from({ length: 1_000 }, (_, index) => `r${String(index)}`),
    ];
    const shared = new URL(link);
    await gotoPage(phone, `${shared.pathname}${shared.search},${encodeURIComponent(forged.join(','))}`);
    const offer = phone.getByRole('region', { name: 'Suivre ces résidences ?' });
    await expect(offer.getByRole('listitem')).toHaveText(['Axonberg · Synapses', 'Verglas · Sol Glissant']);
    await expect(phone.locator('img[src="x"]')).toHaveCount(0);
    expect(await phone.evaluate(() => window.localStorage.getItem('collectif:suivi'))).toBe('["la-brume"]');
    await expectNoViolations(phone, '/mes-residences?suivre=…');

    await offer.getByRole('button', { name: 'Suivre ces 2 résidences' }).click();
    await expect(phone.getByText('2 résidences ajoutées.')).toBeVisible();
    await expect(phone).toHaveURL(/\/mes-residences$/);
    expect(await listed(phone)).toEqual(['Verglas', 'Axonberg', 'La Brume']);
  } finally {
    await other.close();
  }
});
