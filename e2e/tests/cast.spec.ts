import type { Locator, Page } from '@playwright/test';
import { audioState, audioTime, expectTimeAdvancing } from '../audio';
import { expect, gotoPage, test } from '../fixtures';
import { openPlayer, player } from '../screen';
import { recordedWindow } from '../timeshift-site';

// « Diffuser sur… » (docs/player.md, « Diffuser sur un appareil »). Chromium finds no device here:
// its Remote Playback API is stood in for by an init script that replaces `RemotePlayback.prototype`
// (watchAvailability, prompt, state) and plays the browser's part, as push.spec.ts stands in for a
// push service. The stand-in picks a device at once when asked, reports none for a `blob:` source
// (Chromium's rule for Media Source Extensions), and records what the receiver would have fetched:
// the element's address and position at each connection and each new source while connected.

interface Sent {
  src: string;
  time: number;
}

interface CastSeen {
  prompts: number;
  /** When the visitor pressed « Diffuser sur… », and when the browser moved the sound (`connect`). */
  pressedAt: number;
  connectedAt: number;
  /** What the receiver was given to fetch: at the connection, then each new source. */
  sent: Sent[];
}

/**
 * The element's box, its edges rounded inward to whole pixels. The bar stands at a fractional height
 * above the window's foot, so a picture of its box also holds a row of what is behind it (the page's
 * recent tracks, which move with the live).
 */
async function wholePixels(element: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await element.boundingBox();
  if (box === null) throw new Error('élément invisible');
  const x = Math.ceil(box.x);
  const y = Math.ceil(box.y);
  return { x, y, width: Math.floor(box.x + box.width) - x, height: Math.floor(box.y + box.height) - y };
}

async function standInForRemotePlayback(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: CastSeen = { prompts: 0, pressedAt: 0, connectedAt: 0, sent: [] };
    const states = new WeakMap<RemotePlayback, RemotePlaybackState>();
    const watchers: { remote: RemotePlayback; callback: (available: boolean) => void }[] = [];
    const mediaOf = (remote: RemotePlayback) =>
      [...document.querySelectorAll('audio')].find((media) => media.remote === remote) ?? null;
    const plain = (media: HTMLMediaElement | null) => media !== null && !media.src.startsWith('blob:');
    const dispatch = (remote: RemotePlayback, state: RemotePlaybackState) => {
      states.set(remote, state);
      const type = state === 'connected' ? 'connect' : state === 'connecting' ? 'connecting' : 'disconnect';
      remote.dispatchEvent(new Event(type));
    };
    const proto = RemotePlayback.prototype;
    Object.defineProperty(proto, 'state', {
      configurable: true,
      get(this: RemotePlayback) {
        return states.get(this) ?? 'disconnected';
      },
    });
    proto.watchAvailability = function watch(this: RemotePlayback, callback) {
      watchers.push({ remote: this, callback });
      const media = mediaOf(this);
      queueMicrotask(() => {
        callback(plain(media));
      });
      return Promise.resolve(watchers.length);
    };
    proto.cancelWatchAvailability = () => Promise.resolve();
    proto.prompt = function prompt(this: RemotePlayback) {
      seen.prompts += 1;
      const media = mediaOf(this);
      if (!plain(media)) return Promise.reject(new DOMException('source MSE', 'NotSupportedError'));
      if (states.get(this) === 'connected') {
        // The browser's picker again: « Arrêter la diffusion ».
        setTimeout(() => {
          dispatch(this, 'disconnected');
        });
        return Promise.resolve();
      }
      // The device picked at once, then the browser's two events.
      setTimeout(() => {
        dispatch(this, 'connecting');
        setTimeout(() => {
          seen.connectedAt = performance.now();
          seen.sent.push({ src: media?.src ?? '', time: media?.currentTime ?? 0 });
          dispatch(this, 'connected');
        });
      });
      return Promise.resolve();
    };
    // Availability follows the source, and a new source while connected goes to the receiver.
    document.addEventListener(
      'loadstart',
      (event) => {
        const media = event.target as HTMLMediaElement;
        for (const watcher of watchers) if (media.remote === watcher.remote) watcher.callback(plain(media));
        if (states.get(media.remote) === 'connected') seen.sent.push({ src: media.src, time: media.currentTime });
      },
      true,
    );
    document.addEventListener(
      'click',
      (event) => {
        const button = (event.target as Element).closest('button');
        if (button?.textContent.startsWith('Diffuser sur') === true) seen.pressedAt = performance.now();
      },
      true,
    );
    Object.assign(window, {
      castSeen: seen,
      castDisconnect: () => {
        const media = document.querySelector('audio');
        if (media !== null) dispatch(media.remote, 'disconnected');
      },
    });
  });
}

const seen = (page: Page) => page.evaluate(() => (window as unknown as { castSeen: CastSeen }).castSeen);
const remoteState = (page: Page) => page.evaluate(() => document.querySelector('audio')?.remote.state);
const disconnect = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { castDisconnect: () => void }).castDisconnect();
  });

const castButton = (page: Page) => player(page).getByRole('button', { name: 'Diffuser sur…' });
const castLinked = (page: Page) =>
  player(page).getByRole('button', { name: 'Diffusé sur l’appareil : changer ou arrêter' });

/** From the press to the browser's `connect`, when the page's own sound stops (reported, never asserted). */
async function noteTimeToDevice(page: Page, what: string): Promise<void> {
  const { pressedAt, connectedAt } = await seen(page);
  const ms = Math.round((connectedAt - pressedAt) * 10) / 10;
  test.info().annotations.push({ type: 'mesure', description: `${what} : ${String(ms)} ms de l’appui au son parti` });
  console.log(`cast ${what}: ${String(ms)} ms from the press to the page's sound leaving`);
}

/** Two demo episodes of two residences. */
async function twoEpisodes(page: Page): Promise<{ slug: string; artist: string }[]> {
  return page.evaluate(async () => {
    const response = await fetch('/api/episodes?page=1');
    const { items } = (await response.json()) as { items: { slug: string; artist: string }[] };
    const picked: { slug: string; artist: string }[] = [];
    for (const item of items) {
      if (picked.length < 2 && !picked.some((other) => other.artist === item.artist)) picked.push(item);
    }
    return picked.map(({ slug, artist }) => ({ slug, artist }));
  });
}

test.use({ reducedMotion: 'reduce' });

test('absent where the browser reports no device, and where it has no Remote Playback API', async ({ page }) => {
  // Chromium's own API, with no device on this machine.
  await gotoPage(page, '/');
  await openPlayer(page);
  await expectTimeAdvancing(page, 0.5);
  await expect(player(page).getByRole('button', { name: 'Fermer le lecteur' })).toBeVisible();
  await expect(castButton(page)).toHaveCount(0);

  // Firefox: no `remote` at all.
  await page.addInitScript(() => {
    Reflect.deleteProperty(HTMLMediaElement.prototype, 'remote');
  });
  await gotoPage(page, '/');
  await openPlayer(page);
  await expectTimeAdvancing(page, 0.5);
  expect(await page.evaluate(() => 'remote' in HTMLMediaElement.prototype)).toBe(false);
  await expect(castButton(page)).toHaveCount(0);
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`${String(viewport.width)} px: the live goes to the device as its plain MP3 stream, and comes back at the edge`, async ({
    page,
  }) => {
    // The picture holds the timeline's row, which the page reads when it opens: after the
    // recorder's first segment (a server just started has none yet).
    test.setTimeout(60_000);
    const origin = test.info().project.use.baseURL ?? '';
    await expect.poll(() => recordedWindow(origin), { timeout: 30_000 }).not.toBeNull();
    await page.setViewportSize(viewport);
    await standInForRemotePlayback(page);
    await gotoPage(page, '/');
    await openPlayer(page);
    await expectTimeAdvancing(page, 0.5);
    await castButton(page).click();
    await expect(castLinked(page)).toBeVisible();
    await noteTimeToDevice(page, `direct ${String(viewport.width)} px`);
    // The receiver fetches the Icecast stream itself, at its edge: never a blob of hls.js.
    const [sent] = (await seen(page)).sent;
    expect(sent?.src).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/demo\/live\.mp3\?direct=/);
    const volume = player(page).getByRole('slider', { name: 'Volume de l’appareil' });
    await expect(volume).toBeVisible();
    // Play and pause go on through the bar's own button; the system's controls still say what plays.
    await expect(player(page).getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.mediaSession.metadata?.album)).toBeTruthy();

    await expect(player(page).getByRole('slider', { name: 'Position dans le direct' })).toBeVisible();
    await player(page).getByRole('button', { name: 'Pause', exact: true }).click();
    await expect(player(page).getByRole('button', { name: 'Lecture', exact: true })).toBeVisible();
    await expect(player(page).getByText('chargement ...')).toHaveCount(0);
    await expect(page).toHaveScreenshot(`diffuse-direct-${String(viewport.width)}.png`, {
      clip: await wholePixels(player(page)),
      mask: [page.locator('.player__titles'), page.locator('.player__cover'), page.locator('.player__time')],
    });
    await player(page).getByRole('button', { name: 'Lecture', exact: true }).click();
    await expectTimeAdvancing(page, 0.5);

    // The device lets go: the page plays the live again from its edge (a fresh address), unasked.
    const before = (await audioState(page))?.src;
    await disconnect(page);
    await expect(castButton(page)).toBeVisible();
    await expect(volume).toHaveCount(0);
    await expect.poll(async () => (await audioState(page))?.src).not.toBe(before);
    await expectTimeAdvancing(page, 0.5);
    await expect(player(page).getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
    expect(await remoteState(page)).toBe('disconnected');
  });
}

test('a replay at ?t= goes from where the visitor is, the queue’s next goes to the device, and the way back keeps the place', async ({
  page,
}) => {
  await standInForRemotePlayback(page);
  await gotoPage(page, '/');
  const [first, second] = await twoEpisodes(page);
  if (first === undefined || second === undefined) throw new Error('pas assez d’épisodes de démonstration');
  await gotoPage(page, `/emissions/${first.slug}?t=20`);
  await page.getByRole('button', { name: 'Écouter à partir de 0:20' }).click();
  await expect.poll(() => audioTime(page)).toBeGreaterThanOrEqual(20);
  await castButton(page).click();
  await expect(castLinked(page)).toBeVisible();
  await noteTimeToDevice(page, 'réécoute');
  const [sent] = (await seen(page)).sent;
  // The episode's own file, from the position heard.
  expect(new URL(sent?.src ?? 'http://x/').pathname).toMatch(/\.mp3$/);
  expect(sent?.time).toBeGreaterThanOrEqual(20);

  // Next in the queue, then the replay ends: the next one is the device's too.
  await page.evaluate((slug) => {
    window.dispatchEvent(new CustomEvent('collectif:queue-add', { detail: { items: [{ slug }] } }));
  }, second.slug);
  await expect(player(page).getByRole('button', { name: /^File d’écoute \(1\)/ })).toBeVisible();
  await page.evaluate(() => {
    const media = document.querySelector('audio');
    if (media !== null) media.currentTime = media.duration - 0.5;
  });
  await expect(player(page).getByText(second.artist, { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect.poll(async () => (await seen(page)).sent.length).toBeGreaterThanOrEqual(2);
  const next = (await seen(page)).sent.at(-1);
  expect(next?.src).not.toBe(sent?.src);
  expect(next?.src.startsWith('blob:')).toBe(false);
  expect(await remoteState(page)).toBe('connected');
  await expect(castLinked(page)).toBeVisible();
  await expectTimeAdvancing(page, 1);

  // The way back: on the page, from where the device was, without a press.
  const at = await audioTime(page);
  await disconnect(page);
  await expect(castButton(page)).toBeVisible();
  await expectTimeAdvancing(page, 0.5);
  expect(await audioTime(page)).toBeGreaterThanOrEqual(at);
  await expect(player(page).getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
});

test('behind the live’s edge (hls.js), the button says in French that it cannot be sent', async ({ page }) => {
  await standInForRemotePlayback(page);
  await gotoPage(page, '/');
  await openPlayer(page);
  await expectTimeAdvancing(page, 0.5);
  await expect(castButton(page)).toBeVisible();
  const slider = player(page).getByRole('slider', { name: 'Position dans le direct' });
  await expect(slider).toBeVisible({ timeout: 30_000 });
  await slider.focus();
  await page.keyboard.press('Home');
  await expect.poll(async () => (await audioState(page))?.src ?? '', { timeout: 15_000 }).toMatch(/^blob:/);
  await castButton(page).click();
  await expect(
    player(page).getByText(
      'Le différé ne peut pas être diffusé sur un appareil depuis ce navigateur. Revenez au direct pour le diffuser.',
    ),
  ).toBeVisible();
  expect((await seen(page)).prompts).toBe(0);
});
