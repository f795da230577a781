import type { Page } from '@playwright/test';
import { expect, gotoPage, test } from '../fixtures';

interface PodcastItem {
  trackUrn?: string;
  url: string;
  duration: number;
  artist: string;
}

/**
 * Starts an <audio> element on the page and resolves once it plays; the element stays reachable
 * as `window.__demoAudio` so the test can follow its currentTime.
 */
async function play(page: Page, src: string): Promise<void> {
  await page.evaluate(async (url) => {
    const audio = new Audio(url);
    (window as unknown as { __demoAudio: HTMLAudioElement }).__demoAudio = audio;
    await audio.play();
  }, src);
}

const currentTime = (page: Page) =>
  page.evaluate(() => (window as unknown as { __demoAudio: HTMLAudioElement }).__demoAudio.currentTime);

test.afterEach(async ({ page }) => {
  await page.evaluate(() => {
    const audio = (window as unknown as { __demoAudio?: HTMLAudioElement }).__demoAudio;
    if (audio === undefined) return;
    audio.pause();
    audio.removeAttribute('src');
    audio.load();
  });
});

test('Chromium plays the demo live stream and its time advances', async ({ page }) => {
  await gotoPage(page, '/');
  const response = await page.request.head('/api/demo/live.mp3');
  expect(response.headers()['content-type']).toBe('audio/mpeg');
  await play(page, '/api/demo/live.mp3');
  await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThan(1.5);
  const duration = await page.evaluate(
    () => (window as unknown as { __demoAudio: HTMLAudioElement }).__demoAudio.duration,
  );
  // An endless stream: the browser knows no end to it.
  expect(duration).toBe(Infinity);
});

test('a demo replay from the feed plays, resolved through /api/track, and seeking uses byte ranges', async ({
  page,
}) => {
  await gotoPage(page, '/');
  const podcasts = (await (await page.request.get('/api/podcasts?limit=8')).json()) as PodcastItem[];
  const replay = podcasts.find((item) => item.trackUrn !== undefined);
  expect(replay, 'a podcast with a trackUrn').toBeDefined();
  const track = await page.request.get(`/api/track/${encodeURIComponent(replay?.trackUrn ?? '')}`);
  const url = await track.text();
  expect(url).toBe(replay?.url);

  const partial: number[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith(url) && response.status() === 206) partial.push(response.status());
  });
  await play(page, url);
  await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThan(0.5);
  const duration = await page.evaluate(
    () => (window as unknown as { __demoAudio: HTMLAudioElement }).__demoAudio.duration,
  );
  expect(Math.floor(duration)).toBe(replay?.duration);

  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const audio = (window as unknown as { __demoAudio: HTMLAudioElement }).__demoAudio;
        audio.addEventListener(
          'seeked',
          () => {
            resolve();
          },
          { once: true },
        );
        audio.currentTime = 40;
      }),
  );
  await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThan(40.5);
  expect(partial.length).toBeGreaterThan(0);
});

test('the page gets the now-playing channel (Server-Sent Events) and the API answers', async ({ page }) => {
  await gotoPage(page, '/');
  /** The channel's first event, then the API's answer. */
  const channelThenApi = async () => {
    const channel = await page.evaluate(
      () =>
        new Promise<{ artist: string; title: string }>((resolve, reject) => {
          const source = new EventSource('/api/nowplaying/events');
          source.addEventListener('nowplaying', (event) => {
            source.close();
            resolve(JSON.parse((event as MessageEvent<string>).data) as { artist: string; title: string });
          });
          source.onerror = () => {
            source.close();
            reject(new Error('SSE error'));
          };
        }),
    );
    return { channel, api: (await (await page.request.get('/api/nowplaying')).json()) as unknown };
  };
  let read = await channelThenApi();
  // The demo's track may change between the two reads (each lasts 3 minutes): then read both again.
  if (JSON.stringify(read.api) !== JSON.stringify(read.channel)) read = await channelThenApi();
  expect(read.channel.artist).not.toBe('');
  expect(read.channel.title).not.toBe('');
  expect(read.api).toEqual(read.channel);

  const podcasts = await page.request.get('/api/podcasts?limit=8');
  expect(podcasts.headers()['cache-control']).toMatch(/max-age=\d+/);
  expect(podcasts.headers().etag).toBeTruthy();
  expect((await podcasts.json()) as unknown[]).toHaveLength(8);
  expect(((await (await page.request.get('/api/islive')).json()) as { live: unknown }).live).toEqual(
    expect.any(Boolean),
  );
});

test('a POST to /api needs the XSRF header matching the cookie /api/xsrf set; the page’s reads set none', async ({
  page,
}) => {
  const liveStatus = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/islive');
  await gotoPage(page, '/');
  // The page arrives with its data (rendered on the server) and asks the live status itself: a read,
  // which sets no cookie (docs/api.md, « XSRF »).
  expect((await liveStatus).headers()['set-cookie']).toBeUndefined();
  expect(await page.evaluate(() => document.cookie)).not.toContain('XSRF-TOKEN=');
  // From the page itself: the cookie asked as the site's client asks before a write; the header is
  // what fetch adds.
  const statuses = await page.evaluate(async () => {
    await fetch('/api/xsrf');
    const token = /(?:^|; )XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '';
    const post = (headers: Record<string, string>) =>
      fetch('/api/admin/live', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({ live: true }),
      }).then((r) => r.status);
    return {
      token: token !== '',
      without: await post({ Authorization: 'Bearer e2e-jeton-admin-de-24-caracteres' }),
      wrongToken: await post({ Authorization: 'Bearer e2e-jeton-admin-de-24-caracteres', 'X-XSRF-TOKEN': 'faux' }),
      // The right XSRF pair but a wrong admin token: past the XSRF check, refused by the admin check.
      badAdmin: await post({ Authorization: 'Bearer pas-le-bon', 'X-XSRF-TOKEN': decodeURIComponent(token) }),
    };
  });
  expect(statuses).toEqual({ token: true, without: 403, wrongToken: 403, badAdmin: 401 });
});
