import type { FastifyInstance } from 'fastify';
import type { ApiError, PodcastItem } from '@collectif/shared';
import type { ApiConfig } from './env';
import { buildApi, listen, manualClock, testConfig } from './testing/fixtures';
import { json, silent, startFakeUpstream, text, type FakeHandler, type FakeUpstream } from './testing/fake-upstream';
import { rssFeed, rssItem } from './testing/feeds';
import { readEvents } from './testing/streams';

let fake: FakeUpstream;
let app: FastifyInstance | undefined;
let clock: ReturnType<typeof manualClock>;

beforeEach(async () => {
  fake = await startFakeUpstream();
  clock = manualClock();
});

afterEach(async () => {
  await app?.close();
  app = undefined;
  await fake.close();
});

const TTL = 60_000;

/** The API with the given upstreams pointed at the fake server, on the test's clock. */
async function api(overrides: Partial<ApiConfig>): Promise<FastifyInstance> {
  app = await buildApi({
    config: testConfig({
      ttlMs: { feed: TTL, live: TTL, nowPlaying: TTL, track: TTL, schedule: TTL, events: TTL },
      adminToken: 'e2e-admin',
      ...overrides,
    }),
    now: clock.now,
  });
  return app;
}

const feedXml = rssFeed([
  rssItem({ id: 30, title: 'Mila Rose - Back to back #2', pubDate: 'Wed, 04 Mar 2026 18:00:00 +0000' }),
  rssItem({ id: 29, title: 'Jingle de la radio', length: 812_345, pubDate: 'Tue, 03 Mar 2026 18:00:00 +0000' }),
  rssItem({ id: 28, title: 'Ozone - Dub station #9', pubDate: 'Mon, 02 Mar 2026 18:00:00 +0000', image: null }),
]);

describe('the podcast feed from the SoundCloud RSS upstream', () => {
  const rss = () => ({ rss: { url: `${fake.url}/sounds.rss`, maxPages: 1 } });

  it('maps the podcasts and caches the feed: one upstream request, then answers from memory', async () => {
    fake.on('/sounds.rss', text(200, feedXml));
    const server = await api(rss());
    const first = await server.inject({ url: '/api/podcasts?limit=8' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-cache']).toBe('MISS');
    expect(first.json<PodcastItem[]>()).toEqual([
      {
        url: 'https://feeds.soundcloud.com/stream/30-collective-show.mp3',
        duration: 8766,
        artist: 'Mila Rose',
        show: 'Back to back #2',
        cover: 'https://i1.sndcdn.com/artworks-30-t3000x3000.jpg',
        link: 'https://soundcloud.com/collective/show-30',
        pubDate: '2026-03-04T18:00:00.000Z',
        slug: 'show-30',
      },
      expect.objectContaining({ artist: 'Ozone', cover: '/assets/images/default-cover.webp' }) as PodcastItem,
    ]);
    const second = await server.inject({ url: '/api/soundcloud-rss' });
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body).toBe(feedXml);
    expect(fake.count('/sounds.rss')).toBe(1);
  });

  it('keeps track URNs when SoundCloud API credentials are configured', async () => {
    fake.on('/sounds.rss', text(200, feedXml));
    const server = await api({
      ...rss(),
      soundcloud: { clientId: 'id', clientSecret: 's', apiUrl: fake.url, authUrl: `${fake.url}/oauth/token` },
    });
    const [item] = (await server.inject({ url: '/api/podcasts?limit=1' })).json<PodcastItem[]>();
    expect(item?.trackUrn).toBe('soundcloud:tracks:30');
  });

  it('shares one upstream request between concurrent visitors (single flight)', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    fake.on('/sounds.rss', (request, response) => {
      void gate.then(() => {
        text(200, feedXml)(request, response);
      });
    });
    const server = await api(rss());
    const answers = Promise.all(Array.from({ length: 6 }, () => server.inject({ url: '/api/podcasts?limit=8' })));
    while (fake.count('/sounds.rss') === 0) await new Promise((resolve) => setImmediate(resolve));
    release();
    const responses = await answers;
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(fake.count('/sounds.rss')).toBe(1);
  });

  it('serves the last good feed, marked stale, when the XML turns malformed', async () => {
    let handler: FakeHandler = text(200, feedXml);
    fake.on('/sounds.rss', (request, response) => {
      handler(request, response);
    });
    const server = await api(rss());
    const good = await server.inject({ url: '/api/podcasts' });
    handler = text(200, feedXml.replace('</item>', '</itme>'));
    clock.advance(TTL);
    const stale = await server.inject({ url: '/api/podcasts' });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['x-cache']).toBe('STALE');
    expect(stale.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(stale.body).toBe(good.body);
    const xml = await server.inject({ url: '/api/soundcloud-rss' });
    expect(xml.body).toBe(feedXml);
    expect(fake.count('/sounds.rss')).toBe(2);
  });

  it.each<[string, FakeHandler, number, string, RegExp]>([
    [
      'malformed XML',
      text(200, '<rss><channel><item></channel></rss>'),
      502,
      'upstream_invalid',
      /illisible.*XML mal formé/,
    ],
    [
      'an HTML page',
      text(200, '<html><body>Maintenance</body></html>', 'text/html'),
      502,
      'upstream_invalid',
      /illisible/,
    ],
    ['a 500', text(500, 'Internal Server Error', 'text/plain'), 502, 'upstream_error', /HTTP 500/],
    ['a huge body', text(200, `<rss>${' '.repeat(200 * 1024)}</rss>`), 502, 'upstream_too_large', /taille autorisée/],
    ['a slow upstream', silent, 504, 'upstream_timeout', /n’a pas répondu à temps/],
  ])('answers %s without a cached feed with a JSON error', async (_case, handler, status, code, message) => {
    fake.on('/sounds.rss', handler);
    const server = await api(rss());
    const res = await server.inject({ url: '/api/podcasts?limit=8' });
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<ApiError>();
    expect(body.error).toBe(code);
    expect(body.message).toMatch(message);
    expect(body.message).toMatch(/^(Le flux des émissions|La réponse du flux des émissions) /);
  });

  it('answers 503 when the feed host is unreachable', async () => {
    const server = await api({ rss: { url: 'http://127.0.0.1:1/sounds.rss', maxPages: 1 } });
    const res = await server.inject({ url: '/api/soundcloud-rss' });
    expect(res.statusCode).toBe(503);
    expect(res.json<ApiError>()).toEqual({
      error: 'upstream_unavailable',
      message: 'Le flux des émissions est injoignable pour le moment.',
    });
  });
});

describe('the live status from Twitch', () => {
  const twitch = () => ({
    twitch: {
      clientId: 'cid',
      clientSecret: 'secret',
      channel: 'example_collectif',
      apiUrl: `${fake.url}/helix`,
      authUrl: `${fake.url}/oauth2/token`,
    },
  });

  it('answers { live } from Helix, cached for the TTL', async () => {
    fake.on('/oauth2/token', json(200, { access_token: 'tok', expires_in: 5000, token_type: 'bearer' }));
    fake.on('/helix/streams', json(200, { data: [{ type: 'live', title: 'Direct du studio' }], pagination: {} }));
    const server = await api(twitch());
    const res = await server.inject({ url: '/api/islive' });
    expect(res.json()).toEqual({ live: true });
    expect(res.headers['cache-control']).toMatch(/max-age=(59|60)$/);
    await server.inject({ url: '/api/islive' });
    expect(fake.count('/helix/streams')).toBe(1);
    expect(fake.count('/oauth2/token')).toBe(1);
  });

  it('keeps the last status when Twitch fails, and refuses the demo switch', async () => {
    let up = true;
    fake.on('/oauth2/token', json(200, { access_token: 'tok', expires_in: 5000 }));
    fake.on('/helix/streams', (request, response) => {
      (up ? json(200, { data: [] }) : json(503, { error: 'Service Unavailable' }))(request, response);
    });
    const server = await api(twitch());
    expect((await server.inject({ url: '/api/islive' })).json()).toEqual({ live: false });
    up = false;
    clock.advance(TTL);
    const stale = await server.inject({ url: '/api/islive' });
    expect(stale.json()).toEqual({ live: false });
    expect(stale.headers['x-cache']).toBe('STALE');
    const cookie = 'XSRF-TOKEN=t0k3n';
    const toggle = await server.inject({
      method: 'POST',
      url: '/api/admin/live',
      headers: { cookie, 'x-xsrf-token': 't0k3n', authorization: 'Bearer e2e-admin' },
      payload: { live: true },
    });
    expect(toggle.statusCode).toBe(409);
  });

  it('says so when Twitch refuses the credentials', async () => {
    fake.on('/oauth2/token', json(403, { message: 'invalid client secret' }));
    const server = await api(twitch());
    const res = await server.inject({ url: '/api/islive' });
    expect(res.statusCode).toBe(502);
    expect(res.json<ApiError>()).toEqual({
      error: 'upstream_auth',
      message: 'Twitch a refusé les identifiants du serveur.',
    });
  });
});

describe('the now playing from AzuraCast', () => {
  const azuracast = () => ({ azuracast: { url: `${fake.url}/api/nowplaying` } });
  const station = (artist: string, title: string) => [
    {
      station: { name: 'Radio', shortcode: 'radio' },
      now_playing: { song: { artist, title, art: 'https://radio/art.jpg' } },
    },
  ];

  it('maps the first station and feeds every SSE listener from one upstream poll', async () => {
    let song = station('Verglas', 'Froid Sec');
    fake.on('/api/nowplaying', (request, response) => {
      json(200, song)(request, response);
    });
    const config = {
      ...azuracast(),
      ttlMs: { feed: TTL, live: TTL, nowPlaying: 20, track: TTL, schedule: TTL, events: TTL },
    };
    const server = await api(config);
    const base = await listen(server);
    expect((await server.inject({ url: '/api/nowplaying' })).json()).toEqual({
      artist: 'Verglas',
      title: 'Froid Sec',
      cover: 'https://radio/art.jpg',
    });
    const listeners = await Promise.all([1, 2, 3].map(() => readEvents(`${base}/api/nowplaying/events`)));
    for (const listener of listeners) await listener.until(1);
    // The cache runs on the test clock: until it moves, polls never reach the upstream.
    expect(fake.count('/api/nowplaying')).toBe(1);

    song = station('', 'Sans artiste');
    clock.advance(20);
    for (const listener of listeners) {
      expect((await listener.until(2))[1]).toEqual({
        artist: 'Inconnu',
        title: 'Sans artiste',
        cover: 'https://radio/art.jpg',
      });
    }
    expect(fake.count('/api/nowplaying')).toBe(2);
    for (const listener of listeners) listener.close();
  });

  it('sends « Titres précédents » with the song, in the answer and on the channel', async () => {
    // The test clock's 18:00 UTC: the songs before started at 17:56 and 17:52.
    const seconds = (minute: number) => Date.UTC(2026, 2, 4, 17, minute) / 1000;
    fake.on(
      '/api/nowplaying',
      json(200, [
        {
          ...station('Verglas', 'Froid Sec')[0],
          song_history: [
            { sh_id: 2, played_at: seconds(56), song: { artist: 'Onde Courte', title: 'Grandes Ondes' } },
            { sh_id: 1, played_at: seconds(52), song: { artist: '158cm', title: 'Talons Plats' } },
            { sh_id: 0, played_at: 'hier', song: { artist: 'Sans', title: 'Date' } },
          ],
        },
      ]),
    );
    const server = await api(azuracast());
    const expected = {
      artist: 'Verglas',
      title: 'Froid Sec',
      cover: 'https://radio/art.jpg',
      history: [
        { artist: 'Onde Courte', title: 'Grandes Ondes', playedAt: '2026-03-04T17:56:00.000Z' },
        { artist: '158cm', title: 'Talons Plats', playedAt: '2026-03-04T17:52:00.000Z' },
      ],
    };
    expect((await server.inject({ url: '/api/nowplaying' })).json()).toEqual(expected);
    const listener = await readEvents(`${await listen(server)}/api/nowplaying/events`);
    expect(await listener.until(1)).toEqual([expected]);
    listener.close();
  });

  it('answers 502 on a broken answer, and the channel still opens with the fallback', async () => {
    fake.on('/api/nowplaying', text(200, 'not json', 'text/plain'));
    const server = await api(azuracast());
    const res = await server.inject({ url: '/api/nowplaying' });
    expect(res.statusCode).toBe(502);
    expect(res.json<ApiError>().error).toBe('upstream_invalid');
    const listener = await readEvents(`${await listen(server)}/api/nowplaying/events`);
    expect(await listener.until(1)).toEqual([{ artist: 'Inconnu', title: 'Inconnu' }]);
    listener.close();
  });
});

describe('track streams from the SoundCloud API', () => {
  const soundcloud = () => ({
    soundcloud: { clientId: 'id', clientSecret: 'secret', apiUrl: fake.url, authUrl: `${fake.url}/oauth/token` },
    rss: { url: `${fake.url}/sounds.rss`, maxPages: 1 },
  });

  it('answers the stream URL as text, cached per track', async () => {
    fake.on('/oauth/token', json(200, { access_token: 'tok', expires_in: 3600 }));
    fake.on('/tracks/soundcloud:tracks:30/streams', json(200, { http_mp3_128_url: 'https://cf-media.example/30.mp3' }));
    const server = await api(soundcloud());
    const res = await server.inject({ url: '/api/track/soundcloud%3Atracks%3A30' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('https://cf-media.example/30.mp3');
    await server.inject({ url: '/api/track/soundcloud:tracks:30' });
    expect(fake.count('/tracks/soundcloud:tracks:30/streams')).toBe(1);
  });

  it('answers 404 for a track SoundCloud does not know', async () => {
    fake.on('/oauth/token', json(200, { access_token: 'tok', expires_in: 3600 }));
    fake.on('/tracks/soundcloud:tracks:31/streams', json(404, { code: 404 }));
    const server = await api(soundcloud());
    const res = await server.inject({ url: '/api/track/soundcloud:tracks:31' });
    expect(res.statusCode).toBe(404);
    expect(res.json<ApiError>()).toEqual({
      error: 'track_not_found',
      message: 'SoundCloud ne connaît pas cette piste.',
    });
  });

  it('answers 503 for a track when the feed is real but no API credentials are set', async () => {
    const server = await api({ rss: { url: `${fake.url}/sounds.rss`, maxPages: 1 } });
    const res = await server.inject({ url: '/api/track/soundcloud:tracks:30' });
    expect(res.statusCode).toBe(503);
    expect(res.json<ApiError>().error).toBe('track_unavailable');
  });
});

describe('an answer needs only the sources it shows', () => {
  // The label's releases are the collective's own content: only their artist links come from the
  // played artists' index, which needs the feed (docs/api.md, « What an answer depends on »).
  it('gives the releases while the feed is unreachable, without their artist links until it answers', async () => {
    const server = await api({ rss: { url: 'http://127.0.0.1:1/sounds.rss', maxPages: 1 } });
    const down = await server.inject({ url: '/api/releases?limit=3' });
    expect(down.statusCode).toBe(200);
    const releases = down.json<{ title: string; artistSlug?: string }[]>();
    expect(releases).toHaveLength(3);
    expect(releases.every((release) => release.title.length > 0 && release.artistSlug === undefined)).toBe(true);
    // Not kept by a cache past the outage.
    expect(down.headers['cache-control']).toBe('no-store');
  });
});
