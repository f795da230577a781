import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { siteConfig } from '@collectif/shared/config';
import { readApiConfig } from '../api/env';
import { ConfigError, type Env } from './config';
import { readRadioSettings } from './radio';

const defaults = {
  liveStreamUrl: siteConfig.radio.liveStreamUrl,
  chatEmbedUrl: siteConfig.radio.chatEmbedUrl,
  chatRoom: siteConfig.radio.chatRoom,
  twitchChannel: siteConfig.radio.twitchChannel,
};

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'radio-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The variable a bad setting is rejected for, and the one-line message. */
function rejection(env: Env): { variable: string; message: string } {
  try {
    readRadioSettings(env);
  } catch (error) {
    if (error instanceof ConfigError) return { variable: error.variable, message: error.message };
    throw error;
  }
  throw new Error('accepted');
}

describe('readRadioSettings', () => {
  it('uses site.json when nothing is set', () => {
    expect(readRadioSettings({})).toEqual(defaults);
  });

  it('reads RADIO_CONFIG_FILE, and each variable wins over the file', () => {
    const path = file(
      'radio.json',
      JSON.stringify({
        liveStreamUrl: 'https://icecast.example.net/fichier.mp3',
        chatRoom: 'salon-du-fichier',
        twitchChannel: 'chaine_fichier',
      }),
    );
    expect(readRadioSettings({ RADIO_CONFIG_FILE: path })).toEqual({
      ...defaults,
      liveStreamUrl: 'https://icecast.example.net/fichier.mp3',
      chatRoom: 'salon-du-fichier',
      twitchChannel: 'chaine_fichier',
    });
    expect(
      readRadioSettings({
        RADIO_CONFIG_FILE: path,
        LIVE_STREAM_URL: ' https://icecast2.example.net/direct.mp3 ',
        CHAT_EMBED_URL: 'https://chat.example.net/r/{room}?embed',
        CHAT_ROOM: '',
        TWITCH_CHANNEL: 'chaine_variable',
      }),
    ).toEqual({
      liveStreamUrl: 'https://icecast2.example.net/direct.mp3',
      chatEmbedUrl: 'https://chat.example.net/r/{room}?embed',
      chatRoom: 'salon-du-fichier',
      twitchChannel: 'chaine_variable',
    });
  });

  it.each([
    [{ LIVE_STREAM_URL: 'ftp://icecast.example.net/direct.mp3' }, 'LIVE_STREAM_URL', /https:\/\//],
    [{ LIVE_STREAM_URL: 'icecast.example.net/direct.mp3' }, 'LIVE_STREAM_URL', /icecast\.example\.net/],
    [{ CHAT_EMBED_URL: 'https://chat.example.net/salon' }, 'CHAT_EMBED_URL', /\{room\}/],
    [{ TWITCH_CHANNEL: 'chaîne avec espaces' }, 'TWITCH_CHANNEL', /Twitch/],
  ])('rejects %j, naming %s', (env, variable, detail) => {
    const { variable: named, message } = rejection(env);
    expect(named).toBe(variable);
    expect(message).toMatch(new RegExp(`^${variable} : valeur invalide « `));
    expect(message).toMatch(detail);
    expect(message).not.toContain('\n');
  });

  it('rejects a file that is missing, unreadable, has an unknown field or a bad value, naming the field', () => {
    expect(rejection({ RADIO_CONFIG_FILE: join(dir, 'absent.json') })).toMatchObject({
      variable: 'RADIO_CONFIG_FILE',
      message: expect.stringMatching(/^RADIO_CONFIG_FILE : fichier illisible/) as unknown,
    });
    expect(rejection({ RADIO_CONFIG_FILE: file('cassé.json', '{ "chatRoom": ') }).message).toMatch(
      /^RADIO_CONFIG_FILE : JSON illisible/,
    );
    expect(rejection({ RADIO_CONFIG_FILE: file('liste.json', '["x"]') }).message).toMatch(/objet/);
    expect(rejection({ RADIO_CONFIG_FILE: file('inconnu.json', '{ "apiBase": "/api" }') }).message).toBe(
      'RADIO_CONFIG_FILE : champ inconnu « apiBase » (attendus : liveStreamUrl, chatEmbedUrl, chatRoom, twitchChannel)',
    );
    const bad = rejection({ RADIO_CONFIG_FILE: file('mauvais.json', '{ "liveStreamUrl": "http://icecast/x.mp3" }') });
    expect(bad.variable).toBe('RADIO_CONFIG_FILE');
    expect(bad.message).toMatch(
      /^RADIO_CONFIG_FILE : champ \/liveStreamUrl : valeur invalide « http:\/\/icecast\/x\.mp3 »/,
    );
    expect(rejection({ RADIO_CONFIG_FILE: file('vide.json', '{ "chatRoom": 3 }') }).message).toMatch(
      /champ \/chatRoom : valeur invalide « 3 »/,
    );
  });

  it('gives the API the same settings, and the Twitch status the same channel', () => {
    const config = readApiConfig({ TWITCH_CHANNEL: 'chaine_b', TWITCH_CLIENT_ID: 'a', TWITCH_CLIENT_SECRET: 'b' });
    expect(config.radio).toEqual({ ...defaults, twitchChannel: 'chaine_b' });
    expect(config.twitch?.channel).toBe('chaine_b');
    expect(() => readApiConfig({ LIVE_STREAM_URL: 'pas une adresse' })).toThrow(/^LIVE_STREAM_URL : /);
  });
});
