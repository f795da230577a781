import type { Page } from '@playwright/test';
import { expect, gotoPage, untilInteractive } from './fixtures';

/**
 * The demo's « Carte blanche à Faya Rootz » as the tests' server (which lives on Sunday 22 November
 * 2026) has it: its address is its day in Paris and its UID's fingerprint (docs/events.md), both
 * stable since the demo's calendar is made for the server's day.
 */
export const EVENT_PATH = '/evenements/2027-01-13-8dd2e5d3f7';

/** The routes a visitor can land on, with the page's own heading (residence: a known demo id). */
export const ROUTES = [
  { path: '/', name: 'accueil' },
  { path: '/programme', name: 'programme' },
  { path: '/evenements', name: 'evenements' },
  { path: EVENT_PATH, name: 'evenement' },
  { path: '/residences', name: 'residences' },
  { path: '/residences/axonberg', name: 'residence' },
  { path: '/emissions', name: 'emissions' },
  // The demo feed's items are the same every day (only their dates move): this slug is stable.
  { path: '/emissions/axonberg-synapses-11', name: 'emission' },
  // A residence, in the collective's yellow, as a card: the preview and every kind of code.
  { path: '/integrer?residence=axonberg&theme=jaune&format=carte', name: 'integrer' },
  { path: '/label', name: 'label' },
  { path: '/a-propos', name: 'a-propos' },
] as const;

/** Phone (small and common), tablet, desktop: the widths every screen is checked at. */
export const VIEWPORTS = [
  { width: 320, height: 568 },
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
] as const;

/**
 * Scrolls through the whole page and back to its top, as a visitor reading it does: the blocks that
 * ask for their data once seen (the home's schedule, docs/schedule.md) ask, and lazy pictures load.
 * The navbar shows again at the top (it hides while scrolling down, shows on scrolling up). A scroll
 * event is told at the top as well: a browser that merged the last scrolls into one position may
 * fire none (one CI run's bar stayed hidden for 30 s of scrolls to 10 and back).
 */
export async function scrollThrough(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const step = Math.max(200, window.innerHeight - 100);
    for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    window.scrollTo(0, 0);
  });
  await expect(async () => {
    await page.evaluate(async () => {
      window.scrollTo(0, 10);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      window.scrollTo(0, 0);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      window.dispatchEvent(new Event('scroll'));
    });
    await expect(page.locator('header.navbar')).not.toHaveClass(/navbar--hidden/, { timeout: 1_000 });
  }).toPass();
}

/**
 * Waits until the display face has come and is in the page's fonts: the page's script makes it once
 * the first screen is painted (shared/src/boot.ts, `showDisplayFace`), and until then
 * `document.fonts.ready` does not wait for it.
 */
export async function displayFaceIn(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.fonts].some((face) => face.family.replace(/"/g, '') === 'Archivo Black' && face.status === 'loaded'),
  );
}

/**
 * Opens a page and waits until it is still: the page's remote rendered, the fonts loaded, every image
 * (lazy ones included, by scrolling through the page) decoded, and back at the top.
 */
export async function openStill(page: Page, path: string): Promise<void> {
  await gotoPage(page, path);
  await expect(page.getByRole('button', { name: /Stream/ })).toBeVisible();
  // Pictures in a horizontal strip (the team) are never scrolled to: they load now.
  await page.evaluate(() => {
    for (const img of document.querySelectorAll('img')) img.loading = 'eager';
  });
  await scrollThrough(page);
  await displayFaceIn(page);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  // What the browser asks for once the page is interactive or once seen (the home's schedule, the
  // archive's filters: docs/first-screen.md, « The first screen's budget ») has come.
  await expect(page.locator('#contenu')).not.toContainText('Chargement');
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          [...document.images].filter(
            (img) => img.getAttribute('src') !== null && !(img.complete && img.naturalWidth > 0),
          ).length,
      ),
    )
    .toBe(0);
}

export const player = (page: Page) => page.getByRole('region', { name: 'Lecteur radio' });

/** Opens the player on the live stream. */
export async function openPlayer(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Stream : ouvrir le lecteur' }).click();
  await expect(player(page).getByRole('button', { name: 'Fermer le lecteur' })).toBeVisible();
}

/** Plays the newest podcast in the player, the way a card does (the `replay-selected` event). */
export async function openReplay(page: Page): Promise<void> {
  // A raw DOM event is heard only by a player already listening.
  await untilInteractive(page, 'player');
  await page.evaluate(async () => {
    const response = await fetch('/api/podcasts?limit=1');
    const [first] = (await response.json()) as unknown[];
    window.dispatchEvent(new CustomEvent('collectif:replay-selected', { detail: first }));
  });
  await expect(page.getByRole('button', { name: 'Revenir au direct' })).toBeVisible();
}

/**
 * Every link and button inside `root` whose centre is off the screen, or covered by something else
 * (document.elementFromPoint there is neither the control nor inside it). Empty when a visitor can
 * see and press every one of them without scrolling.
 */
export function unreachableControls(page: Page, root: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const container = document.querySelector(selector);
    if (container === null) return [`${selector} absent`];
    const problems: string[] = [];
    for (const control of container.querySelectorAll<HTMLElement>('a[href], button, [role="slider"]')) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // not rendered (display: none)
      const name = (control.getAttribute('aria-label') ?? control.textContent).trim() || control.outerHTML;
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) {
        problems.push(`${name} : hors de l'écran (${String(Math.round(x))}, ${String(Math.round(y))})`);
        continue;
      }
      const hit = document.elementFromPoint(x, y);
      if (hit === null || !(hit === control || control.contains(hit))) {
        problems.push(`${name} : couvert par ${hit === null ? 'rien' : hit.outerHTML.slice(0, 80)}`);
      }
    }
    return problems;
  }, root);
}

/** How far the page scrolls sideways (0 when it does not). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * Where the navbar, the page's content (its container's left edge, inside its padding) and the
 * footer start, in CSS pixels: one content width shares one left edge (docs/interface.md).
 */
export function leftEdges(page: Page): Promise<{ navbar: number; content: number; footer: number }> {
  return page.evaluate(() => {
    const left = (selector: string) => {
      const element = document.querySelector(selector);
      if (element === null) throw new Error(`${selector} absent`);
      return element.getBoundingClientRect().left;
    };
    const container = document.querySelector('#contenu .page');
    if (container === null) throw new Error('#contenu .page absent');
    return {
      navbar: left('.navbar__start'),
      content: container.getBoundingClientRect().left + parseFloat(getComputedStyle(container).paddingLeft),
      footer: left('.footer__brand'),
    };
  });
}

/**
 * Every box the page lays out only near the view (content-visibility: auto, docs/first-screen.md,
 * « Work after the paint ») drawn now, as a visitor who scrolls to it sees it: a whole-page
 * screenshot does not bring a box near the view, and would show it empty. Set through the CSS object
 * model, which the page's policy allows; layout.spec.ts checks that drawing them so moves nothing.
 */
export async function drawAll(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (const element of document.querySelectorAll<HTMLElement>('*')) {
      if (getComputedStyle(element).contentVisibility === 'auto') {
        element.style.setProperty('content-visibility', 'visible');
      }
    }
    // A picture the page decodes out of its turn (decoding="async") may be painted without it first,
    // and drawn in a later frame: on a loaded machine the first whole-page screenshot showed some of
    // /a-propos's team without their pictures at 1280 px, and the next ones, seconds long at that
    // height, ran out the comparison's time. Drawn in the frame that paints them, as they end up.
    for (const img of document.images) img.decoding = 'sync';
    await Promise.all(
      [...document.images].filter((img) => img.currentSrc !== '').map((img) => img.decode().catch(() => undefined)),
    );
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}
