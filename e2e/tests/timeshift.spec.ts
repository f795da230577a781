import type { Page } from '@playwright/test';
import { audioState, expectTimeAdvancing } from '../audio';
import { axeViolations } from '../axe';
import { expect, gotoPage, test } from '../fixtures';
import { openPlayer, player } from '../screen';
import { gapsWithin, recordedWindow, startTimeshiftSite, type TimeshiftSite } from '../timeshift-site';

// The live's timeline (docs/player.md, « The timeline »; docs/timeshift.md): a server of its own
// whose clock starts twenty seconds before a show of the demo's programme (Ondes Garonne, 20:00 in
// Paris on Sunday 22 November 2026), recording the demo's two mounts in segments of 2 s. Once the
// show has begun and a few segments exist, « Reprendre au début » must play it from 20:00:00.

const SHOW_START = Date.parse('2026-11-22T19:00:00.000Z');
const SHOW = "Ondes Garonne · Au Fil de l'Eau";

let site: TimeshiftSite;

test.describe.configure({ mode: 'serial' });

/** How far into the show the window reaches before the tests: hls.js's edge is three segments (6 s) behind. */
const RECORDED_INTO_SHOW_MS = 24_000;

/**
 * How long before the show the server's clock starts: the recorder's first segment comes once the
 * server has started, 8 s after its spawn on a quiet machine of two cores and 14 s on a loaded one;
 * the show's start must be in the window, a segment after its first (mf-player's positionIn).
 */
const LEADS_MS = [20_000, 60_000];

test.beforeAll(async () => {
  // The server's clock runs from its spawn: the recorder needs the lead and the 24 s below, whatever
  // its start took, so the hook has a limit of its own (a test's 30 s left 2 s for the start, and a
  // loaded run timed out there).
  test.setTimeout(240_000);
  let start = Number.POSITIVE_INFINITY;
  for (const leadMs of LEADS_MS) {
    site = await startTimeshiftSite(new Date(SHOW_START - leadMs).toISOString());
    await expect
      .poll(async () => (start = (await recordedWindow(site.origin))?.start ?? Number.POSITIVE_INFINITY), {
        timeout: 60_000,
      })
      .toBeLessThan(Number.POSITIVE_INFINITY);
    if (start <= SHOW_START - 4_000 || leadMs === LEADS_MS.at(-1)) break;
    // A start slower than the lead: once more, with a longer one.
    await site.stop();
  }
  expect(start, 'the window holds the show’s start').toBeLessThanOrEqual(SHOW_START - 4_000);
  // The show began, and the window holds its first 24 seconds: hls.js's edge (three segments behind
  // the end) is then at least 18 s into the show, well apart from its start.
  await expect
    .poll(async () => (await recordedWindow(site.origin))?.end ?? 0, { timeout: 120_000 })
    .toBeGreaterThanOrEqual(SHOW_START + RECORDED_INTO_SHOW_MS);
});

test.afterAll(async () => {
  await site.stop();
});

/** The page lives at the server's time (e2e/server-clock.mjs does the same in the server). */
async function atServerTime(page: Page): Promise<void> {
  await page.addInitScript((offset: number) => {
    const RealDate = Date;
    class ShiftedDate extends RealDate {
      constructor(...args: unknown[]) {
        if (args.length === 0) super(RealDate.now() + offset);
        else super(...(args as [string]));
      }

      static override now(): number {
        return RealDate.now() + offset;
      }
    }
    globalThis.Date = ShiftedDate as DateConstructor;
  }, site.offsetMs);
}

const slider = (page: Page) => player(page).getByRole('slider', { name: 'Position dans le direct' });

/** The instant heard, from the slider: the window's start plus its value in seconds (Timeline.tsx). */
async function instantHeard(page: Page): Promise<number> {
  const window = await recordedWindow(site.origin);
  const value = Number(await slider(page).inputValue());
  return (window?.start ?? Number.NaN) + value * 1000;
}

for (const viewport of [
  { name: 'phone (390×844)', width: 390, height: 844 },
  { name: 'desktop (1280×800)', width: 1280, height: 800 },
]) {
  test(`${viewport.name}: « Reprendre au début » plays the show from its start, « Direct » returns to the edge`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await atServerTime(page);
    await gotoPage(page, `${site.origin}/`);
    await openPlayer(page);
    await expectTimeAdvancing(page, 0.5);
    expect((await audioState(page))?.src).toContain('/api/demo/live.mp3?direct=');
    await expect(slider(page)).toHaveAttribute('aria-valuetext', 'En direct');
    await expect(player(page).getByRole('button', { name: /^À l’antenne : Ondes Garonne/ })).toBeVisible();

    const clicked = Date.now();
    await player(page).getByRole('button', { name: 'Reprendre au début' }).click();
    // hls.js plays the timeline (a MediaSource's blob: address), from the show's start.
    await expect.poll(async () => (await audioState(page))?.src ?? '', { timeout: 15_000 }).toMatch(/^blob:/);
    await expectTimeAdvancing(page, 0.5);
    await expect.poll(() => instantHeard(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(SHOW_START - 1_000);
    // From the show's start, not from the edge: the time the show has played for, from its start to
    // the instant heard less the slots the recorder left empty (a loaded one leaves some, and hls.js
    // steps over them), is never more than the time since the click (a loaded machine's polls took
    // over 5 s), with a segment's slack for the first one and a second for the slider's rounding.
    // The edge was 18 s or more into the show at the click, and moves as the time does.
    const heard = await instantHeard(page);
    const played = heard - SHOW_START - (await gapsWithin(site.origin, SHOW_START, heard));
    expect(played).toBeLessThan(Date.now() - clicked + 3_000);
    await expect(slider(page)).toHaveAttribute('aria-valuetext', /secondes? avant le direct$/);
    await expect(player(page).getByText(/Retard sur le direct : -\d+:\d\d/)).toBeVisible();
    // The lines name the show of the moment heard.
    await expect(player(page).getByRole('button', { name: new RegExp(`^À l’antenne : ${SHOW}`) })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`timeline-${String(viewport.width)}.png`) });

    await player(page).getByRole('button', { name: 'Revenir au direct' }).click();
    await expect.poll(async () => (await audioState(page))?.src ?? '').toContain('/api/demo/live.mp3?direct=');
    await expectTimeAdvancing(page, 0.5);
    await expect(slider(page)).toHaveAttribute('aria-valuetext', 'En direct');
  });
}

test('the timeline is operable with the keyboard and says where the listener is', async ({ page }) => {
  await atServerTime(page);
  await gotoPage(page, `${site.origin}/`);
  await openPlayer(page);
  await expectTimeAdvancing(page, 0.5);
  await slider(page).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(slider(page)).toHaveAttribute('aria-valuetext', /^\d+ secondes avant le direct$/);
  await expect.poll(async () => (await audioState(page))?.src ?? '', { timeout: 15_000 }).toMatch(/^blob:/);
  await expectTimeAdvancing(page, 0.5);
  const behind = Number(await slider(page).inputValue());
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => Number(await slider(page).inputValue())).toBeLessThanOrEqual(behind - 8);
  await expect(slider(page)).toBeFocused();
  await page.keyboard.press('End');
  await expect.poll(async () => (await audioState(page))?.src ?? '').toContain('/api/demo/live.mp3?direct=');
  await expect(slider(page)).toHaveAttribute('aria-valuetext', 'En direct');
  expect(await axeViolations(page)).toEqual([]);
});

test('with Save-Data, the player picks the light rendition, at the edge and in the timeline', async ({ page }) => {
  await atServerTime(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setDataSaverOverride', { dataSaverEnabled: true });
  expect(await page.evaluate(() => (navigator as { connection?: { saveData?: boolean } }).connection?.saveData)).toBe(
    true,
  );
  const segments: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/direct/')) segments.push(new URL(request.url()).pathname);
  });
  await gotoPage(page, `${site.origin}/`);
  await openPlayer(page);
  await expectTimeAdvancing(page, 0.5);
  expect((await audioState(page))?.src).toContain('/api/demo/live-econome.mp3?direct=');

  await player(page).getByRole('button', { name: 'Reprendre au début' }).click();
  await expectTimeAdvancing(page, 0.5);
  expect(segments.some((path) => /^\/direct\/econome\/\d+\.mp3$/.test(path))).toBe(true);
  expect(segments.some((path) => /^\/direct\/normale\/\d+\.mp3$/.test(path))).toBe(false);
});
