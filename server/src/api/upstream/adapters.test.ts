import { manualClock } from '../testing/fixtures';
import { json, startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { mapNowPlaying, azuracastNowPlaying } from '../../upstream/azuracast';
import { pickStreamUrl, soundcloudStreams } from './soundcloud';
import { isLiveAnswer, twitchLiveStatus } from './twitch';

let fake: FakeUpstream;
const limits = { timeoutMs: 1000, maxBytes: 64 * 1024 };

beforeEach(async () => {
  fake = await startFakeUpstream();
});
afterEach(() => fake.close());

/** A token endpoint that hands out t1, t2, … and an API that accepts only the tokens not revoked. */
function tokenService(path: string, lifetimeS = 3600) {
  let issued = 0;
  const revoked = new Set<string>();
  fake.on(path, (_request, response) => {
    issued += 1;
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ access_token: `t${String(issued)}`, expires_in: lifetimeS, token_type: 'bearer' }));
  });
  return {
    revoke: (token: string) => revoked.add(token),
    accepts: (header: string | undefined) => header !== undefined && !revoked.has(header.split(' ')[1] ?? ''),
    get issued() {
      return issued;
    },
  };
}

describe('SoundCloud track streams', () => {
  const config = () => ({
    clientId: 'id',
    clientSecret: 'secret',
    apiUrl: fake.url,
    authUrl: `${fake.url}/oauth/token`,
  });

  it('prefers the progressive mp3, else HLS', () => {
    expect(pickStreamUrl({ hls_aac_160_url: 'https://h/a.m3u8', http_mp3_128_url: 'https://p/a.mp3' })).toBe(
      'https://p/a.mp3',
    );
    expect(pickStreamUrl({ hls_aac_160_url: 'https://h/a.m3u8', preview_mp3_128_url: 'https://p/preview.mp3' })).toBe(
      'https://h/a.m3u8',
    );
    expect(() => pickStreamUrl({ preview_mp3_128_url: 'https://p/preview.mp3' })).toThrow(/aucun flux/);
  });

  it('gets an app token with client credentials and reuses it', async () => {
    const tokens = tokenService('/oauth/token');
    fake.on('/tracks/soundcloud:tracks:42/streams', (request, response) => {
      json(tokens.accepts(request.headers.authorization) ? 200 : 401, { http_mp3_128_url: 'https://cdn/42.mp3' })(
        request,
        response,
      );
    });
    const resolve = soundcloudStreams(config(), limits);
    expect(await resolve('soundcloud:tracks:42')).toBe('https://cdn/42.mp3');
    expect(await resolve('soundcloud:tracks:42')).toBe('https://cdn/42.mp3');
    expect(tokens.issued).toBe(1);
    const tokenRequest = fake.requests.find((r) => r.path === '/oauth/token');
    expect(tokenRequest?.method).toBe('POST');
    expect(tokenRequest?.body).toBe('grant_type=client_credentials');
    expect(tokenRequest?.headers.authorization).toBe(`Basic ${Buffer.from('id:secret').toString('base64')}`);
    expect(fake.requests.at(-1)?.headers.authorization).toBe('OAuth t1');
  });

  it('gets a new token once when the API says 401 (expired), then retries', async () => {
    const tokens = tokenService('/oauth/token');
    fake.on('/tracks/soundcloud:tracks:42/streams', (request, response) => {
      json(tokens.accepts(request.headers.authorization) ? 200 : 401, { hls_aac_160_url: 'https://cdn/42.m3u8' })(
        request,
        response,
      );
    });
    const resolve = soundcloudStreams(config(), limits);
    await resolve('soundcloud:tracks:42');
    tokens.revoke('t1');
    expect(await resolve('soundcloud:tracks:42')).toBe('https://cdn/42.m3u8');
    expect(tokens.issued).toBe(2);
    expect(fake.requests.at(-1)?.headers.authorization).toBe('OAuth t2');
  });

  it('renews a token that reached its expiry without waiting for a 401', async () => {
    const clock = manualClock();
    const tokens = tokenService('/oauth/token', 3600);
    fake.on('/tracks/soundcloud:tracks:1/streams', json(200, { http_mp3_128_url: 'https://cdn/1.mp3' }));
    const resolve = soundcloudStreams(config(), limits, clock.now);
    await resolve('soundcloud:tracks:1');
    clock.advance(3600 * 1000);
    await resolve('soundcloud:tracks:1');
    expect(tokens.issued).toBe(2);
  });

  it('reports an unknown track, refused credentials and a track without streams', async () => {
    tokenService('/oauth/token');
    fake.on('/tracks/soundcloud:tracks:9/streams', json(404, { error: 'not found' }));
    fake.on('/tracks/soundcloud:tracks:8/streams', json(200, {}));
    const resolve = soundcloudStreams(config(), limits);
    await expect(resolve('soundcloud:tracks:9')).rejects.toMatchObject({ failure: 'not_found' });
    await expect(resolve('soundcloud:tracks:8')).rejects.toMatchObject({ failure: 'invalid' });
    fake.on('/oauth/token', json(401, { error: 'invalid_client' }));
    const refused = soundcloudStreams(config(), limits);
    await expect(refused('soundcloud:tracks:9')).rejects.toMatchObject({ failure: 'auth' });
  });

  it('never builds a request from a malformed URN', async () => {
    const resolve = soundcloudStreams(config(), limits);
    await expect(resolve('soundcloud:tracks:1/../../admin')).rejects.toMatchObject({ failure: 'invalid' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('Twitch live status', () => {
  const config = () => ({
    clientId: 'cid',
    clientSecret: 'csecret',
    channel: 'example_collectif',
    apiUrl: `${fake.url}/helix`,
    authUrl: `${fake.url}/oauth2/token`,
  });

  it('reads live from Helix streams: a live entry, or an empty data list', () => {
    expect(isLiveAnswer({ data: [{ type: 'live', title: 'Direct' }], pagination: {} })).toBe(true);
    expect(isLiveAnswer({ data: [], pagination: {} })).toBe(false);
    expect(() => isLiveAnswer({ error: 'x' })).toThrow(/data/);
  });

  it('asks with the app token and the client id, renewing the token once on 401', async () => {
    const tokens = tokenService('/oauth2/token');
    let live = true;
    fake.on('/helix/streams', (request, response) => {
      json(tokens.accepts(request.headers.authorization) ? 200 : 401, { data: live ? [{ type: 'live' }] : [] })(
        request,
        response,
      );
    });
    const isLive = twitchLiveStatus(config(), limits);
    expect(await isLive()).toBe(true);
    const call = fake.requests.at(-1);
    expect(call?.path).toBe('/helix/streams?user_login=example_collectif');
    expect(call?.headers).toMatchObject({ authorization: 'Bearer t1', 'client-id': 'cid' });
    expect(fake.requests.find((r) => r.path === '/oauth2/token')?.body).toBe(
      'client_id=cid&client_secret=csecret&grant_type=client_credentials',
    );
    tokens.revoke('t1');
    live = false;
    expect(await isLive()).toBe(false);
    expect(tokens.issued).toBe(2);
  });

  it('fails with an auth error when even a new token is refused', async () => {
    tokenService('/oauth2/token');
    fake.on('/helix/streams', json(401, { message: 'Invalid OAuth token' }));
    await expect(twitchLiveStatus(config(), limits)()).rejects.toMatchObject({ failure: 'auth' });
  });
});

describe('AzuraCast now playing', () => {
  it("maps the first station's song, with 'Inconnu' for missing values", () => {
    const entry = (song: unknown) => ({ station: { name: 'Radio' }, now_playing: { song } });
    expect(
      mapNowPlaying([entry({ artist: 'Melodica Joe', title: 'Rue des Filatiers', art: 'https://r/a.jpg' })]),
    ).toEqual({ artist: 'Melodica Joe', title: 'Rue des Filatiers', cover: 'https://r/a.jpg' });
    expect(mapNowPlaying(entry({ artist: '', title: 'Sans artiste' }))).toEqual({
      artist: 'Inconnu',
      title: 'Sans artiste',
    });
    expect(mapNowPlaying([{ now_playing: null }])).toEqual({ artist: 'Inconnu', title: 'Inconnu' });
    expect(() => mapNowPlaying([])).toThrow(/aucune station/);
  });

  describe('« Titres précédents » from song_history', () => {
    const NOW = Date.UTC(2026, 2, 4, 20, 45);
    /** Unix seconds, as AzuraCast gives them: 20:mm UTC on the test's day. */
    const at = (minute: number) => Date.UTC(2026, 2, 4, 20, minute) / 1000;
    const iso = (minute: number) => new Date(at(minute) * 1000).toISOString();
    const played = (minute: number, song: unknown = { artist: `A${String(minute)}`, title: `T${String(minute)}` }) => ({
      sh_id: 1000 + minute,
      played_at: at(minute),
      duration: 240,
      playlist: 'Jour',
      streamer: '',
      is_request: false,
      song: { id: 'x', text: 'texte', album: '', genre: '', art: 'https://r/art.jpg', ...(song as object) },
    });
    const station = (history?: unknown) => [
      {
        station: { name: 'Radio', shortcode: 'radio' },
        now_playing: { sh_id: 1044, played_at: at(44), duration: 300, song: { artist: 'Now', title: 'Playing' } },
        ...(history === undefined ? {} : { song_history: history }),
      },
    ];

    it('keeps the five newest previous tracks, newest first, with their start in UTC', () => {
      const history = [40, 36, 31, 27, 22, 18, 14].map((minute) => played(minute));
      expect(mapNowPlaying(station(history), NOW)).toEqual({
        artist: 'Now',
        title: 'Playing',
        history: [
          { artist: 'A40', title: 'T40', playedAt: '2026-03-04T20:40:00.000Z' },
          { artist: 'A36', title: 'T36', playedAt: iso(36) },
          { artist: 'A31', title: 'T31', playedAt: iso(31) },
          { artist: 'A27', title: 'T27', playedAt: iso(27) },
          { artist: 'A22', title: 'T22', playedAt: iso(22) },
        ],
      });
      // Out of order, they are put back in order.
      expect(mapNowPlaying(station([played(31), played(40), played(36)]), NOW).history?.map((t) => t.title)).toEqual([
        'T40',
        'T36',
        'T31',
      ]);
    });

    it('leaves the history out when the upstream gives none', () => {
      for (const history of [undefined, [], null, 'rien', { 0: played(40) }]) {
        expect(mapNowPlaying(station(history), NOW)).toEqual({ artist: 'Now', title: 'Playing' });
      }
      // An answer with none usable has none either.
      expect(mapNowPlaying(station([null, played(40, { artist: '', title: ' ' })]), NOW)).toEqual({
        artist: 'Now',
        title: 'Playing',
      });
    });

    it('skips malformed entries, and the current song if it is there too', () => {
      const history = [
        played(44, { artist: 'Now', title: 'Playing' }),
        { ...played(43), sh_id: 1044 },
        null,
        'A — T',
        [played(42)],
        { ...played(41), played_at: undefined },
        { ...played(40), played_at: String(at(40)) },
        { ...played(39), played_at: Number.NaN },
        { ...played(38), played_at: Date.UTC(1999, 11, 31, 23, 59) / 1000 },
        { ...played(37), played_at: (NOW + 25 * 3600 * 1000) / 1000 },
        played(36, { artist: '', title: '' }),
        played(35, { artist: 3, title: null }),
        { ...played(34), song: null },
        played(33, { artist: '  ', title: ' Sans artiste ' }),
        played(32, { artist: 'Sans titre', title: undefined }),
        { ...played(31), played_at: (NOW + 3600 * 1000) / 1000 },
      ];
      expect(mapNowPlaying(station(history), NOW).history).toEqual([
        { artist: 'A31', title: 'T31', playedAt: new Date(NOW + 3600 * 1000).toISOString() },
        { artist: 'Inconnu', title: 'Sans artiste', playedAt: iso(33) },
        { artist: 'Sans titre', title: 'Inconnu', playedAt: iso(32) },
      ]);
    });

    it('reads the history of a single station answer too', () => {
      const [entry] = station([played(40)]);
      expect(mapNowPlaying(entry, NOW).history).toEqual([{ artist: 'A40', title: 'T40', playedAt: iso(40) }]);
    });
  });

  it('reads the configured now-playing URL', async () => {
    fake.on(
      '/api/nowplaying/radio',
      json(200, { now_playing: { song: { artist: 'Verglas', title: 'Froid Sec', art: 'javascript:alert(1)' } } }),
    );
    const read = azuracastNowPlaying({ url: `${fake.url}/api/nowplaying/radio` }, limits);
    expect(await read()).toEqual({ artist: 'Verglas', title: 'Froid Sec' });
  });
});
