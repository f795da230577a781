import type { Locator, Page } from '@playwright/test';
import { expect, gotoPage, test } from '../fixtures';
import { displayFaceIn, leftEdges, openPlayer, openReplay, openStill, player, ROUTES } from '../screen';

// Each test here is one defect that was seen on screen while every DOM test passed
// (docs/interface.md, "Checked on screen").

const box = async (locator: Locator) => {
  const found = await locator.boundingBox();
  if (found === null) throw new Error(`${locator.toString()} n'est pas affiché`);
  return found;
};

const main = (page: Page) => page.locator('#contenu');

test.describe('the mobile menu', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('covers the screen under the navbar, on a page scrolled down too', async ({ page }) => {
    await gotoPage(page, '/label');
    await page.mouse.wheel(0, 600);
    await page.mouse.wheel(0, -100);
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    const menu = await box(page.getByRole('dialog', { name: 'Menu' }));
    const bar = await box(page.locator('header.navbar'));
    expect(menu.y).toBeCloseTo(bar.y + bar.height, 0);
    expect(menu.y + menu.height).toBeCloseTo(844, 0);
  });
});

test.describe('the carousel on a phone', () => {
  for (const width of [320, 390]) {
    test(`${String(width)} px: its controls stay on one row, and « Pause » / « Lecture » moves nothing`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await gotoPage(page, '/');
      const controls = main(page).locator('.carousel__controls button');
      await expect(controls).toHaveCount(5);
      const centres = await controls.evaluateAll((buttons) =>
        buttons.map((b) => {
          const r = b.getBoundingClientRect();
          return Math.round(r.top + r.height / 2);
        }),
      );
      expect(new Set(centres).size, `centres: ${centres.join(', ')}`).toBe(1);

      const toggle = main(page).getByRole('button', { name: /(Pause|Lecture) du défilement/ });
      const live = main(page).getByRole('region', { name: 'Pas de direct au studio actuellement' });
      const before = { toggle: await box(toggle), live: await box(live) };
      const label = await toggle.innerText();
      await toggle.click();
      await expect(toggle).not.toHaveText(label);
      const after = { toggle: await box(toggle), live: await box(live) };
      expect(after.toggle.width).toBe(before.toggle.width);
      expect(after.live.y).toBe(before.live.y);
    });
  }
});

test.describe('home on a desktop (1280×800)', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the live block starts above the fold, under the carousel', async ({ page }) => {
    await gotoPage(page, '/');
    const heading = main(page).getByRole('heading', { name: 'Pas de direct au studio actuellement' });
    const top = (await box(heading)).y;
    expect(top).toBeLessThan(800 - 40);
  });
});

test.describe('the replay player on a phone', () => {
  for (const width of [320, 390]) {
    test(`${String(width)} px: artist and show on one row, the slider full width on its own row, times at its ends`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 700 });
      await gotoPage(page, '/');
      await openPlayer(page);
      await openReplay(page);
      const bar = player(page);
      // The layout the player settles into once it has taken its replay (its names and times arrive
      // with the replay: a reading taken while they change saw the names on two rows for a frame, CI
      // caught it): every box read at once, again until all of them hold.
      await expect(async () => {
        const slider = await box(bar.getByRole('slider'));
        const artist = await box(bar.locator('.player__artist'));
        const show = await box(bar.locator('.player__show'));
        const elapsed = await box(bar.locator('.player__time').first());
        const remaining = await box(bar.locator('.player__time--remaining'));
        // One line of names, above the slider's row.
        expect(Math.abs(artist.y - show.y)).toBeLessThan(4);
        expect(slider.y).toBeGreaterThan(artist.y + artist.height - 2);
        // The slider takes the row between the two times.
        expect(slider.width).toBeGreaterThan(width * 0.6);
        expect(elapsed.x + elapsed.width).toBeLessThanOrEqual(slider.x);
        expect(remaining.x).toBeGreaterThanOrEqual(slider.x + slider.width);
        expect(Math.abs(elapsed.y + elapsed.height / 2 - (slider.y + slider.height / 2))).toBeLessThan(6);
        // The names get the first row between the play button and « Direct »: at 390 px the artist
        // is whole (it was cut to « Orage Mé… »), at 320 px about fifteen letters (it was « O… »).
        const names = await box(bar.locator('.player__titles'));
        expect(names.width).toBeGreaterThan(110);
        if (width >= 390) expect(artist.x + artist.width).toBeLessThanOrEqual(names.x + names.width);
      }).toPass({ timeout: 10_000 });
    });
  }
});

test.describe('the footer', () => {
  for (const width of [768, 1280]) {
    test(`${String(width)} px: the legal numbers are never split, and the legal text has room`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await gotoPage(page, '/label');
      const legal = page.locator('.footer__legal');
      await legal.scrollIntoViewIfNeeded();
      const numbers = legal.locator('.nowrap');
      await expect(numbers).toHaveCount(3);
      for (const lines of await numbers.evaluateAll((spans) => spans.map((s) => s.getClientRects().length))) {
        expect(lines).toBe(1);
      }
      // On one line: the text was squeezed into a column three lines tall.
      const lines = await legal.evaluate(
        (p) => p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight),
      );
      expect(lines).toBeLessThan(1.5);
    });
  }
});

test.describe('About on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the SoundCloud button keeps its distance from the image below it', async ({ page }) => {
    await gotoPage(page, '/a-propos');
    const webradio = main(page).getByRole('region', { name: 'Webradio', exact: true });
    const button = await box(webradio.getByRole('link', { name: /Réécouter les émissions sur SoundCloud/ }));
    const image = await box(webradio.getByRole('img'));
    expect(image.y - (button.y + button.height)).toBeGreaterThanOrEqual(16);
  });
});

test.describe('the chat panel', () => {
  test('at 200 % zoom it stays under the navbar, its fallback as tall as its text, with a title and a close button', async ({
    page,
  }) => {
    // A 1280×800 window at 200 % zoom lays out 640×400 CSS pixels.
    await page.setViewportSize({ width: 640, height: 400 });
    await gotoPage(page, '/');
    await openPlayer(page);
    await player(page).getByRole('button', { name: 'Ouvrir le chat' }).click();
    const chat = page.getByRole('region', { name: 'Chat de la radio' });
    await expect(chat.getByRole('heading', { name: 'Chat de la radio' })).toBeVisible();
    // Third parties are blocked here: the fallback shows.
    await expect(chat).toContainText('Le chat ne peut pas s’afficher ici pour le moment.', { timeout: 15_000 });
    const panel = await box(chat);
    const bar = await box(page.locator('header.navbar'));
    expect(panel.y).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
    expect(panel.height).toBeLessThan(250);

    await chat.getByRole('button', { name: 'Fermer le panneau du chat' }).click();
    await expect(chat).toHaveCount(0);
    await expect(player(page).getByRole('button', { name: 'Ouvrir le chat' })).toBeFocused();
  });

  test('with the widget, it is as tall as the spec says, still under the navbar', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.route(/^https:\/\/minnit\.chat\//, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<p>chat</p>' }),
    );
    await gotoPage(page, '/');
    await openPlayer(page);
    await player(page).getByRole('button', { name: 'Ouvrir le chat' }).click();
    const chat = page.getByRole('region', { name: 'Chat de la radio' });
    await expect(chat.locator('iframe')).toBeVisible();
    const panel = await box(chat);
    const bar = await box(page.locator('header.navbar'));
    expect(panel.y).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
    expect(panel.height).toBeGreaterThan(844 * 0.6);
  });
});

test.describe('one content width', () => {
  // At 1280 px, every route's screenshot test checks it (visual.spec.ts): here, the widest screen.
  test('1920 px: the navbar, every page and the footer share their left edge', async ({ page }) => {
    // A walk over every route: three times the time of one page's test, for a loaded machine.
    test.slow();
    await page.setViewportSize({ width: 1920, height: 900 });
    for (const { path } of ROUTES) {
      await gotoPage(page, path);
      const edges = await leftEdges(page);
      expect(edges.content, path).toBeCloseTo(edges.navbar, 0);
      expect(edges.footer, path).toBeCloseTo(edges.navbar, 0);
    }
  });

  test('every card of a grid has the same height, on home, residences and label', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const path of ['/', '/residences', '/label']) {
      await openStill(page, path);
      // Cards far from the view are not laid out (`content-visibility: auto`, docs/first-screen.md):
      // their contents measure 0 until the visitor scrolls to them. Measured as the visitor sees them.
      await page.evaluate(() => {
        for (const element of document.querySelectorAll<HTMLElement>('main *')) {
          if (getComputedStyle(element).contentVisibility === 'auto') element.style.contentVisibility = 'visible';
        }
      });
      for (const grid of await main(page).locator('ul.grid').all()) {
        const heights = await grid
          .locator('.card')
          .evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().height)));
        expect(heights.length, path).toBeGreaterThan(0);
        expect(new Set(heights).size, `${path} : ${heights.join(', ')}`).toBe(1);
      }
    }
  });
});

test.describe('typography', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('headings use the display face the site ships, asked for once', async ({ page }) => {
    await gotoPage(page, '/label');
    await displayFaceIn(page);
    const fonts = await page.evaluate(async () => {
      await document.fonts.ready;
      return {
        loaded: document.fonts.check('700 1rem "Archivo Black"'),
        heading: getComputedStyle(document.querySelector('h1')!).fontFamily,
        preload: document.querySelectorAll('link[rel="preload"][as="font"]').length,
        bytes: performance
          .getEntriesByType('resource')
          .filter((e) => e.name.endsWith('.woff2'))
          .map((e) => (e as PerformanceResourceTiming).decodedBodySize),
      };
    });
    expect(fonts.heading).toMatch(/^"Archivo Black"/);
    expect(fonts.loaded).toBe(true);
    // Not preloaded: asked for after the first screen (the next test).
    expect(fonts.preload).toBe(0);
    // Without its hinting (docs/interface.md, « Typography »): 9.4 KB, where Fontsource's file is 18.6.
    expect(fonts.bytes).toHaveLength(1);
    expect(fonts.bytes[0]).toBeLessThan(10_000);
  });

  test('the display face comes after the page’s image on a first visit, and at once on the next', async ({ page }) => {
    // Whether the face is among the page's fonts when the document is parsed, before anything the
    // paint could start; and whether its file had come when it joined them (then the page is laid out
    // again once, for the face, rather than once for its name and once for its file).
    await page.addInitScript(() => {
      const add = Object.getOwnPropertyDescriptor(FontFaceSet.prototype, 'add')?.value as (
        this: FontFaceSet,
        face: FontFace,
      ) => FontFaceSet;
      FontFaceSet.prototype.add = function (this: FontFaceSet, face: FontFace) {
        ((window as { joined?: string[] }).joined ??= []).push(face.status);
        return add.call(this, face);
      };
      document.addEventListener('DOMContentLoaded', () => {
        (window as { faceAtParse?: boolean }).faceAtParse = [...document.fonts].some(
          (face) => face.family.replace(/"/g, '') === 'Archivo Black',
        );
      });
    });
    const timings = () =>
      page.evaluate(async () => {
        await document.fonts.ready;
        const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const image = entries.find((e) => new URL(e.name).pathname.startsWith('/assets/images/a-propos/'));
        const face = entries.find((e) => e.name.endsWith('.woff2'));
        return {
          atParse: (window as { faceAtParse?: boolean }).faceAtParse,
          imageEnd: image?.responseEnd ?? null,
          faceStart: face?.startTime ?? null,
          seen: localStorage.getItem('collectif:police'),
          joined: (window as { joined?: string[] }).joined,
        };
      });
    await gotoPage(page, '/a-propos');
    await displayFaceIn(page);
    const first = await timings();
    expect(first.atParse).toBe(false);
    expect(first.imageEnd).not.toBeNull();
    expect(first.faceStart).not.toBeNull();
    // Asked for once the page's image had come, not beside it.
    expect(first.faceStart!).toBeGreaterThanOrEqual(first.imageEnd!);
    expect(first.joined).toEqual(['loaded']);
    expect(first.seen).toBe('1');
    // The same browser again: the face is in its cache, and named before the first paint.
    await gotoPage(page, '/a-propos');
    await displayFaceIn(page);
    const next = await timings();
    expect(next.atParse).toBe(true);
    expect(next.joined).toEqual(['unloaded']);
  });
});

// The cards of a long list and the footer are laid out and painted only as they near the view
// (docs/first-screen.md, « Work after the paint »): a long page's first layout after its paint was one
// long task on a phone. Drawn, each looks and sits as it would without it, and lets a focused
// control's ring be drawn whole past its edge.
test.describe('boxes laid out near the view', () => {
  const KEPT = '.residence-card, .podcast-card, .release-card, footer.footer';

  for (const { path, far } of [
    { path: '/residences', far: '.residence-card' },
    { path: '/emissions', far: '.podcast-card' },
    { path: '/label', far: '.release-card' },
  ]) {
    for (const width of [390, 1280]) {
      test(`${path} at ${String(width)} px: the far ones wait, then are drawn where they would be`, async ({
        page,
      }) => {
        await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
        await gotoPage(page, path);
        // What a box keeps for later is its content: is the first thing inside it drawn?
        const drawn = (locator: Locator) =>
          locator.evaluate((element) => element.firstElementChild!.checkVisibility({ contentVisibilityAuto: true }));
        const footer = page.locator('footer.footer');
        const last = page.locator(far).last();
        expect(await drawn(footer)).toBe(false);
        expect(await drawn(last)).toBe(false);
        // Scrolled to, as a visitor does: drawn and readable.
        await last.scrollIntoViewIfNeeded();
        await expect.poll(() => drawn(last)).toBe(true);
        await footer.scrollIntoViewIfNeeded();
        await expect.poll(() => drawn(footer)).toBe(true);
        await expect(footer.getByText('Association loi 1901')).toBeVisible();
        // Each box where it would be without the wait: its place and size, every one drawn at once
        // with the containment a drawn box keeps (layout, style, paint), then with none (as the
        // screenshot tests draw them, drawAll).
        const laidOut = (contain: string) =>
          page.evaluate(
            ({ selector, contain }) => {
              const kept = [...document.querySelectorAll<HTMLElement>(selector)];
              for (const element of kept) {
                element.style.setProperty('content-visibility', 'visible');
                element.style.setProperty('contain', contain);
              }
              const boxes = kept.map((element) => {
                const { top, height } = element.getBoundingClientRect();
                return `${String(Math.round(top + window.scrollY))}+${String(Math.round(height))}`;
              });
              for (const element of kept) {
                element.style.removeProperty('content-visibility');
                element.style.removeProperty('contain');
              }
              return { boxes, page: document.documentElement.scrollHeight };
            },
            { selector: KEPT, contain },
          );
        expect(await laidOut('none')).toEqual(await laidOut('layout style paint'));
        // A focused control's ring, drawn past its box, within what the box lets be painted.
        const control = footer.getByRole('link').first();
        await control.focus();
        const { ring, reach } = await control.evaluate((element) => {
          const own = getComputedStyle(element);
          return {
            ring: parseFloat(own.outlineWidth) + parseFloat(own.outlineOffset),
            reach: parseFloat(getComputedStyle(element.closest('footer')!).overflowClipMargin),
          };
        });
        expect(ring).toBeGreaterThan(0);
        expect(reach).toBeGreaterThanOrEqual(ring);
      });
    }
  }
});
