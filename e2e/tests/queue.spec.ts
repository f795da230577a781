import type { Page } from '@playwright/test';
import { audioState, expectTimeAdvancing } from '../audio';
import { expectNoViolations } from '../axe';
import { consoleTrouble, expect, gotoPage, HYDRATION_TROUBLE, test } from '../fixtures';
import { player } from '../screen';

// The player's queue, « File d'écoute » (docs/player.md, « The queue »): three episodes added from
// their three pages, reordered with the keyboard, kept over a reload, the next one heard when the
// first ends, and the system's `nexttrack`, at a phone's width and a desktop's. The demo's replays
// last about a minute; « the first ends » is its slider sent to its last step (1 %, under a second
// from the end), from where it plays to its end by itself.

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

interface Episode {
  slug: string;
  artist: string;
  show: string;
}

/** Three demo episodes of three residences, newest first. */
async function threeEpisodes(page: Page): Promise<Episode[]> {
  return page.evaluate(async () => {
    const response = await fetch('/api/episodes?page=1');
    const { items } = (await response.json()) as { items: Episode[] };
    const picked: Episode[] = [];
    for (const item of items) {
      if (picked.length === 3) break;
      if (!picked.some((other) => other.artist === item.artist)) picked.push(item);
    }
    return picked.map(({ slug, artist, show }) => ({ slug, artist, show }));
  });
}

/** The queue kept on the device, as slugs. */
function storedQueue(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const items = JSON.parse(localStorage.getItem('collectif:file') ?? '[]') as { slug: string }[];
    return items.map((item) => item.slug);
  });
}

/**
 * « Ajouter à la file » as a page's button sends it: the contract's `queue-add`, here as the DOM
 * event a partner's script would send, once the player listens to it (the bus counts its
 * subscribers on the window: shared/src/events/bus.ts).
 */
async function addToQueue(page: Page, slug: string): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() => {
        const heard = (globalThis as Record<symbol, { listeners: Map<string, number> } | undefined>)[
          Symbol.for('collectif.events.heard')
        ];
        return heard?.listeners.get('queue-add') ?? 0;
      }),
    )
    .toBeGreaterThan(0);
  await page.evaluate((item) => {
    window.dispatchEvent(new CustomEvent('collectif:queue-add', { detail: { items: [{ slug: item }] } }));
  }, slug);
}

/** The episode page's own « Ajouter à la file » (its cards' buttons name their episode). */
async function addOnPage(page: Page): Promise<void> {
  await page.locator('#contenu').getByRole('button', { name: 'Ajouter à la file', exact: true }).click();
}

/**
 * The system's media controls, as Chromium's hub would call them: the handlers the page gives
 * `navigator.mediaSession`, recorded as they are set.
 */
async function recordMediaHandlers(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const handlers: Record<string, ((details: { action: string }) => void) | null> = {};
    (window as unknown as { mediaHandlers: typeof handlers }).mediaHandlers = handlers;
    const session = navigator.mediaSession;
    const set = session.setActionHandler.bind(session);
    session.setActionHandler = (action, handler) => {
      handlers[action] = handler as ((details: { action: string }) => void) | null;
      set(action, handler);
    };
  });
}

function callMediaHandler(page: Page, action: string): Promise<boolean> {
  return page.evaluate((name) => {
    const handler = (window as unknown as { mediaHandlers: Record<string, ((d: { action: string }) => void) | null> })
      .mediaHandlers[name];
    if (handler === null || handler === undefined) return false;
    handler({ action: name });
    return true;
  }, action);
}

/**
 * An episode's page from the archive's list, through its card's link: the page changes in place,
 * and what plays goes on playing.
 */
async function openFromArchive(page: Page, episode: Episode): Promise<void> {
  if (!page.url().endsWith('/emissions')) await page.goBack();
  await expect(page).toHaveURL(/\/emissions$/);
  await page.locator('#contenu').getByRole('link', { name: episode.artist, exact: true }).first().click();
  await expect(page).toHaveURL(new RegExp(`/emissions/${episode.slug}$`));
}

const queueLine = (page: Page) => player(page).getByRole('button', { name: /^File d’écoute/ });
const panel = (page: Page) => page.getByRole('region', { name: 'File d’écoute' });

for (const size of WIDTHS) {
  test.describe(`${String(size.width)} px`, () => {
    test.use({ viewport: size });

    test('three episodes added from their pages, reordered by keyboard, kept over a reload, the next heard when one ends', async ({
      page,
    }) => {
      const trouble = consoleTrouble(page);
      await recordMediaHandlers(page);
      await gotoPage(page, '/emissions');
      const [first, second, third] = await threeEpisodes(page);
      if (first === undefined || second === undefined || third === undefined)
        throw new Error('trois épisodes attendus');

      // The first, added with nothing playing, plays at once; the two others wait in the queue. Each
      // with its page's « Ajouter à la file » (mf-radio's button, a queue-add of the contract).
      await openFromArchive(page, first);
      await addOnPage(page);
      await expect(player(page).getByText(first.artist, { exact: true })).toBeVisible();
      await expectTimeAdvancing(page, 0.5);
      await openFromArchive(page, second);
      await addOnPage(page);
      await expect.poll(() => storedQueue(page)).toEqual([second.slug]);
      await openFromArchive(page, third);
      await addOnPage(page);
      await expect(page.getByTestId('file-annonce')).toHaveText(`Ajouté à la file : ${third.artist} — ${third.show}.`);
      await expect(player(page).getByText(first.artist, { exact: true })).toBeVisible();
      await expect(queueLine(page)).toHaveText(`File d’écoute (2) · À suivre : ${second.artist} — ${second.show}`);

      // The panel: the third moved above the second with Alt + ↑, the focus following it.
      await queueLine(page).click();
      await expect(panel(page)).toBeVisible();
      const up = panel(page).getByRole('button', { name: `Monter ${third.artist} — ${third.show}` });
      const down = panel(page).getByRole('button', { name: `Descendre ${third.artist} — ${third.show}` });
      await up.focus();
      await page.keyboard.press('Alt+ArrowUp');
      await expect.poll(() => storedQueue(page)).toEqual([third.slug, second.slug]);
      await expect(down).toBeFocused();
      await expect(page.getByTestId('file-annonce')).toHaveText('Déplacé en position 1 sur 2.');
      await expectNoViolations(page, `queue panel, ${String(size.width)} px`);
      await page.screenshot({ path: test.info().outputPath(`file-${String(size.width)}.png`) });
      await page.keyboard.press('Escape');
      await expect(panel(page)).toHaveCount(0);
      await expect(queueLine(page)).toBeFocused();

      // A reload keeps the queue; the player comes back closed.
      await gotoPage(page, `/emissions/${third.slug}`);
      await page.getByRole('button', { name: 'Stream : ouvrir le lecteur' }).click();
      await queueLine(page).click();
      const rows = panel(page).getByRole('listitem');
      await expect(rows).toHaveCount(2);
      await expect(rows.nth(0)).toContainText(`${third.artist} — ${third.show}`);
      await expect(rows.nth(1)).toContainText(`${second.artist} — ${second.show}`);
      await panel(page)
        .getByRole('button', { name: `Écouter ${third.artist} — ${third.show}` })
        .click();
      await expect(player(page).getByText(third.artist, { exact: true })).toBeVisible();
      await expectTimeAdvancing(page, 0.5);
      await expect(queueLine(page)).toHaveText(`File d’écoute (1) · À suivre : ${second.artist} — ${second.show}`);

      // To its last second: it ends by itself, and the second starts.
      const slider = page.getByRole('slider', { name: 'Position dans l’émission' });
      await slider.focus();
      await page.keyboard.press('End');
      await page.keyboard.press('ArrowLeft');
      await expect(player(page).getByText(second.artist, { exact: true })).toBeVisible({ timeout: 15_000 });
      await expectTimeAdvancing(page, 0.5);
      expect((await audioState(page))?.paused).toBe(false);
      await expect.poll(() => storedQueue(page)).toEqual([]);
      await expect(queueLine(page)).toHaveCount(0);
      await expectNoViolations(page, `player after the queue, ${String(size.width)} px`);
      expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
    });

    test('nexttrack from the system’s media controls plays the next item, previoustrack goes back', async ({
      page,
    }) => {
      await recordMediaHandlers(page);
      await gotoPage(page, '/emissions');
      const [first, second] = await threeEpisodes(page);
      if (first === undefined || second === undefined) throw new Error('deux épisodes attendus');
      await page.getByRole('button', { name: 'Stream : ouvrir le lecteur' }).click();
      await expectTimeAdvancing(page, 0.5);
      await addToQueue(page, first.slug);
      await addToQueue(page, second.slug);
      await expect.poll(() => storedQueue(page)).toEqual([first.slug, second.slug]);
      // Live, the queue only waits: nothing replaced the live.
      await expect(player(page).getByText('En direct')).toBeAttached();
      await expect(queueLine(page)).toHaveText(`File d’écoute (2) · À suivre : ${first.artist} — ${first.show}`);
      await expectNoViolations(page, `live with a queue, ${String(size.width)} px`);
      await page.screenshot({ path: test.info().outputPath(`direct-file-${String(size.width)}.png`) });

      expect(await callMediaHandler(page, 'nexttrack')).toBe(true);
      await expect(player(page).getByText(first.artist, { exact: true })).toBeVisible();
      await expectTimeAdvancing(page, 0.5);
      expect(await callMediaHandler(page, 'nexttrack')).toBe(true);
      await expect(player(page).getByText(second.artist, { exact: true })).toBeVisible();
      await expect.poll(() => storedQueue(page)).toEqual([]);
      // Nothing next: the system offers no next track.
      expect(await callMediaHandler(page, 'nexttrack')).toBe(false);
      expect(await callMediaHandler(page, 'previoustrack')).toBe(true);
      await expect(player(page).getByText(first.artist, { exact: true })).toBeVisible();
      await expect.poll(() => storedQueue(page)).toEqual([second.slug]);
    });
  });
}
