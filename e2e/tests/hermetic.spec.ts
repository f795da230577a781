import type { Page } from '@playwright/test';
import { expect, gotoPage, test } from '../fixtures';

// The browser tests see the same thing on every contributor's machine (docs/testing.md, « Hermetic
// browser tests »): the project's fonts only, Paris and French for the visitor unless a test says
// otherwise.

/** The fonts Chromium really drew a node's text with (« (web) »: a font the page loaded). */
async function fontsOf(page: Page, selector: string): Promise<string[]> {
  const client = await page.context().newCDPSession(page);
  try {
    await client.send('DOM.enable');
    await client.send('CSS.enable');
    const { root } = await client.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await client.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { fonts } = await client.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts.map((font) => (font.isCustomFont ? `${font.familyName} (web)` : font.familyName));
  } finally {
    await client.detach();
  }
}

test.describe('the test run does not depend on the machine', () => {
  test('text is drawn in the project’s fonts, never in one the machine has', async ({ page }) => {
    await gotoPage(page, '/');
    // The footer is drawn only once near the view (docs/first-screen.md, « Work after the paint »):
    // a text not drawn has no font yet.
    await page.locator('.footer__legal').scrollIntoViewIfNeeded();
    // The body's system-ui resolves to the project's DejaVu Sans (npm), the logo to the display font.
    await expect.poll(() => fontsOf(page, '.footer__legal')).toEqual(['DejaVu Sans']);
    expect(await fontsOf(page, 'header .logo__text')).toEqual(['Archivo Black (web)']);
    // Fonts that Debian's Chromium brings along (Liberation) or desktops have (Noto), and names of
    // the body's font stack: none of them exists for the tests' browser, which falls through to the
    // generic family at the end.
    await page.evaluate(() => {
      const probe = document.createElement('p');
      probe.id = 'sonde-police';
      probe.textContent = 'Émission du collectif';
      probe.style.fontFamily = "'Liberation Sans', 'Noto Sans', Arial, Roboto, 'Helvetica Neue', monospace";
      document.body.append(probe);
    });
    // Chromium names a node's fonts once it has drawn it: asked before that, it names none.
    await expect.poll(() => fontsOf(page, '#sonde-police')).toEqual(['DejaVu Sans Mono']);
  });

  test('the visitor reads French in Paris', async ({ page }) => {
    await gotoPage(page, '/');
    expect(await page.evaluate(() => [navigator.language, Intl.DateTimeFormat().resolvedOptions().timeZone])).toEqual([
      'fr-FR',
      'Europe/Paris',
    ]);
  });
});

test.describe('a visitor in Auckland', () => {
  // A test that needs another zone says so; the rest of the suite is in Paris.
  test.use({ timezoneId: 'Pacific/Auckland' });

  test('reads an episode’s date as the radio’s, the day it was in Toulouse', async ({ page }) => {
    await gotoPage(page, '/emissions');
    const response = await page.request.get('/api/episodes');
    const { items } = (await response.json()) as { items: { slug: string; pubDate: string | null }[] };
    // An episode published on a day in Paris that was already the next day in Auckland.
    const days = await page.evaluate(
      (dates) =>
        dates.map((iso) => {
          const format = (timeZone: string) =>
            new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', year: 'numeric', timeZone }).format(
              new Date(iso ?? 0),
            );
          return { paris: format('Europe/Paris'), here: format(Intl.DateTimeFormat().resolvedOptions().timeZone) };
        }),
      items.map((item) => item.pubDate),
    );
    const index = days.findIndex((day, i) => items[i]?.pubDate !== null && day.paris !== day.here);
    expect(index, 'une émission publiée un autre jour à Auckland').toBeGreaterThanOrEqual(0);
    const episode = items[index];
    const day = days[index];
    if (episode === undefined || day === undefined) throw new Error('index hors de la page');

    await gotoPage(page, `/emissions/${episode.slug}`);
    await expect(page.locator('.episode__facts time')).toHaveText(day.paris);
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('Pacific/Auckland');
  });
});
