import type { Locator, Page } from '@playwright/test';
import { consoleTrouble, expect, gotoPage, HYDRATION_TROUBLE, test } from '../fixtures';
import { EVENT_PATH, scrollThrough } from '../screen';
import { expectNoViolations } from '../axe';
import { recordedWindow } from '../timeshift-site';

const ROUTES = [
  '/',
  '/programme',
  '/evenements',
  // The demo's first coming event (its slug: its day in Paris and its UID's fingerprint).
  EVENT_PATH,
  '/residences',
  '/residences/axonberg',
  '/emissions',
  '/emissions/axonberg-synapses-11',
  '/integrer?residence=axonberg&theme=clair&format=carte',
  '/label',
  '/a-propos',
] as const;

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const VIEWPORTS = [
  { name: 'desktop', size: DESKTOP },
  { name: 'phone', size: PHONE },
] as const;

/**
 * Waits until every block of the page has its data: no loading state left anywhere, once the page
 * was scrolled through (a block below the first screen may ask for its data only once seen).
 */
async function gotoLoaded(page: Page, path: string): Promise<void> {
  await gotoPage(page, path);
  await scrollThrough(page);
  await expect(page.locator('#contenu')).not.toContainText(/chargement/i, { timeout: 15_000 });
}

/** The live status is shared by every test of the server: these pages see the studio as told. */
async function studioLive(page: Page, live: boolean): Promise<void> {
  await page.route('**/api/islive', (route) => route.fulfill({ json: { live } }));
}

const player = (page: Page) => page.getByRole('region', { name: 'Lecteur radio' });

for (const viewport of VIEWPORTS) {
  test.describe(`axe, ${viewport.name} (${String(viewport.size.width)}×${String(viewport.size.height)})`, () => {
    test.use({ viewport: viewport.size });

    test.beforeEach(async ({ page }) => {
      // Reduced motion: revealed blocks are fully shown at once, so contrast is measured on the
      // content itself rather than on a fade (and nothing below the fold escapes the audit).
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await studioLive(page, false);
    });

    for (const path of ROUTES) {
      // The phone's menu is the shell's, the same on every page: audited open and closed again once,
      // on the home page.
      const withMenu = viewport.name === 'phone' && path === '/';
      const states = withMenu ? 'menu closed and open' : viewport.name === 'phone' ? 'menu closed' : 'desktop menu';
      // One load of the page for all its looks: its language, description and h1, its hydration,
      // axe, then the keyboard's walk from the top (« keyboard only » below), each on the page as it
      // loaded.
      test(`${path}: French, described, one h1, hydrated without a warning; no violation (${states}); every Tab stop shows a focus ring and is not hidden`, async ({
        page,
      }) => {
        // A load, a scroll through, axe and up to 120 Tab stops (each a key press and a look): 15 s
        // on a quiet machine of two cores, past 30 s on a loaded one (CI, /evenements at 390 px).
        test.setTimeout(60_000);
        const trouble = consoleTrouble(page);
        await gotoLoaded(page, path);
        await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
        await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /\S{3,}/);
        // One h1 per page, home included (a visually hidden one there).
        await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
        await expectNoViolations(page, `${path}, ${viewport.name}`);
        const stops = await tabWalk(page, 120);
        expect(stops.length).toBeGreaterThan(10);
        if (withMenu) {
          // Back to the top, where a visitor opens the menu.
          await page.evaluate(() => {
            window.scrollTo(0, 0);
          });
          await expect(page.getByRole('button', { name: 'Ouvrir le menu' })).toBeInViewport();
          await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
          await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
          await expectNoViolations(page, `${path}, ${viewport.name}, menu open`);
          await page.getByRole('button', { name: 'Fermer le menu' }).click();
          await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);
          await expectNoViolations(page, `${path}, ${viewport.name}, menu closed again`);
        }
        // The server's HTML was taken over with no React hydration error or warning (docs/rendering.md),
        // once every request of the page has ended.
        await page.waitForLoadState('networkidle');
        expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
      });
    }

    test('the player open (live, chat, replay) and closed again: no violation', async ({ page }) => {
      await gotoLoaded(page, '/');
      await page.getByRole('button', { name: 'Ouvrir le lecteur' }).click();
      await expect(page.getByRole('button', { name: 'Fermer le lecteur' })).toBeVisible();
      await expect(player(page).getByText('chargement ...')).toHaveCount(0, { timeout: 15_000 });
      await expectNoViolations(page, 'player open, live');

      await page.getByRole('button', { name: 'Ouvrir le chat' }).click();
      const chat = page.getByRole('region', { name: 'Chat de la radio' });
      // Third-party hosts are blocked: the panel shows its French fallback and a link.
      await expect(chat.getByText('Le chat ne peut pas s’afficher ici pour le moment.')).toBeVisible({
        timeout: 15_000,
      });
      await expectNoViolations(page, 'player open, chat open');
      await page.getByRole('button', { name: 'Fermer le chat' }).click();

      await page.getByRole('list', { name: 'Derniers podcasts' }).getByRole('button').first().click();
      await expect(player(page).getByRole('slider', { name: 'Position dans l’émission' })).toBeVisible();
      await expect(player(page).getByText('chargement ...')).toHaveCount(0, { timeout: 15_000 });
      await expectNoViolations(page, 'player open, replay');

      await page.getByRole('button', { name: 'Fermer le lecteur' }).click();
      await expect(page.getByRole('button', { name: 'Ouvrir le lecteur' })).toBeVisible();
      await expectNoViolations(page, 'player closed again');
    });

    test('texts laid over artwork (carousel captions, residence headers) are readable', async ({ page }) => {
      const expectReadable = async (text: Locator, what: string) => {
        const { ratio, required } = await contrastOverImage(page, text);
        expect(ratio, `contrast of ${what} over its image`).toBeGreaterThanOrEqual(required);
      };
      await gotoLoaded(page, '/');
      const carousel = page.getByRole('region', { name: 'À la une' });
      for (const index of [1, 2]) {
        const slide = carousel.getByRole('group', { name: new RegExp(`^${String(index)} sur 2`) });
        // Reduced motion: the carousel jumps to the page, there is no slide in between to wait for.
        const indicator = carousel.getByRole('button', { name: `Page ${String(index)}` });
        await indicator.click();
        await expect(indicator).toHaveAttribute('aria-current', 'true');
        await expectReadable(slide.getByRole('heading', { level: 3 }), `slide ${String(index)} title`);
        const description = slide.locator('p');
        if (await description.isVisible()) await expectReadable(description, `slide ${String(index)} description`);
      }
      // Residences whose generated artwork is among the brightest.
      for (const id of ['158cm', 'axonberg', '130E0A']) {
        await gotoLoaded(page, `/residences/${id}`);
        const header = page.locator('#contenu header');
        await expectReadable(header.getByRole('heading', { level: 1 }), `${id} artist`);
        await expectReadable(header.locator('.residence__show'), `${id} show`);
      }
    });

    test('the studio live (video player blocked, channel link instead): no violation', async ({ page }) => {
      // The latest route wins over the one of beforeEach.
      await studioLive(page, true);
      await gotoLoaded(page, '/');
      await expect(page.getByRole('link', { name: /Regarder le direct sur Twitch/ })).toBeVisible();
      await expectNoViolations(page, 'home, live');
    });
  });
}

/**
 * The contrast of a text laid over artwork, which axe leaves undecided: the text's colour against
 * the brightest pixel behind it (the text made transparent, the player hidden), and the WCAG AA
 * minimum for its size.
 */
async function contrastOverImage(page: Page, text: Locator): Promise<{ ratio: number; required: number }> {
  const hide = (el: HTMLElement | SVGElement, hidden: boolean) => {
    el.style.visibility = hidden ? 'hidden' : '';
  };
  const { color, large } = await text.evaluate((el) => {
    const style = getComputedStyle(el);
    const size = Number.parseFloat(style.fontSize);
    return { color: style.color, large: size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700) };
  });
  // Found by its label, not its role: once hidden, it has no role any more.
  const playerArea = page.locator('[aria-label="Lecteur radio"]');
  await playerArea.evaluate(hide, true);
  await text.evaluate((el: HTMLElement) => {
    el.style.color = 'transparent';
  });
  const png = await text.screenshot({ animations: 'disabled' });
  await text.evaluate((el: HTMLElement) => {
    el.style.color = '';
  });
  await playerArea.evaluate(hide, false);
  const ratio = await page.evaluate(
    async ({ data, textColor }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d');
      if (context === null) throw new Error('canvas 2d indisponible');
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      const channel = (v: number) => {
        const c = v / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      const luminance = (r: number, g: number, b: number) =>
        0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
      let brightest = 0;
      for (let i = 0; i < pixels.length; i += 4) {
        brightest = Math.max(brightest, luminance(pixels[i] ?? 0, pixels[i + 1] ?? 0, pixels[i + 2] ?? 0));
      }
      const [r = 0, g = 0, b = 0] = (textColor.match(/\d+/g) ?? []).map(Number);
      return (luminance(r, g, b) + 0.05) / (brightest + 0.05);
    },
    { data: png.toString('base64'), textColor: color },
  );
  return { ratio, required: large ? 3 : 4.5 };
}

interface FocusState {
  /** What is focused, for failure messages. */
  name: string;
  tag: string;
  /** A focus indicator is drawn: an outline of at least 2 px, or a box shadow. */
  ring: boolean;
  /** The centre of the focused element is on screen and not covered by another element. */
  seen: boolean;
}

function focusState(page: Page): Promise<FocusState | null> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (element === null || element === document.body) return null;
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const inside = x >= 0 && y >= 0 && x < window.innerWidth && y < window.innerHeight;
    const top = inside ? document.elementFromPoint(x, y) : null;
    const label = element.getAttribute('aria-label') ?? element.textContent;
    return {
      name: `${element.tagName.toLowerCase()} « ${label.trim().slice(0, 50)} »`,
      tag: element.tagName,
      ring: (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== 'none',
      seen: top !== null && (top === element || element.contains(top)),
    };
  });
}

/**
 * Tabs through the page from the top until the focus leaves the document or `limit` stops, and
 * returns every stop, checking on the way that each one shows a focus ring and can be seen.
 */
async function tabWalk(page: Page, limit: number): Promise<string[]> {
  const stops: string[] = [];
  const problems: string[] = [];
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    const state = await focusState(page);
    if (state === null) break;
    stops.push(state.name);
    // A third-party frame draws its own focus; on this machine it is an error page.
    if (state.tag === 'IFRAME') continue;
    if (!state.ring) problems.push(`${state.name}: no focus ring`);
    if (!state.seen) problems.push(`${state.name}: hidden or covered`);
  }
  expect(problems, `focus problems along the Tab walk: ${stops.join(' → ')}`).toEqual([]);
  return stops;
}

/** Presses Tab (or Shift+Tab) until `target` has the focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, { limit = 80, backwards = false } = {}): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    if (await target.evaluateAll((els) => els.some((el) => el === document.activeElement))) return;
  }
  throw new Error(`${backwards ? 'Shift+Tab' : 'Tab'} never reached ${target.toString()}`);
}

test.describe('keyboard only', () => {
  test.use({ viewport: DESKTOP });

  test('the first Tab reaches « Aller au contenu », Enter moves the focus to the main content', async ({ page }) => {
    await gotoLoaded(page, '/label');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Aller au contenu' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    expect((await focusState(page))?.ring).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    // The next Tab goes on from the content, past the navigation.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('main').locator(':focus')).toHaveCount(1);
  });

  test('the navbar, hidden after scrolling down, comes back when the focus enters it', async ({ page }) => {
    await gotoLoaded(page, '/residences');
    await page.mouse.wheel(0, 1500);
    await expect(page.getByRole('banner')).toHaveClass(/navbar--hidden/);
    // From the content, where the focus is after the skip link, back into the bar.
    await page.evaluate(() => {
      document.getElementById('contenu')?.focus({ preventScroll: true });
    });
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByRole('banner').getByRole('link', { name: /Acheter/ })).toBeFocused();
    // The bar slides back in (300 ms): the focused link is seen once it has arrived.
    await expect(page.getByRole('banner')).not.toHaveClass(/navbar--hidden/);
    await expect.poll(async () => (await focusState(page))?.seen, { message: 'Acheter doit être visible' }).toBe(true);
    expect((await focusState(page))?.ring).toBe(true);
  });

  test('phone: the menu keeps the focus inside and Escape closes it', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await gotoLoaded(page, '/label');
    const toggle = page.getByRole('button', { name: 'Ouvrir le menu' });
    await tabTo(page, toggle);
    await page.keyboard.press('Enter');
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Programme' })).toBeFocused();

    const focusables = await menu.locator('a, button').count();
    const inside = () =>
      page.evaluate(() => {
        const active = document.activeElement;
        return (
          active !== null &&
          (document.getElementById('menu-mobile')?.contains(active) === true ||
            active.getAttribute('aria-controls') === 'menu-mobile')
        );
      });
    for (let i = 0; i < focusables + 3; i += 1) {
      await page.keyboard.press('Tab');
      expect(await inside(), `Tab ${String(i + 1)} stays in the menu`).toBe(true);
      const state = await focusState(page);
      expect(state?.ring, state?.name).toBe(true);
      expect(state?.seen, state?.name).toBe(true);
    }
    for (let i = 0; i < focusables + 3; i += 1) {
      await page.keyboard.press('Shift+Tab');
      expect(await inside(), `Shift+Tab ${String(i + 1)} stays in the menu`).toBe(true);
    }

    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(toggle).toBeFocused();
    // The page behind is usable again.
    await expect(page.locator('.page-area')).not.toHaveAttribute('inert');
  });

  test('the carousel: previous, next, indicators and pause by keyboard alone', async ({ page }) => {
    await gotoLoaded(page, '/');
    const carousel = page.getByRole('region', { name: 'À la une' });
    const current = carousel.getByText(/^Page \d sur 2$/);
    await expect(current).toHaveText('Page 1 sur 2');

    // Autoplay stops as soon as the focus enters the carousel; the toggle starts and stops it again.
    await tabTo(page, carousel.getByRole('button', { name: /du défilement$/ }));
    await expect(carousel.getByRole('button', { name: 'Lecture du défilement' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(carousel.getByRole('button', { name: 'Pause du défilement' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(carousel.getByRole('button', { name: 'Lecture du défilement' })).toBeFocused();

    await page.keyboard.press('Tab');
    await expect(carousel.getByRole('button', { name: 'Diapositive suivante' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(current).toHaveText('Page 2 sur 2');
    await page.keyboard.press(' ');
    await expect(current).toHaveText('Page 1 sur 2');

    const indicators = carousel.getByRole('group', { name: 'Choisir une page' }).getByRole('button');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect(indicators.nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(current).toHaveText('Page 2 sur 2');
    await expect(indicators.nth(1)).toHaveAttribute('aria-current', 'true');

    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect(carousel.getByRole('button', { name: 'Diapositive précédente' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(current).toHaveText('Page 1 sur 2');
  });

  test('the player: open, pause and play, chat, a replay sought, direct, close, all by keyboard', async ({ page }) => {
    test.slow();
    await studioLive(page, false);
    await gotoLoaded(page, '/');
    const audio = () =>
      page.evaluate(() => {
        const element = document.querySelector<HTMLAudioElement>('#lecteur-audio');
        return element === null ? null : { time: element.currentTime, paused: element.paused, src: element.src };
      });

    // Open: the focus lands on the play/pause button and the live stream plays.
    await tabTo(page, page.getByRole('button', { name: 'Ouvrir le lecteur' }));
    await page.keyboard.press('Enter');
    const pause = player(page).getByRole('button', { name: 'Pause', exact: true });
    await expect(pause).toBeFocused();
    await expect.poll(async () => (await audio())?.time ?? 0, { timeout: 15_000 }).toBeGreaterThan(0.3);

    await page.keyboard.press('Enter');
    await expect(player(page).getByRole('button', { name: 'Lecture', exact: true })).toBeFocused();
    await expect.poll(async () => (await audio())?.paused).toBe(true);
    await page.keyboard.press(' ');
    await expect(pause).toBeFocused();
    await expect.poll(async () => (await audio())?.paused).toBe(false);

    // The chat opens and closes from the keyboard; its fallback link is reachable.
    const chatButton = player(page).getByRole('button', { name: 'Ouvrir le chat' });
    await tabTo(page, chatButton, { limit: 5 });
    await page.keyboard.press('Enter');
    const chat = page.getByRole('region', { name: 'Chat de la radio' });
    const chatLink = chat.getByRole('link', { name: /Ouvrir le chat dans un nouvel onglet/ });
    await expect(chatLink).toBeVisible({ timeout: 15_000 });
    await tabTo(page, chatLink, { limit: 6, backwards: true });
    await tabTo(page, player(page).getByRole('button', { name: 'Fermer le chat' }), { limit: 6 });
    await page.keyboard.press('Enter');
    await expect(chat).toHaveCount(0);

    // A replay chosen from the page, sought with the slider, then back to the live.
    const card = page.getByRole('list', { name: 'Derniers podcasts' }).getByRole('button').first();
    // Cards are Tab stops (see the walks above); focused directly here to keep the walk short.
    await card.focus();
    await page.keyboard.press('Enter');
    const slider = player(page).getByRole('slider', { name: 'Position dans l’émission' });
    await expect(slider).toBeVisible();
    await expect.poll(async () => (await audio())?.src ?? '').toContain('/api/demo/replays/');
    await tabTo(page, slider);
    await page.keyboard.press('PageUp');
    await page.keyboard.press('PageUp');
    await page.keyboard.press('PageUp');
    await expect.poll(async () => Number(await slider.inputValue())).toBeGreaterThanOrEqual(29);
    await expect.poll(async () => (await audio())?.time ?? 0).toBeGreaterThan(5);
    await expect(slider).toBeFocused();

    await tabTo(page, player(page).getByRole('button', { name: 'Revenir au direct' }), { limit: 4 });
    await page.keyboard.press('Enter');
    await expect(player(page).getByRole('button', { name: 'Ouvrir le chat' })).toBeVisible();
    await expect.poll(async () => (await audio())?.src ?? '').toContain('/api/demo/live.mp3');

    await tabTo(page, player(page).getByRole('button', { name: 'Fermer le lecteur' }), { limit: 6 });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Ouvrir le lecteur' })).toBeFocused();
    await expect.poll(async () => (await audio())?.paused).toBe(true);
  });
});

test.describe('language and motion', () => {
  // Every route's language, description and h1 are checked where it is loaded for its audit (above).
  test('still French after a navigation', async ({ page }) => {
    await gotoPage(page, '/a-propos');
    await page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Label' }).click();
    await expect(page).toHaveTitle('Label');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  });

  test.describe('with reduced motion', () => {
    test.use({ reducedMotion: 'reduce', viewport: DESKTOP });

    test('the carousel does not autoplay and moves without sliding', async ({ page }) => {
      await page.clock.install();
      await gotoLoaded(page, '/');
      const carousel = page.getByRole('region', { name: 'À la une' });
      await expect(carousel.getByRole('button', { name: 'Lecture du défilement' })).toBeVisible();
      await page.clock.runFor(12_000);
      await expect(carousel.getByText(/^Page \d sur 2$/)).toHaveText('Page 1 sur 2');

      // With the clock held, only an instant move can already have reached the second slide.
      const second = carousel.getByRole('group', { name: /^2 sur 2/ });
      await carousel.getByRole('button', { name: 'Diapositive suivante' }).click();
      await expect(carousel.getByText(/^Page \d sur 2$/)).toHaveText('Page 2 sur 2');
      const offset = await second.evaluate(
        (slide) =>
          slide.getBoundingClientRect().left - (slide.parentElement?.parentElement?.getBoundingClientRect().left ?? 0),
      );
      expect(Math.abs(offset)).toBeLessThan(1);
    });

    test('revealed blocks are shown at once, without a fade', async ({ page }) => {
      await gotoLoaded(page, '/');
      for (const name of ['Radio Schedule', 'Derniers podcasts', 'Dernières sorties']) {
        const block = page.getByRole('region', { name, exact: true });
        // Below the fold, never scrolled to: still fully shown, with nothing to animate.
        await expect(block).not.toBeInViewport();
        const style = await block.evaluate((el) => {
          const computed = getComputedStyle(el);
          return { opacity: computed.opacity, transform: computed.transform, transition: computed.transitionDuration };
        });
        expect(style, name).toEqual({ opacity: '1', transform: 'none', transition: '0s' });
      }
      await gotoLoaded(page, '/a-propos');
      const credits = page.getByRole('region', { name: 'Crédits' });
      await expect(credits).not.toBeInViewport();
      await expect(credits.getByRole('heading', { name: 'Crédits' })).toHaveCSS('opacity', '1');
    });

    test('scrolling to the top on navigation is instant', async ({ page }) => {
      // Every scroll the site asks for is recorded with the behaviour it asked for.
      await page.addInitScript(() => {
        const asked: string[] = [];
        (window as unknown as { scrollsAsked: string[] }).scrollsAsked = asked;
        const original = window.scrollTo.bind(window);
        window.scrollTo = ((...args: [ScrollToOptions]) => {
          asked.push(typeof args[0] === 'object' ? (args[0].behavior ?? 'auto') : 'auto');
          original(...args);
        }) as typeof window.scrollTo;
      });
      const scrollsAsked = () => page.evaluate(() => (window as unknown as { scrollsAsked: string[] }).scrollsAsked);
      const scrollDown = async () => {
        await page.evaluate(() => {
          document.documentElement.scrollTop = 2000;
        });
        await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
      };

      await gotoLoaded(page, '/residences');
      await scrollDown();
      // A menu link scrolls to the top in its click handler: read in the same task, a smooth
      // scroll would only have started.
      const afterClick = await page.evaluate(() => {
        document.querySelector<HTMLElement>('header nav a[href="/label"]')?.click();
        return window.scrollY;
      });
      expect(afterClick).toBe(0);

      // A page scrolls to the top on entry (a residence from the grid): asked for without smoothness.
      await gotoLoaded(page, '/residences');
      await scrollDown();
      await page.getByRole('link', { name: /^Axonberg/ }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Axonberg' })).toBeVisible();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      const asked = await scrollsAsked();
      expect(asked.length).toBeGreaterThan(0);
      expect(asked).not.toContain('smooth');
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('auto');
    });
  });
});

test.describe('the iframe player (docs/embed.md)', () => {
  const looks = [
    '',
    '?theme=clair&format=carte',
    '?theme=jaune&episode=axonberg-synapses-11',
    '?residence=axonberg&couleur=1e90ff',
  ] as const;
  for (const query of looks) {
    test(`/embed/lecteur${query}: no violation before and after the press, played by keyboard alone`, async ({
      page,
    }) => {
      await page.setViewportSize(PHONE);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto(`/embed/lecteur${query}`);
      const player = page.locator('collectif-player');
      await expect(player.locator('.player__artist')).not.toHaveText('Le direct');
      await expectNoViolations(page, `/embed/lecteur${query}, before the press`);
      await page.keyboard.press('Tab');
      await expect(player.getByRole('button', { name: 'Lecture' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(player.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
      await expectNoViolations(page, `/embed/lecteur${query}, playing`);
    });
  }

  test('/embed/lecteur?differe=1&theme=clair: the live’s timeline in the frame, no violation, by keyboard', async ({
    page,
    baseURL,
  }) => {
    test.slow();
    // The row shows once the recorder has a segment (docs/embed.md, « The timeline »).
    await expect
      .poll(async () => (await recordedWindow(baseURL ?? ''))?.end ?? 0, { timeout: 45_000 })
      .toBeGreaterThan(0);
    await page.setViewportSize(PHONE);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/embed/lecteur?differe=1&theme=clair');
    const player = page.locator('collectif-player');
    await page.keyboard.press('Tab');
    await expect(player.getByRole('button', { name: 'Lecture' })).toBeFocused();
    await page.keyboard.press('Enter');
    const slider = player.getByRole('slider', { name: 'Position dans le direct' });
    await expect(slider).toBeVisible();
    await expect(slider).toHaveAttribute('aria-valuetext', 'En direct');
    await expectNoViolations(page, '/embed/lecteur?differe=1&theme=clair, its timeline shown');
  });
});
