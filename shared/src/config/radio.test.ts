import site from '../../config/site.json';
import { twitchChannelUrl } from './index';
import {
  RADIO_SETTINGS_ID,
  loadRadioSettings,
  parseRadioSettings,
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
};

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
    expect(radioSettings()).toEqual({
      ...defaults,
      liveStreamUrl: 'https://icecast.example.net/direct.mp3',
      chatRoom: 'nouveau-salon',
      twitchChannel: 'autre_chaine',
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
    ).toEqual({ ...defaults, twitchChannel: 'chaine_b' });
    expect(parseRadioSettings(null)).toEqual(defaults);
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
