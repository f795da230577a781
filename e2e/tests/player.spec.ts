import type { Page } from '@playwright/test';
import { audioState, audioTime, expectSameAudioPlaying, expectTimeAdvancing, markAudio } from '../audio';
import { expect, gotoPage, test, untilInteractive } from '../fixtures';

interface PodcastItem {
  trackUrn?: string;
  url: string;
  duration: number;
  artist: string;
  show: string;
  cover: string;
}

/** Chooses a demo replay the way a podcast card does: the `replay-selected` event, as a DOM event. */
async function selectDemoReplay(page: Page): Promise<PodcastItem> {
  // A raw DOM event is heard only by a player already listening (a loaded run once sent it before).
  await untilInteractive(page, 'player');
  const item = await page.evaluate(async () => {
    const response = await fetch('/api/podcasts?limit=1');
    const items = (await response.json()) as PodcastItem[];
    const first = items[0];
    if (first === undefined) throw new Error('aucun podcast de démonstration');
    window.dispatchEvent(new CustomEvent('collectif:replay-selected', { detail: first }));
    return first;
  });
  await expect(page.getByRole('button', { name: 'Revenir au direct' })).toBeVisible();
  return item;
}

const player = (page: Page) => page.getByRole('region', { name: 'Lecteur radio' });

test('live: the keyboard opens the player and the demo stream plays, time advancing', async ({ page }) => {
  await gotoPage(page, '/');
  const pill = page.getByRole('button', { name: 'Ouvrir le lecteur' });
  await expect(pill).toHaveText(/Stream/);
  const closedBox = await pill.boundingBox();
  expect(closedBox?.width).toBeCloseTo(8.5 * 16, 0);

  await pill.focus();
  await page.keyboard.press('Enter');
  const pause = page.getByRole('button', { name: 'Pause', exact: true });
  await expect(pause).toBeFocused();
  await expect(player(page).getByText('En direct')).toBeAttached();
  await expectTimeAdvancing(page);
  await expect(player(page).getByText('chargement ...')).toHaveCount(0);
  expect((await audioState(page))?.src).toContain('/api/demo/live.mp3?direct=');

  // Open: about 40rem wide from 600px, centred at the bottom.
  const bar = await player(page).boundingBox();
  expect(bar?.width).toBeCloseTo(40 * 16, 0);
  expect((bar?.y ?? 0) + (bar?.height ?? 0)).toBeCloseTo(800, 0);

  // Pause with the keyboard, then resume: the live edge is joined again (a fresh address).
  const before = (await audioState(page))?.src;
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Lecture', exact: true })).toBeFocused();
  await expect.poll(async () => (await audioState(page))?.paused).toBe(true);
  await page.keyboard.press('Enter');
  await expectTimeAdvancing(page, 0.5);
  expect((await audioState(page))?.src).not.toBe(before);
});

test('replay: chosen on the page, then sought by keyboard', async ({ page }) => {
  await gotoPage(page, '/');
  const item = await selectDemoReplay(page);
  await expect(player(page).getByText(item.artist, { exact: true })).toBeVisible();
  await expectTimeAdvancing(page, 0.5);

  const slider = page.getByRole('slider', { name: 'Position dans l’émission' });
  await expect(slider).toHaveAttribute('aria-valuetext', /sur/);
  await slider.focus();
  await page.keyboard.press('PageUp');
  await page.keyboard.press('PageUp');
  await page.keyboard.press('PageUp');
  const duration = (await audioState(page))?.duration ?? 0;
  expect(duration).toBeGreaterThan(0);
  await expect.poll(() => audioTime(page)).toBeGreaterThanOrEqual(duration * 0.3 - 1);
  await expect(slider).toBeFocused();
  // Still open: keys on the slider never toggle the player.
  await expect(page.getByRole('button', { name: 'Revenir au direct' })).toBeVisible();
  const sought = await audioTime(page);
  await page.keyboard.press('Home');
  await expect.poll(() => audioTime(page)).toBeLessThan(sought - 1);
  await expectTimeAdvancing(page, 0.5);

  // 'direct' goes back to the live stream.
  await page.getByRole('button', { name: 'Revenir au direct' }).click();
  await expect(page.getByRole('button', { name: 'Ouvrir le chat' })).toBeVisible();
  await expect.poll(async () => (await audioState(page))?.src).toContain('/api/demo/live.mp3');
});

test('ten route changes while playing: same audio element, no interruption', async ({ page }) => {
  // Ten page loads of the remotes: more than the default budget on a busy two-core machine.
  test.slow();
  await gotoPage(page, '/');
  await page.getByRole('button', { name: 'Ouvrir le lecteur' }).click();
  await expectTimeAdvancing(page);
  await markAudio(page);

  const nav = page.getByRole('navigation', { name: 'Navigation principale' });
  const stops = [
    'Résidences',
    'Label',
    'À propos',
    'Label',
    'Résidences',
    'À propos',
    'Label',
    'À propos',
    'Résidences',
  ];
  for (const name of stops) {
    await nav.getByRole('link', { name, exact: true }).click();
    await expect(page.locator('#contenu')).not.toContainText('Chargement ...', { timeout: 15_000 });
  }
  await page.getByRole('button', { name: "Retour à l'accueil" }).click();
  await expect(page).toHaveURL(/\/$/);

  await expectSameAudioPlaying(page);
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
});

test('Media Session: title, artist and artwork of what plays, and its playback state', async ({ page }) => {
  await gotoPage(page, '/');
  const item = await selectDemoReplay(page);
  await expectTimeAdvancing(page, 0.2);
  const metadata = await page.evaluate(() => {
    const m = navigator.mediaSession.metadata;
    return m === null ? null : { title: m.title, artist: m.artist, artwork: m.artwork.map((a) => a.src) };
  });
  expect(metadata?.title).toBe(item.show || 'Inconnu');
  expect(metadata?.artist).toBe(item.artist || 'Inconnu');
  expect(metadata?.artwork[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  expect(await page.evaluate(() => navigator.mediaSession.playbackState)).toBe('playing');
});

test('chat panel: a blocked widget gives a French message and a link to open it in a new tab', async ({ page }) => {
  await gotoPage(page, '/');
  await page.getByRole('button', { name: 'Ouvrir le lecteur' }).click();
  await page.getByRole('button', { name: 'Ouvrir le chat' }).click();
  const chat = page.getByRole('region', { name: 'Chat de la radio' });
  await expect(chat).toBeVisible();
  await expect(chat.getByText('Le chat ne peut pas s’afficher ici pour le moment.')).toBeVisible({ timeout: 15_000 });
  // The fallback panel is as tall as its message, not 70 % of the screen (docs/interface.md).
  expect((await chat.boundingBox())?.height ?? 0).toBeLessThan(250);
  const link = chat.getByRole('link', { name: /Ouvrir le chat dans un nouvel onglet/ });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('href', /collectif-garonne/);
  await page.getByRole('button', { name: 'Fermer le chat' }).click();
  await expect(chat).toHaveCount(0);
});

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the open player spans the bottom and the chat takes 85% of the height, under the navbar', async ({ page }) => {
    // The chat's host answers here, so that the widget's panel shows at its full size.
    await page.route(/^https:\/\/minnit\.chat\//, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<p>chat</p>' }),
    );
    await gotoPage(page, '/');
    await page.getByRole('button', { name: 'Ouvrir le lecteur' }).click();
    // The bar's code comes when the player is wanted (docs/interface.md): measured once it shows.
    await expect(player(page).getByRole('button', { name: 'Fermer le lecteur' })).toBeVisible();
    const bar = await player(page).boundingBox();
    expect(bar?.width).toBeCloseTo(390, 0);
    // The timeline's row shows under the bar once the recorder has a segment: waited for, so that the
    // room the panel leaves does not depend on when the test runs.
    await expect(player(page).getByRole('slider', { name: 'Position dans le direct' })).toBeVisible({
      timeout: 30_000,
    });
    await page.getByRole('button', { name: 'Ouvrir le chat' }).click();
    const region = page.getByRole('region', { name: 'Chat de la radio' });
    await expect(region.locator('iframe')).toBeVisible();
    // 85 % of the height, but never over the 64 px navbar: it leaves 10rem (160 px) for the live bar,
    // its on-air line, « chargement ... » and the timeline's row (docs/interface.md, « The chat panel »).
    const chat = await region.boundingBox();
    expect(chat?.height).toBeCloseTo(Math.min(844 * 0.85, 844 - 64 - 160), 0);
  });
});
