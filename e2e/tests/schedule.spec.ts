import type { Page } from '@playwright/test';
import { E2E_NOW } from '../clock';
import { consoleTrouble, expect, gotoPage, HYDRATION_TROUBLE, test } from '../fixtures';
import { openPlayer, player } from '../screen';

// « On air » (docs/schedule.md): the demo's calendar as a visitor sees it. The tests' server lives on
// Sunday 22 November 2026 at 11:00 in Paris (server-clock.mjs); the browser's clock is set to it.

test.beforeEach(async ({ page }) => {
  await page.clock.setFixedTime(new Date(E2E_NOW));
});

const today = (page: Page) => page.locator('.programme__day[aria-current="date"]');

test('/programme: the week day by day in Paris time, today marked, each show leading to its residence and its next show', async ({
  page,
}) => {
  const trouble = consoleTrouble(page);
  await gotoPage(page, '/programme');
  await expect(page.getByText('Semaine du lundi 16 au dimanche 22 novembre · heures de Paris')).toBeVisible();
  await expect(page.locator('.programme__day')).toHaveCount(7);
  await expect(today(page).getByRole('heading', { level: 2 })).toHaveText('dimanche 22 novembre · aujourd’hui');
  // Every evening has its two weekly shows, at 20:00 and 22:00 in Paris.
  const evening = today(page).locator('.show').filter({ hasText: '20:00 – 22:00' });
  await expect(evening).toHaveCount(1);
  const title = (await evening.locator('.show__title').textContent()) ?? '';
  expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);

  await evening.locator('.show__title').click();
  await expect(page).toHaveURL(/\/residences\/[a-z0-9-]+$/);
  await expect(page.getByRole('region', { name: 'Prochaine émission' })).toContainText(
    'Prochaine émission : dimanche 22 novembre à 20:00',
  );
  await page.goBack();

  await page.getByRole('link', { name: 'Semaine suivante' }).click();
  await expect(page).toHaveURL(/\/programme\?semaine=2026-11-23$/);
  await expect(page.getByText('Semaine du lundi 23 au dimanche 29 novembre · heures de Paris')).toBeVisible();
  await expect(page.locator('.programme__day').last().getByText(title)).toBeVisible();
});

test('« Ajouter à mon agenda » gives one event at its Paris time; the schedule is a calendar to subscribe to', async ({
  page,
}) => {
  await gotoPage(page, '/programme');
  const evening = today(page).locator('.show').filter({ hasText: '20:00 – 22:00' });
  const download = page.waitForEvent('download');
  await evening.getByRole('link', { name: /^Ajouter « .* » à mon agenda$/ }).click();
  const file = await (await download).path();
  const text = (await import('node:fs')).readFileSync(file, 'utf8');
  expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
  expect(text).toContain('DTSTART;TZID=Europe/Paris:20261122T200000');
  expect(text).toContain('BEGIN:VTIMEZONE');

  const subscribe = page.getByRole('link', { name: 'S’abonner au programme' });
  const whole = await page.request.get((await subscribe.getAttribute('href')) ?? '');
  expect(whole.headers()['content-type']).toMatch(/^text\/calendar/);
  expect(await whole.text()).toContain('X-WR-TIMEZONE:Europe/Paris');
});

test.describe('a visitor in New York', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('sees Paris times with their own beside them, and no hydration warning', async ({ page }) => {
    const trouble = consoleTrouble(page);
    await gotoPage(page, '/programme');
    await expect(page.getByText('Entre parenthèses : chez vous (America/New York)')).toBeVisible();
    await expect(today(page).locator('.show').filter({ hasText: '20:00 – 22:00 (14:00–16:00 chez vous)' })).toHaveCount(
      1,
    );
    expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
  });
});

for (const width of [390, 1280]) {
  test(`home at ${String(width)} px: the schedule block, below the first screen, asks for its shows once the visitor scrolls, not as the page starts`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/schedule') asked.push(request.url());
    });
    await gotoPage(page, '/');
    const block = page.getByRole('region', { name: 'Radio Schedule' });
    await expect(block).toContainText('Chargement du programme');
    // The page hydrated (its store's first requests made), and then idle.
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          requestIdleCallback(resolve, { timeout: 2000 });
        }),
    );
    expect(asked).toEqual([]);

    await page.mouse.wheel(0, 200);
    await expect.poll(() => asked.length).toBe(1);
    await block.scrollIntoViewIfNeeded();
    await expect(block.getByRole('heading', { name: 'En ce moment' })).toBeVisible();
    expect(asked).toHaveLength(1);
  });
}

test('home: « En ce moment » and « À suivre » in the schedule block; the live player says what comes next', async ({
  page,
}) => {
  const trouble = consoleTrouble(page);
  await gotoPage(page, '/');
  const block = page.getByRole('region', { name: 'Radio Schedule' });
  await block.scrollIntoViewIfNeeded();
  await expect(block.getByRole('heading', { name: 'En ce moment' })).toBeVisible();
  const next = block.locator('.onair__list > li');
  await expect(next).toHaveCount(5);
  await expect(next.first()).toHaveText(/^Aujourd’hui \d\d:\d\d /);
  expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);

  await openPlayer(page);
  await expect(player(page).locator('.player__next')).toHaveText(/À suivre · \d\d:\d\d · \S/);
});
