import { expect, gotoPage, test } from '../fixtures';
import { openPlayer, openReplay, ROUTES, sidewaysOverflow, unreachableControls, VIEWPORTS } from '../screen';

// What a visitor can reach (docs/interface.md, "Checked on screen"): in the open menu, the open
// player and the footer, every link and button is on the screen and is what a tap there hits; no page
// scrolls sideways. DOM queries alone passed while the phone menu showed one link of eight.
for (const viewport of VIEWPORTS) {
  test.describe(`${String(viewport.width)}×${String(viewport.height)}`, () => {
    test.use({ viewport });
    const mobile = viewport.width < 1200;

    // At 390 and 1280 px, where every route is also photographed, the screenshot tests check it
    // with the menu closed (visual.spec.ts); the walk is for the widths between, the menu open.
    if (viewport.width === 320 || viewport.width === 768) {
      test('no route scrolls sideways, menu open or not', async ({ page }) => {
        // A walk over every route: three times the time of one page's test, for a loaded machine.
        test.slow();
        for (const { path } of ROUTES) {
          await gotoPage(page, path);
          expect(await sidewaysOverflow(page), path).toBe(0);
          if (mobile) {
            await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
            expect(await sidewaysOverflow(page), `${path}, menu ouvert`).toBe(0);
            await page.getByRole('button', { name: 'Fermer le menu' }).click();
          }
        }
      });
    }

    if (mobile) {
      test('the open menu shows every link and button, all at once', async ({ page }) => {
        for (const { path } of [ROUTES[0], ROUTES[2]]) {
          await gotoPage(page, path);
          await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
          const menu = page.getByRole('dialog', { name: 'Menu' });
          // Seven pages, four outside links, « Nous soutenir ».
          await expect(menu.getByRole('link')).toHaveCount(12);
          expect(await unreachableControls(page, '#menu-mobile'), path).toEqual([]);
          expect(await unreachableControls(page, 'header.navbar'), path).toEqual([]);
        }
      });
    }

    test('the open player, live and in replay, has every control on screen and uncovered', async ({ page }) => {
      await gotoPage(page, '/');
      await openPlayer(page);
      expect(await unreachableControls(page, 'section.player')).toEqual([]);
      await openReplay(page);
      expect(await unreachableControls(page, 'section.player')).toEqual([]);
    });

    test('every control of the footer can be scrolled to and pressed', async ({ page }) => {
      await gotoPage(page, '/label');
      const footer = page.locator('footer.footer');
      const controls = footer.locator('a[href], button');
      await expect(controls).toHaveCount(7);
      for (let i = 0; i < 7; i += 1) {
        const control = controls.nth(i);
        await control.evaluate((element) => {
          element.scrollIntoView({ block: 'center' });
        });
        const hit = await control.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const at = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return at !== null && (at === element || element.contains(at));
        });
        expect(hit, await control.innerText()).toBe(true);
      }
    });
  });
}

// The desktop bar at its narrowest (docs/interface.md, « The desktop bar »): from 1200 px it holds
// every page's link and the outside links on one row. A page added to the menu must still fit.
test('at 1200 px, every link of the desktop bar is on its one row and on the screen', async ({ page }) => {
  await page.setViewportSize({ width: 1200, height: 800 });
  await gotoPage(page, '/');
  const bar = page.locator('header.navbar .navbar__bar');
  await expect(bar.locator('.navbar__desktop')).toBeVisible();
  expect(await sidewaysOverflow(page)).toBe(0);
  expect(await unreachableControls(page, 'header.navbar')).toEqual([]);
  const barBox = await bar.boundingBox();
  const links = await bar.locator('.navbar__desktop a').evaluateAll((anchors) =>
    anchors.map((anchor) => {
      const box = anchor.getBoundingClientRect();
      return { name: anchor.textContent, top: box.top, bottom: box.bottom };
    }),
  );
  expect(links.length).toBeGreaterThan(0);
  for (const link of links) {
    expect(link.top, link.name).toBeGreaterThanOrEqual(barBox?.y ?? Infinity);
    expect(link.bottom, link.name).toBeLessThanOrEqual((barBox?.y ?? 0) + (barBox?.height ?? 0));
  }
});
