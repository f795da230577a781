import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { siteConfig } from '@collectif/shared/config';
import { readApiConfig } from '../api/env';
import { ConfigError, type Env } from './config';
import { readRadioSettings } from './radio';

const demoRenditions = [
  { id: 'normale', label: 'Normale', url: '/api/demo/live.mp3', bitrate: 128, codec: 'mp3' },
  { id: 'econome', label: 'Économe', url: '/api/demo/live-econome.mp3', bitrate: 48, codec: 'mp3' },
];

const defaults = {
  liveStreamUrl: siteConfig.radio.liveStreamUrl,
  chatEmbedUrl: siteConfig.radio.chatEmbedUrl,
  chatRoom: siteConfig.radio.chatRoom,
  twitchChannel: siteConfig.radio.twitchChannel,
  renditions: demoRenditions,
  timeshift: { playlist: '/direct/live.m3u8', hours: 4 },
  support: { page: '/soutenir', external: siteConfig.links.donation },
};

/** The one mount of a radio that names no other. */
const normale = (url: string) => [{ id: 'normale', label: 'Normale', url, bitrate: 128, codec: 'mp3' }];

const ICECAST = [
  { id: 'normale', label: 'Normale', url: 'https://icecast.example.net/direct.mp3', bitrate: 128, codec: 'mp3' },
  { id: 'econome', label: 'Économe', url: 'https://icecast.example.net/econome.mp3', bitrate: 48, codec: 'mp3' },
];

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
      renditions: normale('https://icecast.example.net/fichier.mp3'),
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
      renditions: normale('https://icecast2.example.net/direct.mp3'),
      timeshift: defaults.timeshift,
      support: defaults.support,
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
      'RADIO_CONFIG_FILE : champ inconnu « apiBase » (attendus : liveStreamUrl, chatEmbedUrl, chatRoom, twitchChannel, renditions)',
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

  it('gives the demo its two mounts, and a radio that names only its stream that stream alone', () => {
    expect(readRadioSettings({}).renditions).toEqual(demoRenditions);
    expect(readRadioSettings({ LIVE_STREAM_URL: '/api/demo/live.mp3' }).renditions).toEqual(demoRenditions);
    expect(readRadioSettings({ LIVE_STREAM_URL: 'https://icecast.example.net/direct.mp3' }).renditions).toEqual(
      normale('https://icecast.example.net/direct.mp3'),
    );
  });

  it('reads LIVE_RENDITIONS, whose first sets the live stream, and the file’s renditions below it', () => {
    expect(readRadioSettings({ LIVE_RENDITIONS: JSON.stringify(ICECAST) })).toMatchObject({
      liveStreamUrl: 'https://icecast.example.net/direct.mp3',
      renditions: ICECAST,
    });
    const path = file('rendus.json', JSON.stringify({ renditions: ICECAST.slice(0, 1) }));
    expect(readRadioSettings({ RADIO_CONFIG_FILE: path })).toMatchObject({
      liveStreamUrl: 'https://icecast.example.net/direct.mp3',
      renditions: ICECAST.slice(0, 1),
    });
    expect(readRadioSettings({ RADIO_CONFIG_FILE: path, LIVE_RENDITIONS: JSON.stringify(ICECAST) }).renditions).toEqual(
      ICECAST,
    );
    // Both set, and agreeing.
    expect(
      readRadioSettings({
        LIVE_STREAM_URL: 'https://icecast.example.net/direct.mp3',
        LIVE_RENDITIONS: JSON.stringify(ICECAST),
      }).renditions,
    ).toEqual(ICECAST);
  });

  it('refuses a live stream that is not the first rendition, naming both', () => {
    expect(
      rejection({ LIVE_STREAM_URL: 'https://autre.example.net/direct.mp3', LIVE_RENDITIONS: JSON.stringify(ICECAST) }),
    ).toEqual({
      variable: 'LIVE_STREAM_URL',
      message:
        'LIVE_STREAM_URL : « https://autre.example.net/direct.mp3 » n’est pas l’adresse de la première rendition de LIVE_RENDITIONS (« https://icecast.example.net/direct.mp3 ») : la première est le direct normal, l’une ou l’autre est à changer',
    });
    const path = file(
      'désaccord.json',
      JSON.stringify({ liveStreamUrl: 'https://autre.example.net/direct.mp3', renditions: ICECAST }),
    );
    expect(rejection({ RADIO_CONFIG_FILE: path }).message).toMatch(
      /^RADIO_CONFIG_FILE : « https:\/\/autre\.example\.net\/direct\.mp3 » n’est pas l’adresse de la première rendition de RADIO_CONFIG_FILE \(champ \/renditions\)/,
    );
  });

  const econome = ICECAST[1];
  it.each([
    ['not JSON', 'pas du json', /^LIVE_RENDITIONS : JSON illisible/],
    ['an object, not a list', '{"id":"normale"}', /^LIVE_RENDITIONS : une liste JSON \[/],
    ['an empty list', '[]', /^LIVE_RENDITIONS : au moins une rendition est attendue/],
    [
      'nine renditions',
      JSON.stringify(Array(9).fill(econome)),
      /^LIVE_RENDITIONS : au plus 8 renditions \(9 données\)$/,
    ],
    [
      'a text past 32 KiB',
      `[${' '.repeat(40_000)}]`,
      /^LIVE_RENDITIONS : texte trop long \(40002 caractères, au plus 32768\)$/,
    ],
    [
      'a rendition that is no object',
      JSON.stringify([ICECAST[0], 'econome']),
      /^LIVE_RENDITIONS : rendition 2 : un objet/,
    ],
    [
      'an id that climbs folders',
      JSON.stringify([{ ...econome, id: '../etc' }]),
      /^LIVE_RENDITIONS : rendition 1, champ id : valeur « \.\.\/etc » \(attendu : un nom/,
    ],
    [
      'a label of 41 characters',
      JSON.stringify([{ ...econome, label: 'x'.repeat(41) }]),
      /rendition 1, champ label : valeur « x{41} » \(attendu : un libellé de 1 à 40/,
    ],
    [
      'a label with a control character',
      JSON.stringify([{ ...econome, label: 'Éco\nnome' }]),
      /rendition 1, champ label : valeur « Éco nome »/,
    ],
    [
      'an http address',
      JSON.stringify([{ ...econome, url: 'http://icecast.example.net/x.mp3' }]),
      /champ url : valeur « http:\/\/icecast/,
    ],
    [
      'an address of another host (//)',
      JSON.stringify([{ ...econome, url: '//ailleurs.example/x.mp3' }]),
      /champ url : .*\(pas \/\/\)/,
    ],
    [
      'a javascript: address',
      JSON.stringify([{ ...econome, url: 'javascript:alert(1)' }]),
      /champ url : valeur « javascript:alert\(1\) »/,
    ],
    [
      'a bitrate of 4',
      JSON.stringify([{ ...econome, bitrate: 4 }]),
      /champ bitrate : valeur « 4 » \(attendu : un débit entier en kb\/s de 8 à 512\)/,
    ],
    ['a bitrate of a million', JSON.stringify([{ ...econome, bitrate: 1e6 }]), /champ bitrate : valeur « 1000000 »/],
    ['a bitrate written as text', JSON.stringify([{ ...econome, bitrate: '48' }]), /champ bitrate : valeur « 48 »/],
    [
      'a codec other than mp3',
      JSON.stringify([{ ...econome, codec: 'aac' }]),
      /champ codec : valeur « aac » \(attendu : « mp3 »\)/,
    ],
    ['no codec', JSON.stringify([{ ...econome, codec: undefined }]), /champ codec : valeur absente/],
    ['an unknown field', JSON.stringify([{ ...econome, extra: 1 }]), /rendition 1 : champ inconnu « extra »/],
    [
      'an id given twice',
      JSON.stringify([econome, econome]),
      /rendition 2 : l’id « econome » est déjà celui d’une autre rendition/,
    ],
  ])('refuses LIVE_RENDITIONS with %s, in one French line', (_name, value, message) => {
    const refused = rejection({ LIVE_RENDITIONS: value });
    expect(refused.variable).toBe('LIVE_RENDITIONS');
    expect(refused.message).toMatch(message);
    expect(refused.message).not.toContain('\n');
  });

  it('refuses the file’s bad renditions, naming the field', () => {
    const path = file('mauvais-rendus.json', JSON.stringify({ renditions: [{ ...econome, bitrate: 9000 }] }));
    expect(rejection({ RADIO_CONFIG_FILE: path }).message).toBe(
      'RADIO_CONFIG_FILE : champ /renditions : rendition 1, champ bitrate : valeur « 9000 » (attendu : un débit entier en kb/s de 8 à 512)',
    );
  });

  it('tells of the timeline from LIVE_TIMESHIFT_HOURS: its playlist, or none at 0', () => {
    expect(readRadioSettings({ LIVE_TIMESHIFT_HOURS: '0' }).timeshift).toEqual({ playlist: '', hours: 0 });
    expect(readRadioSettings({ LIVE_TIMESHIFT_HOURS: '0,01' }).timeshift).toEqual({
      playlist: '/direct/live.m3u8',
      hours: 0.01,
    });
  });

  it('gives the API the same settings, and the Twitch status the same channel', () => {
    const config = readApiConfig({ TWITCH_CHANNEL: 'chaine_b', TWITCH_CLIENT_ID: 'a', TWITCH_CLIENT_SECRET: 'b' });
    expect(config.radio).toEqual({ ...defaults, twitchChannel: 'chaine_b' });
    expect(config.twitch?.channel).toBe('chaine_b');
    expect(() => readApiConfig({ LIVE_STREAM_URL: 'pas une adresse' })).toThrow(/^LIVE_STREAM_URL : /);
  });
});
