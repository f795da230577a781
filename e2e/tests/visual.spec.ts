import type { Page } from '@playwright/test';
import { E2E_NOW } from '../clock';
import { expect, test } from '../fixtures';
import { drawAll, leftEdges, openPlayer, openReplay, openStill, player, ROUTES, sidewaysOverflow } from '../screen';

// Screenshot tests (README, "Tests"): what a visitor sees, compared with reviewed baselines in
// e2e/tests/__screenshots__/. Still by construction: no motion (reduced motion, animations off), the
// browser's clock fixed, third parties blocked (fixtures), every image loaded. What the demo server
// derives from today's date or the time of day (episode dates, the live show's names and cover, the
// replay's position, the radio's last tracks) is masked or hidden: its place on the screen is still
// compared.
// After a deliberate change: `npm run e2e -- --update-snapshots`, then look at every changed image.

test.use({ reducedMotion: 'reduce' });

// The screens are many and independent of each other: they go to both workers one by one, so that
// neither worker waits for the other on them at the end of the first phase (docs/testing.md, « The
// run's time »).
test.describe.configure({ mode: 'parallel' });

const FIXED_NOW = new Date(E2E_NOW);

const PROPOSAL_ROUTES = [
  { path: '/proposer-une-emission', name: 'proposer-une-emission' },
  { path: '/label/envoyer-une-demo', name: 'envoyer-une-demo' },
] as const;

const masks = (page: Page) => [
  page.locator('.card__date'),
  page.locator('.episode__facts time'),
  page.locator('.player__titles'),
  page.locator('.player__cover'),
  page.locator('.player__time'),
  page.locator('.player__progress'),
  // The partner's player previewed in /integrer (tested on its own: partner.spec.ts, embed.spec.ts).
  page.locator('.integrer__frame iframe'),
];

async function still(page: Page, path: string): Promise<void> {
  await page.clock.setFixedTime(FIXED_NOW);
  // /integrer's preview frames the partner's player, whose show on air moves on and which tells the
  // frame its height once drawn: an empty page in its place keeps the size's own height.
  await page.route('**/embed/lecteur*', (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Lecteur</title>' }),
  );
  await openStill(page, path);
  // The demo radio's last tracks follow its rotation, which the server's clock moves on: hidden,
  // their place kept (a mask would be painted over the fixed player; the CSP refuses a style sheet).
  await page.evaluate(() => {
    for (const list of document.querySelectorAll<HTMLElement>('.recent-tracks__list')) list.style.visibility = 'hidden';
    // /integrer's code names the site's origin, whose port is the run's (npm test takes a free one):
    // written with the baselines' port, so that the same code is compared, wrapped as it wraps.
    for (const code of document.querySelectorAll<HTMLTextAreaElement>('.code-block__code')) {
      code.value = code.value.replace(/http:\/\/localhost:\d+/g, 'http://localhost:4173');
    }
  });
}

/** In the open player, a replay paused, so that the play button shows the same icon every time. */
async function pausedReplay(page: Page): Promise<void> {
  await openReplay(page);
  await player(page).getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(player(page).getByRole('button', { name: 'Lecture', exact: true })).toBeVisible();
  await expect(player(page).getByText('chargement ...')).toHaveCount(0);
}

for (const width of [390, 1280] as const) {
  test.describe(`${String(width)} px`, () => {
    test.use({ viewport: { width, height: width < 600 ? 844 : 800 } });

    // The proposal forms (docs/proposals.md, « The pages »), not in ROUTES: no other spec walks them.
    for (const { path, name } of [...ROUTES, ...PROPOSAL_ROUTES]) {
      test(`page ${name}`, async ({ page }) => {
        await still(page, path);
        // No page scrolls sideways (reach.spec.ts walks the other widths, the menu open).
        expect(await sidewaysOverflow(page), path).toBe(0);
        if (width === 1280 && ROUTES.some((route) => route.path === path)) {
          // One content width: the navbar, the page and the footer share their left edge
          // (layout.spec.ts walks the widest screen). The proposal forms are narrower, centred.
          const edges = await leftEdges(page);
          expect(edges.content, path).toBeCloseTo(edges.navbar, 0);
          expect(edges.footer, path).toBeCloseTo(edges.navbar, 0);
        }
        await drawAll(page);
        await expect(page).toHaveScreenshot(`${name}-${String(width)}.png`, {
          fullPage: true,
          mask: masks(page),
        });
      });
    }

    test('the player, live then in replay', async ({ page }) => {
      await still(page, '/');
      await openPlayer(page);
      await player(page).getByRole('button', { name: 'Pause', exact: true }).click();
      await timelineShown(page);
      await expect(page).toHaveScreenshot(`lecteur-direct-${String(width)}.png`, { mask: masks(page) });
      await pausedReplay(page);
      await expect(page).toHaveScreenshot(`lecteur-replay-${String(width)}.png`, { mask: masks(page) });
    });

    test('« Me prévenir » open, on a residence’s page and in « Mes résidences »', async ({ page }) => {
      // As this browser keeps it once « Me prévenir » was turned on (docs/follow.md, « Me prévenir »).
      await page.addInitScript(() => {
        localStorage.setItem('collectif:suivi', '["axonberg"]');
        localStorage.setItem('collectif:prevenir', '[{"id":"axonberg","live":true,"replay":false}]');
      });
      await still(page, '/residences/axonberg');
      await expect(page.getByRole('checkbox', { name: 'quand l’émission commence' })).toBeChecked();
      // The page's first screen, where « Suivre » and « Me prévenir » are.
      await page.evaluate(() => {
        window.scrollTo(0, 0);
      });
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      await expect(page).toHaveScreenshot(`prevenir-residence-${String(width)}.png`, { mask: masks(page) });
      await still(page, '/mes-residences');
      const list = page.getByRole('list', { name: 'Vos résidences' });
      await expect(list.getByRole('button', { name: 'Me prévenir : Axonberg' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await expect(list.getByText(/^Dernière émission/)).toBeVisible();
      await drawAll(page);
      await expect(page).toHaveScreenshot(`prevenir-mes-residences-${String(width)}.png`, {
        fullPage: true,
        // The next show's and the latest episode's dates move with the demo's calendar and feed.
        mask: [...masks(page), page.locator('.followed-item__line')],
      });
    });
  });
}

/**
 * The open live player shows the timeline's row once the recorder has written its first segment
 * (docs/player.md, « The timeline »): waited for, so that the picture does not depend on when the
 * test runs after the server started.
 */
async function timelineShown(page: Page): Promise<void> {
  await expect(player(page).getByRole('slider', { name: 'Position dans le direct' })).toBeVisible({ timeout: 30_000 });
}

test.describe('390 px, open panels', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu', async ({ page }) => {
    await still(page, '/');
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    await expect(page).toHaveScreenshot('menu-390.png');
  });

  test('the chat panel', async ({ page }) => {
    await still(page, '/');
    await openPlayer(page);
    await player(page).getByRole('button', { name: 'Pause', exact: true }).click();
    await timelineShown(page);
    await player(page).getByRole('button', { name: 'Ouvrir le chat' }).click();
    await expect(page.getByRole('region', { name: 'Chat de la radio' })).toContainText('ne peut pas', {
      timeout: 15_000,
    });
    await expect(page).toHaveScreenshot('chat-390.png', { mask: masks(page) });
  });
});

test.describe('320 px', () => {
  test.use({ viewport: { width: 320, height: 568 } });

  test('page accueil', async ({ page }) => {
    await still(page, '/');
    await drawAll(page);
    await expect(page).toHaveScreenshot('accueil-320.png', { fullPage: true, mask: masks(page) });
  });
});
