import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ApiError, NowPlaying, PodcastItem, Release } from '@collectif/shared';
import { PODCAST_MIN_BYTES } from '../feed';
import { buildApp } from '../app/app';
import { readSiteServerConfig } from '../settings/config';
import { parseFeedXml } from './upstream/rss';
import { buildApi, fakeAudioDir, listen, manualClock, testConfig } from './testing/fixtures';
import { firstBytes, readEvents } from './testing/streams';

// The site parts are not built for these tests: an empty folder stands for their dist/.
const distRoot = mkdtempSync(join(tmpdir(), 'api-site-'));
const site = readSiteServerConfig({ DIST_ROOT: distRoot, LOG_LEVEL: 'silent' });

afterAll(() => {
  rmSync(distRoot, { recursive: true, force: true });
});
const anchor = new Date('2026-03-05T12:00:00Z');

/** The XSRF pair a browser holds once the site's client has asked for it (GET /api/xsrf). */
async function xsrfCookie(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ url: '/api/xsrf' });
  const cookie = String(res.headers['set-cookie']);
  return /XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1] ?? '';
}

describe('the API in demo mode (no upstream configured), through the whole app', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildApp({
      site,
      api: testConfig({ adminToken: 'e2e-admin', demo: { ...testConfig().demo, audioDir: fakeAudioDir() } }),
    });
  });
  afterAll(() => app.close());

  it('lists the 8 newest podcasts of the demo feed, mapped', async () => {
    const res = await app.inject({ url: '/api/podcasts?limit=8' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const items = res.json<PodcastItem[]>();
    expect(items).toHaveLength(8);
    const dates = items.map((i) => Date.parse(i.pubDate ?? ''));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    for (const item of items) {
      expect(item.url).toMatch(/^\/api\/demo\/replays\/[a-z-]+\.mp3$/);
      expect(item.artist).not.toBe('');
      expect(item.duration).toBeGreaterThan(0);
    }
  });

  it('sends `artist` and `show` alone: the former names went at contract version 3 (docs/contract.md)', async () => {
    const podcasts = (await app.inject({ url: '/api/podcasts?limit=3' })).json<PodcastItem[]>();
    const archive = (await app.inject({ url: '/api/episodes' })).json<{ items: PodcastItem[] }>().items;
    const slug = archive[0]?.slug ?? '';
    const episode = (await app.inject({ url: `/api/episodes/${slug}` })).json<PodcastItem>();
    for (const item of [...podcasts, ...archive.slice(0, 3), episode]) {
      expect(item.artist).not.toBe('');
      expect(item).not.toHaveProperty('title');
      expect(item).not.toHaveProperty('description');
    }
  });

  it('keeps only podcasts (enclosure over 10 MB) from the feed', async () => {
    const feed = parseFeedXml((await app.inject({ url: '/api/soundcloud-rss' })).body);
    const all = (await app.inject({ url: '/api/podcasts' })).json<PodcastItem[]>();
    const big = feed.items.filter((item) => {
      const length = Number((item.enclosure as { _attributes?: { length?: string } } | undefined)?._attributes?.length);
      return length > PODCAST_MIN_BYTES;
    });
    expect(all).toHaveLength(big.length);
    expect(all.length).toBeLessThan(feed.items.length);
  });

  it('searches a name with slashes name by name, without duplicates', async () => {
    const items = (await app.inject({ url: `/api/podcasts?q=${encodeURIComponent('Kalibre / Mona Vex')}` })).json<
      PodcastItem[]
    >();
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(`${item.artist} ${item.show}`).toMatch(/Kalibre|Mona Vex/);
    expect(new Set(items.map((i) => i.link)).size).toBe(items.length);
    const nobody = (await app.inject({ url: '/api/podcasts?q=Personne%20Inconnue' })).json<PodcastItem[]>();
    expect(nobody).toEqual([]);
  });

  it('serves the feed XML at /api/soundcloud-rss', async () => {
    const res = await app.inject({ url: '/api/soundcloud-rss' });
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(parseFeedXml(res.body).items.length).toBeGreaterThanOrEqual(150);
  });

  it('answers with Cache-Control, ETag and open CORS, and 304 on revalidation', async () => {
    const first = await app.inject({ url: '/api/releases?limit=4', headers: { cookie: 'XSRF-TOKEN=abc' } });
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    expect(first.headers['access-control-allow-origin']).toBe('*');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await app.inject({
      url: '/api/releases?limit=4',
      headers: { cookie: 'XSRF-TOKEN=abc', 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('sets no cookie on a read, with or without one, so that its answer stays public for the caches', async () => {
    for (const headers of [{}, { cookie: 'XSRF-TOKEN=abc' }]) {
      for (const url of ['/api/podcasts?limit=1', '/api/content/residences?id=axonberg', '/api/islive']) {
        const res = await app.inject({ url, headers });
        expect([url, res.statusCode, res.headers['set-cookie']]).toEqual([url, 200, undefined]);
      }
      const podcasts = await app.inject({ url: '/api/podcasts?limit=1', headers });
      expect(podcasts.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    }
  });

  it('refuses a write without the cookie, and takes it with the cookie /api/xsrf gave', async () => {
    const write = (headers: Record<string, string>) =>
      app.inject({ method: 'PUT', url: '/api/push/subscription', headers, payload: {} });
    const refused = await write({ 'content-type': 'application/json' });
    expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([403, 'xsrf']);
    const token = await xsrfCookie(app);
    const taken = await write({
      'content-type': 'application/json',
      cookie: `XSRF-TOKEN=${token}`,
      'x-xsrf-token': token,
    });
    // Past the XSRF check: refused by the route's own schema, not for its token.
    expect(taken.statusCode).toBe(400);
  });

  it('gives a fresh XSRF cookie at GET /api/xsrf, with or without one, and no cache keeps it', async () => {
    for (const headers of [{}, { cookie: 'XSRF-TOKEN=ancien' }]) {
      const res = await app.inject({ url: '/api/xsrf', headers });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['cache-control']).toBe('no-store');
      // One cookie, even when the security hook gave one to a browser that had none.
      const cookie = res.headers['set-cookie'];
      expect(typeof cookie).toBe('string');
      expect(cookie).toMatch(/^XSRF-TOKEN=[\w-]{32}; Path=\/; SameSite=Strict$/);
      expect(cookie).not.toContain('ancien');
    }
  });

  it('marks the XSRF cookie Secure, and names it __Host-, when the site is reached over https, behind a proxy it trusts', async () => {
    const proxied = await buildApp({
      site: readSiteServerConfig({ DIST_ROOT: distRoot, LOG_LEVEL: 'silent', TRUST_PROXY: 'loopback' }),
      api: testConfig(),
    });
    try {
      const https = await proxied.inject({ url: '/api/xsrf', headers: { 'x-forwarded-proto': 'https' } });
      expect(String(https.headers['set-cookie'])).toMatch(
        /^__Host-XSRF-TOKEN=[\w-]{32}; Path=\/; SameSite=Strict; Secure$/,
      );
      // A visitor cannot claim https to a server that trusts no proxy.
      const forged = await app.inject({ url: '/api/xsrf', headers: { 'x-forwarded-proto': 'https' } });
      expect(String(forged.headers['set-cookie'])).not.toContain('Secure');
    } finally {
      await proxied.close();
    }
  });

  it('refuses a write without the cookie, or with a header that differs, saying what mends it', async () => {
    const body = { live: true };
    const admin = { authorization: 'Bearer e2e-admin', 'content-type': 'application/json' };
    const none = await app.inject({ method: 'POST', url: '/api/admin/live', headers: admin, payload: body });
    expect(none.statusCode).toBe(403);
    expect(none.json<ApiError>()).toEqual({
      error: 'xsrf',
      message:
        'Jeton XSRF absent : ce navigateur n’a pas gardé le cookie du site. Autorisez les cookies de ce site, puis réessayez.',
    });
    const token = await xsrfCookie(app);
    for (const header of [{}, { 'x-xsrf-token': `${token}x` }, { 'x-xsrf-token': '' }]) {
      const wrong = await app.inject({
        method: 'POST',
        url: '/api/admin/live',
        headers: { ...admin, cookie: `XSRF-TOKEN=${token}`, ...header },
        payload: body,
      });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json<ApiError>()).toEqual({ error: 'xsrf', message: 'Jeton XSRF invalide : réessayez.' });
    }
  });

  it('lists the label releases, newest first, limited on request', async () => {
    const all = (await app.inject({ url: '/api/releases' })).json<Release[]>();
    expect(all).toHaveLength(36);
    expect(all.filter((r) => r.artist === 'Various Artists').length).toBeGreaterThanOrEqual(10);
    for (const release of all) {
      expect(release.href).toMatch(/^\/album\/[a-z0-9-]+$/);
      expect(release.image).toBe(`/assets/images/releases/${release.href.slice('/album/'.length)}.webp`);
    }
    expect((await app.inject({ url: '/api/releases?limit=4' })).json<Release[]>()).toEqual(all.slice(0, 4));
  });

  it('refuses a bad limit with a French message naming the parameter', async () => {
    for (const url of ['/api/podcasts?limit=0', '/api/podcasts?limit=abc', '/api/releases?limit=100000']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(400);
      expect(res.json<ApiError>()).toEqual({
        error: 'bad_request',
        message: expect.stringMatching(/« limit »/) as string,
      });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('resolves a demo track to its replay file, and refuses a malformed or unknown URN', async () => {
    const [withUrn] = (await app.inject({ url: '/api/podcasts' }))
      .json<PodcastItem[]>()
      .filter((item) => item.trackUrn !== undefined);
    const res = await app.inject({ url: `/api/track/${encodeURIComponent(withUrn?.trackUrn ?? '')}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe(withUrn?.url);
    const long = [`soundcloud:tracks:${'1'.repeat(100)}`, 'x'.repeat(101), `soundcloud:tracks:${'9'.repeat(8000)}`];
    for (const urn of ['abc', 'soundcloud:tracks:', 'soundcloud:playlists:12', 'soundcloud:tracks:12x', ...long]) {
      const bad = await app.inject({ url: `/api/track/${encodeURIComponent(urn)}` });
      expect(bad.statusCode).toBe(400);
      expect(bad.json<ApiError>().error).toBe('invalid_track');
    }
    const unknown = await app.inject({ url: '/api/track/soundcloud:tracks:123' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ApiError>().error).toBe('track_not_found');
  });

  it('says the demo radio is not live, and the admin can switch it with the XSRF pair and the token', async () => {
    expect((await app.inject({ url: '/api/islive' })).json()).toEqual({ live: false });
    const token = await xsrfCookie(app);
    const post = (headers: Record<string, string>, payload: unknown = { live: true }) =>
      app.inject({ method: 'POST', url: '/api/admin/live', headers, payload: payload as object });

    const noXsrf = await post({ authorization: 'Bearer e2e-admin' });
    expect(noXsrf.statusCode).toBe(403);
    expect(noXsrf.json<ApiError>().error).toBe('xsrf');
    const mismatch = await post({
      authorization: 'Bearer e2e-admin',
      cookie: `XSRF-TOKEN=${token}`,
      'x-xsrf-token': 'autre',
    });
    expect(mismatch.statusCode).toBe(403);

    const xsrf = { cookie: `XSRF-TOKEN=${token}`, 'x-xsrf-token': token };
    expect((await post({ ...xsrf, authorization: 'Bearer mauvais' })).statusCode).toBe(401);
    expect((await post({ ...xsrf })).statusCode).toBe(401);
    const invalid = await post({ ...xsrf, authorization: 'Bearer e2e-admin' }, { live: 'oui' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json<ApiError>().message).toMatch(/« live »/);

    const on = await post({ ...xsrf, authorization: 'Bearer e2e-admin' });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ live: true });
    expect((await app.inject({ url: '/api/islive' })).json()).toEqual({ live: true });
    await post({ ...xsrf, authorization: 'Bearer e2e-admin' }, { live: false });
    expect((await app.inject({ url: '/api/islive' })).json()).toEqual({ live: false });
  });

  it('answers JSON 404 for an unknown API path', async () => {
    const res = await app.inject({ url: '/api/nimporte' });
    expect(res.statusCode).toBe(404);
    expect(res.json<ApiError>().error).toBe('not_found');
  });

  it('serves demo replays with byte ranges so seeking works, and nothing outside them', async () => {
    const whole = await app.inject({ url: '/api/demo/replays/pluie-douce.mp3' });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/mpeg');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const part = await app.inject({ url: '/api/demo/replays/pluie-douce.mp3', headers: { range: 'bytes=1000-1999' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${String(whole.rawPayload.length)}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(1000, 2000));
    for (const url of [
      '/api/demo/replays/%2e%2e%2flive.mp3',
      '/api/demo/replays/..%2f..%2fpackage.json',
      '/api/demo/replays/inconnu.mp3',
    ]) {
      expect((await app.inject({ url })).statusCode).toBe(404);
    }
  });
});

describe('the admin route', () => {
  it('does not exist without ADMIN_TOKEN', async () => {
    const app = await buildApi({ config: testConfig() });
    const res = await app.inject({ method: 'POST', url: '/api/admin/live', payload: { live: true } });
    expect(res.statusCode).toBe(404);
    await app.close();
  });
});

describe('the demo now-playing rotation and its live channel', () => {
  it('changes the song every rotation period, for GET and for every SSE listener', async () => {
    const clock = manualClock(Date.UTC(2026, 2, 4, 18, 0, 0));
    const config = testConfig({ ttlMs: { ...testConfig().ttlMs, nowPlaying: 20 } });
    config.demo.rotationMs = 180_000;
    const app = await buildApi({ config, now: clock.now, demoAnchor: anchor });
    const base = await listen(app);
    const first = (await app.inject({ url: '/api/nowplaying' })).json<NowPlaying>();
    expect(first.artist).not.toBe('');
    // « Titres précédents »: the rotation's five tracks before, the newest begun one period ago.
    expect(first.history).toHaveLength(5);
    expect(first.history?.[0]?.playedAt).toBe(new Date(Math.floor(clock.now() / 180_000 - 1) * 180_000).toISOString());

    const listeners = await Promise.all([
      readEvents(`${base}/api/nowplaying/events`),
      readEvents(`${base}/api/nowplaying/events`),
    ]);
    expect(listeners[0].response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(listeners[0].response.headers['access-control-allow-origin']).toBe('*');
    for (const listener of listeners) expect(await listener.until(1)).toEqual([first]);

    const head = await app.inject({ method: 'HEAD', url: '/api/nowplaying/events' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/event-stream; charset=utf-8');

    clock.advance(180_000);
    const second = (await app.inject({ url: '/api/nowplaying' })).json<NowPlaying>();
    expect(second).not.toEqual(first);
    for (const listener of listeners) expect((await listener.until(2))[1]).toEqual(second);
    for (const listener of listeners) listener.close();
    await app.close();
  }, 10_000);

  it('numbers its events: a listener back with Last-Event-ID gets what it missed, and nothing twice', async () => {
    const clock = manualClock(Date.UTC(2026, 2, 4, 18, 0, 0));
    const config = testConfig({ ttlMs: { ...testConfig().ttlMs, nowPlaying: 20 } });
    config.demo.rotationMs = 180_000;
    const app = await buildApi({ config, now: clock.now, demoAnchor: anchor });
    const base = await listen(app);
    const url = `${base}/api/nowplaying/events`;
    try {
      const staying = await readEvents(url);
      await staying.until(1);
      const [firstId] = staying.ids;
      expect(firstId).toMatch(/\S/);
      clock.advance(180_000);
      const [, second] = await staying.until(2);
      const secondId = staying.ids[1] ?? '';
      expect(secondId).not.toBe(firstId);

      // Left after the first event: gets the second, not the first again.
      const back = await readEvents(url, { 'last-event-id': firstId ?? '' });
      expect(await back.until(1)).toEqual([second]);
      expect(back.ids).toEqual([secondId]);
      // Up to date: nothing until the next song, then that song alone.
      const upToDate = await readEvents(url, { 'last-event-id': secondId });
      // An unknown id (another run's, or forged): the current song.
      const stranger = await readEvents(url, { 'last-event-id': '<script>' });
      expect(await stranger.until(1)).toEqual([second]);
      clock.advance(180_000);
      const [, , third] = await staying.until(3);
      expect(await upToDate.until(1)).toEqual([third]);
      expect(upToDate.ids).toEqual([staying.ids[2]]);
      for (const listener of [staying, back, upToDate, stranger]) listener.close();
    } finally {
      await app.close();
    }
  }, 10_000);

  it('limits the open channels per client', async () => {
    const config = testConfig();
    config.limits = { ...config.limits, sseConnectionsPerClient: 2 };
    const app = await buildApi({ config });
    const base = await listen(app);
    try {
      const open = [
        await readEvents(`${base}/api/nowplaying/events`),
        await readEvents(`${base}/api/nowplaying/events`),
      ];
      await Promise.all(open.map((listener) => listener.until(1)));
      const third = await app.inject({ url: '/api/nowplaying/events' });
      expect(third.statusCode).toBe(429);
      expect(third.json<ApiError>()).toEqual({
        error: 'too_many_streams',
        message: 'Trop de connexions ouvertes depuis votre adresse.',
      });
      for (const listener of open) listener.close();
    } finally {
      await app.close();
    }
  });

  it('limits the rate of new channels per client', async () => {
    const config = testConfig();
    config.limits = { ...config.limits, ssePerMinute: 3 };
    const app = await buildApi({ config });
    const base = await listen(app);
    try {
      for (let i = 0; i < 3; i += 1) {
        const listener = await readEvents(`${base}/api/nowplaying/events`);
        await listener.until(1);
        listener.close();
      }
      const fourth = await app.inject({ url: '/api/nowplaying/events' });
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json<ApiError>()).toEqual({
        error: 'rate_limited',
        message: expect.stringMatching(/^Trop de requêtes : réessayez dans \d+ s\.$/) as string,
      });
    } finally {
      await app.close();
    }
  });
});

describe('the demo live stream', () => {
  it('streams audio/mpeg that never ends, starting on a frame', async () => {
    const app = await buildApi({ config: testConfig({ demo: { ...testConfig().demo, audioDir: fakeAudioDir() } }) });
    const base = await listen(app);
    const { status, headers, body } = await firstBytes(`${base}/api/demo/live.mp3`, 2000);
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('audio/mpeg');
    expect(headers['content-length']).toBeUndefined();
    expect(headers['cache-control']).toBe('no-cache, no-store');
    expect([body[0], body[1]]).toEqual([0xff, 0xf3]);
    const head = await app.inject({ method: 'HEAD', url: '/api/demo/live.mp3' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('audio/mpeg');
    // A path climbing out of the replays folder, sent as is (inject would normalise it).
    const climb = await firstBytes(`${base}/api/demo/replays/../../../package.json`, 1);
    expect(climb.status).toBe(404);
    await app.close();
  });

  it('answers 503 while the demo audio is not generated', async () => {
    const app = await buildApi({ config: testConfig() });
    const res = await app.inject({ url: '/api/demo/live.mp3' });
    expect(res.statusCode).toBe(503);
    expect(res.json<ApiError>()).toEqual({
      error: 'demo_audio_missing',
      message: expect.stringContaining('npm run build') as string,
    });
    await app.close();
  });
});

describe('rate limit on /api/track', () => {
  it('answers 429 with a French message past the per-client limit', async () => {
    const config = testConfig();
    config.limits = { ...config.limits, trackPerMinute: 2 };
    const app = await buildApi({ config });
    for (let i = 0; i < 2; i += 1)
      expect((await app.inject({ url: '/api/track/soundcloud:tracks:1' })).statusCode).toBe(404);
    const limited = await app.inject({ url: '/api/track/soundcloud:tracks:1' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json<ApiError>().error).toBe('rate_limited');
    expect((await app.inject({ url: '/api/podcasts?limit=1' })).statusCode).toBe(200);
    await app.close();
  });
});

describe('the demo routes in real mode (every upstream configured)', () => {
  it('are unknown paths: 404 like any other unknown /api path', async () => {
    const nowhere = 'http://127.0.0.1:9';
    const credentials = { clientId: 'id', clientSecret: 'secret', apiUrl: nowhere, authUrl: nowhere };
    const app = await buildApp({
      site,
      api: testConfig({
        rss: { url: `${nowhere}/sounds.rss`, maxPages: 1 },
        soundcloud: credentials,
        twitch: { ...credentials, channel: 'collectif' },
        azuracast: { url: `${nowhere}/nowplaying` },
        adminToken: 'e2e-admin',
        demo: { ...testConfig().demo, audioDir: fakeAudioDir() },
      }),
    });
    try {
      const unknown = await app.inject({ url: '/api/nimporte' });
      expect(unknown.statusCode).toBe(404);
      for (const request of [
        { url: '/api/demo/live.mp3' },
        { url: '/api/demo/replays/pluie-douce.mp3' },
        {
          method: 'POST' as const,
          url: '/api/admin/live',
          headers: { authorization: 'Bearer e2e-admin' },
          payload: { live: true },
        },
      ]) {
        const res = await app.inject(request);
        expect(res.statusCode).toBe(404);
        expect(res.json<ApiError>().error).toBe('not_found');
        expect(res.headers['content-type']).toBe(unknown.headers['content-type']);
      }
    } finally {
      await app.close();
    }
  });
});
