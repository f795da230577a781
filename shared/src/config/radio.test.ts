import site from '../../config/site.json';
import { twitchChannelUrl } from './index';
import {
  RADIO_SETTINGS_ID,
  loadRadioSettings,
  parseRadioSettings,
  parseRenditions,
  parseTimeshift,
  radioSettings,
  radioSettingsReady,
  resetRadioSettings,
} from './radio';
import { startFakeServer, text, type FakeServer } from '../testing/fakeServer';

const defaults = {
  liveStreamUrl: site.radio.liveStreamUrl,
  chatEmbedUrl: site.radio.chatEmbedUrl,
  chatRoom: site.radio.chatRoom,
  twitchChannel: site.radio.twitchChannel,
  renditions: site.radio.renditions,
  timeshift: { playlist: '', hours: 0 },
  // Without the server's word (contract 3.3), the external page: today's behaviour.
  support: { page: '', external: site.links.donation },
};

/** The one mount of a radio that names no other. */
const normale = (url: string) => [{ id: 'normale', label: 'Normale', url, bitrate: 128, codec: 'mp3' }];

/** What the site server writes into every page (server/src/site/static.ts). */
function writeIntoPage(text: string): void {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = RADIO_SETTINGS_ID;
  script.textContent = text;
  document.head.append(script);
}

afterEach(() => {
  document.getElementById(RADIO_SETTINGS_ID)?.remove();
  resetRadioSettings();
  jest.restoreAllMocks();
});

describe('radioSettings', () => {
  it('falls back to site.json when the page carries no settings', () => {
    expect(radioSettings()).toEqual(defaults);
    expect(twitchChannelUrl()).toBe(`https://www.twitch.tv/${site.radio.twitchChannel}`);
  });

  it('uses the settings the server wrote into the page, read once', () => {
    writeIntoPage(
      JSON.stringify({
        liveStreamUrl: 'https://icecast.example.net/direct.mp3',
        chatRoom: 'nouveau-salon',
        twitchChannel: 'autre_chaine',
      }),
    );
    // A page of a server before contract 3.2: the live stream alone, no timeline.
    expect(radioSettings()).toEqual({
      ...defaults,
      liveStreamUrl: 'https://icecast.example.net/direct.mp3',
      chatRoom: 'nouveau-salon',
      twitchChannel: 'autre_chaine',
      renditions: normale('https://icecast.example.net/direct.mp3'),
    });
    expect(twitchChannelUrl()).toBe('https://www.twitch.tv/autre_chaine');
    // Read at the first call: a later change of the page is not followed.
    document.getElementById(RADIO_SETTINGS_ID)?.remove();
    expect(radioSettings().chatRoom).toBe('nouveau-salon');
  });

  it('keeps the defaults for a page whose settings are unreadable or of the wrong shape', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    writeIntoPage('{ pas du json');
    expect(radioSettings()).toEqual(defaults);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Réglages de la radio illisibles'));
    resetRadioSettings();
    document.getElementById(RADIO_SETTINGS_ID)?.remove();
    writeIntoPage('["https://icecast.example.net/direct.mp3"]');
    expect(radioSettings()).toEqual(defaults);
  });
});

describe('parseRadioSettings', () => {
  it('takes each non-empty text field and keeps the default for the others', () => {
    expect(
      parseRadioSettings({ liveStreamUrl: '  ', chatRoom: 42, twitchChannel: 'chaine_b', extra: 'ignoré' }),
    ).toEqual({ ...defaults, twitchChannel: 'chaine_b', renditions: normale(site.radio.liveStreamUrl) });
    expect(parseRadioSettings(null)).toEqual(defaults);
    expect(parseRadioSettings('["x"]')).toEqual(defaults);
  });

  it('reads the renditions and the timeline of a server of contract 3.2', () => {
    const renditions = [
      { id: 'normale', label: 'Normale', url: 'https://icecast.example.net/direct.mp3', bitrate: 128, codec: 'mp3' },
      { id: 'econome', label: 'Économe', url: 'https://icecast.example.net/econome.mp3', bitrate: 48, codec: 'mp3' },
    ];
    expect(
      parseRadioSettings({
        liveStreamUrl: 'https://icecast.example.net/direct.mp3',
        renditions,
        timeshift: { playlist: '/direct/live.m3u8', hours: 4 },
      }),
    ).toEqual({
      ...defaults,
      liveStreamUrl: 'https://icecast.example.net/direct.mp3',
      renditions,
      timeshift: { playlist: '/direct/live.m3u8', hours: 4 },
    });
  });

  it('reads the support links of a server of contract 3.3, defensively', () => {
    expect(
      parseRadioSettings({ support: { page: '/soutenir', external: 'https://exemple.org/soutenir' } }).support,
    ).toEqual({ page: '/soutenir', external: 'https://exemple.org/soutenir' });
    expect(parseRadioSettings({ support: { page: '//ailleurs.example', external: 'http://x' } }).support).toEqual(
      defaults.support,
    );
  });

  it('gives an older answer, without them, the live stream alone and no timeline', () => {
    expect(parseRadioSettings({ liveStreamUrl: 'https://icecast.example.net/direct.mp3' })).toMatchObject({
      renditions: normale('https://icecast.example.net/direct.mp3'),
      timeshift: { playlist: '', hours: 0 },
    });
  });
});

describe('parseRenditions (defensive: what reaches a partner page is never trusted blindly)', () => {
  const live = 'https://icecast.example.net/direct.mp3';
  const good = { id: 'normale', label: 'Normale', url: live, bitrate: 128, codec: 'mp3' };
  const light = { id: 'econome', label: 'Économe', url: '/api/demo/live-econome.mp3', bitrate: 48, codec: 'mp3' };

  it('drops each malformed rendition and keeps the others', () => {
    const hostile: unknown[] = [
      null,
      'https://ailleurs.example/x.mp3',
      { ...light, id: 'Econome' },
      { ...light, id: '../../etc' },
      { ...light, id: 'x'.repeat(33) },
      { ...light, label: '' },
      { ...light, label: 'É'.repeat(41) },
      { ...light, label: ' Économe' },
      { ...light, label: 'Éco\u0000nome' },
      { ...light, url: 'http://icecast.example.net/econome.mp3' },
      { ...light, url: 'javascript:alert(1)' },
      { ...light, url: '//ailleurs.example/econome.mp3' },
      { ...light, url: '/api/demo/"><script>' },
      { ...light, url: `https://${'a'.repeat(2100)}.example` },
      { ...light, bitrate: 7 },
      { ...light, bitrate: 513 },
      { ...light, bitrate: 48.5 },
      { ...light, bitrate: '48' },
      { ...light, codec: 'aac' },
      { ...light, extra: true },
    ];
    expect(parseRenditions([good, ...hostile, light], live)).toEqual([good, light]);
  });

  it('keeps a name once and at most eight renditions', () => {
    const many = Array.from({ length: 12 }, (_, index) => ({ ...light, id: `r${String(index)}` }));
    const parsed = parseRenditions([good, { ...light, id: 'normale' }, ...many], live);
    expect(parsed).toHaveLength(8);
    expect(parsed.filter((rendition) => rendition.id === 'normale')).toEqual([good]);
  });

  it('falls back to the live stream alone when none is sound or the first is not the live stream', () => {
    expect(parseRenditions(undefined, live)).toEqual(normale(live));
    expect(parseRenditions({ 0: good }, live)).toEqual(normale(live));
    expect(parseRenditions([], live)).toEqual(normale(live));
    expect(parseRenditions([light, good], live)).toEqual(normale(live));
  });
});

describe('parseTimeshift', () => {
  it('keeps a sound timeline and turns off anything else', () => {
    expect(parseTimeshift({ playlist: '/direct/live.m3u8', hours: 0.5 })).toEqual({
      playlist: '/direct/live.m3u8',
      hours: 0.5,
    });
    expect(parseTimeshift({ playlist: 'https://cdn.example.org/direct/live.m3u8', hours: 4 }).playlist).toBe(
      'https://cdn.example.org/direct/live.m3u8',
    );
    const off = { playlist: '', hours: 0 };
    for (const hostile of [
      undefined,
      null,
      '/direct/live.m3u8',
      { playlist: '/direct/live.m3u8' },
      { playlist: '/direct/live.m3u8', hours: 0 },
      { playlist: '/direct/live.m3u8', hours: -1 },
      { playlist: '/direct/live.m3u8', hours: 1e9 },
      { playlist: '/direct/live.m3u8', hours: Number.NaN },
      { playlist: '/direct/live.m3u8', hours: '4' },
      { playlist: '', hours: 4 },
      { playlist: 'javascript:alert(1)', hours: 4 },
      { playlist: '//ailleurs.example/live.m3u8', hours: 4 },
      { playlist: 'http://cdn.example.org/live.m3u8', hours: 4 },
    ]) {
      expect(parseTimeshift(hostile)).toEqual(off);
    }
  });
});

describe('loadRadioSettings (the player for partner sites)', () => {
  let server: FakeServer;
  let origin: string;
  let answer: { status: number; body: string };
  let asked: string[];

  beforeAll(async () => {
    server = await startFakeServer({
      headers: { 'Access-Control-Allow-Origin': '*' },
      onRequest: ({ url }) => asked.push(url),
      fallback: (request, response) => text(answer.body, answer.status, 'application/json')(request, response),
    });
    origin = server.origin;
  });

  afterAll(() => server.close());

  beforeEach(() => {
    asked = [];
  });

  it('fetches the settings from the API and uses them, never the partner page’s own elements', async () => {
    writeIntoPage(JSON.stringify({ chatRoom: 'salon-du-partenaire' }));
    answer = { status: 200, body: JSON.stringify({ ...defaults, chatRoom: 'salon-radio' }) };
    const loading = loadRadioSettings(`${origin}/api/radio`);
    expect(radioSettings()).toEqual(defaults);
    await expect(loading).resolves.toEqual({ ...defaults, chatRoom: 'salon-radio' });
    expect(asked).toEqual(['/api/radio']);
    expect(radioSettings().chatRoom).toBe('salon-radio');
    await expect(radioSettingsReady()).resolves.toEqual({ ...defaults, chatRoom: 'salon-radio' });
  });

  it('keeps site.json when the API fails, and radioSettingsReady waits for the answer', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    answer = { status: 503, body: JSON.stringify({ error: 'x', message: 'Indisponible' }) };
    const ready = radioSettingsReady();
    void loadRadioSettings(`${origin}/api/radio`);
    await expect(radioSettingsReady()).resolves.toEqual(defaults);
    await expect(ready).resolves.toEqual(defaults);
    expect(asked).toEqual(['/api/radio']);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Réglages de la radio indisponibles'), expect.any(Error));
  });
});
