import type { Page } from '@playwright/test';
import { expect, gotoPage, test } from '../fixtures';
import { displayFaceIn } from '../screen';

/**
 * The open player's styles wait for the player (docs/first-screen.md, « The first screen's budget »): a
 * closed player is a pill on every page's first screen, and the bar's styles were a kilobyte of every
 * document. They come with the bar's code when the visitor points at the pill or opens the player,
 * and the bar is never drawn without them: the pill stays until both are here.
 */

test.use({ viewport: { width: 390, height: 844 } });

/** The sheets the page has received as files, each with whether it is the open bar's (its blinking dot). */
function sheetsOf(page: Page): { url: string; bar: boolean }[] {
  const sheets: { url: string; bar: boolean }[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'stylesheet') return;
    // Read as it comes; a body still unread when the test ends (Playwright then refuses it) is none.
    response.text().then(
      (css) => sheets.push({ url: response.url(), bar: css.includes('@keyframes player-blink') }),
      () => undefined,
    );
  });
  return sheets;
}

test('the page carries the pill’s styles alone; the bar comes with its own, drawn styled from its first frame', async ({
  page,
}) => {
  const sheets = sheetsOf(page);
  await gotoPage(page, '/a-propos');
  // Written into the page: the pill's rules, none of the bar's.
  const written = await page.evaluate(() => [...document.querySelectorAll('style')].map((style) => style.textContent));
  expect(written.some((css) => css.includes('.player__pill'))).toBe(true);
  expect(written.some((css) => css.includes('@keyframes player-blink'))).toBe(false);
  expect(sheets.filter((sheet) => sheet.bar)).toEqual([]);
  // The display face joins after the paint (docs/interface.md, « Typography »): in before the
  // shifts below are counted, which are the bar's.
  await displayFaceIn(page);

  // Each time a bar enters the page, how it is drawn at once; and every shift of the page's layout
  // from now on, outside the player's own box. The player's box still changes height after the tap
  // as the sound starts (« chargement ... », a line of 19 px; the timeline's row is held from the
  // first frame, TimelineRoom.tsx): on a loaded machine past the 500 ms a tap covers, which is not
  // the page moving, nor the bar drawn unstyled (its first frame is looked at below).
  await page.evaluate(() => {
    const seen: { display: string; minHeight: string; background: string }[] = [];
    const shifts: { value: number; input: boolean }[] = [];
    const slot = document.querySelector('.player-slot');
    Object.assign(window, { barsSeen: seen, shiftsSeen: shifts });
    new MutationObserver(() => {
      const bar = document.querySelector<HTMLElement>('.player__bar');
      if (bar === null || seen.length > 0) return;
      const style = getComputedStyle(bar);
      seen.push({ display: style.display, minHeight: style.minHeight, background: style.backgroundColor });
    }).observe(document.body, { childList: true, subtree: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources: { node: Node | null }[];
      })[]) {
        const page = entry.sources.some((source) => source.node === null || slot?.contains(source.node) !== true);
        if (page) shifts.push({ value: entry.value, input: entry.hadRecentInput });
      }
    }).observe({ type: 'layout-shift' });
  });

  const pill = page.getByRole('button', { name: 'Stream : ouvrir le lecteur' });
  await pill.hover();
  // Pointed at: the bar's code and styles are on their way, the page is as it was.
  await expect.poll(() => sheets.filter((sheet) => sheet.bar).length).toBe(1);
  await expect(pill).toBeVisible();
  await pill.click();
  const bar = page.locator('.player__bar');
  await expect(bar).toBeVisible();
  const [first] = await page.evaluate(
    () => (window as unknown as { barsSeen: { display: string; minHeight: string; background: string }[] }).barsSeen,
  );
  // Styled in the frame it came in: its grid, its height and its surface, never unstyled controls.
  expect(first).toEqual({
    display: 'grid',
    minHeight: '72px',
    background: await bar.evaluate((element) => getComputedStyle(element).backgroundColor),
  });
  expect(first?.background).not.toBe('rgba(0, 0, 0, 0)');
  // Nothing of the page moved but what the visitor's own tap did.
  const shifts = await page.evaluate(
    () => (window as unknown as { shiftsSeen: { value: number; input: boolean }[] }).shiftsSeen,
  );
  expect(shifts.filter((shift) => !shift.input).reduce((sum, shift) => sum + shift.value, 0)).toBeLessThanOrEqual(
    0.001,
  );
  expect(sheets.filter((sheet) => sheet.bar)).toHaveLength(1);
});

test('a replay chosen on the page opens the bar, styled, without the pill pointed at first', async ({ page }) => {
  const sheets = sheetsOf(page);
  await gotoPage(page, '/');
  expect(sheets.filter((sheet) => sheet.bar)).toEqual([]);
  const card = page.getByRole('list', { name: 'Derniers podcasts' }).getByRole('button').first();
  await card.scrollIntoViewIfNeeded();
  await card.click();
  await expect(page.getByRole('button', { name: 'Revenir au direct' })).toBeVisible();
  expect(await page.locator('.player__bar').evaluate((bar) => getComputedStyle(bar).display)).toBe('flex');
  // Its sheet's text is read as the response comes, maybe after the bar shows.
  await expect.poll(() => sheets.filter((sheet) => sheet.bar).length).toBe(1);
});
