import { siteConfig } from '@collectif/shared/config';
import { ConfigError } from '../settings/config';
import { readApiConfig } from './env';

/** The variable a bad environment is rejected for, and the one-line message. */
function rejection(env: Record<string, string>): { variable: string; message: string } {
  try {
    readApiConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return { variable: error.variable, message: error.message };
    throw error;
  }
  throw new Error('accepted');
}

describe('readApiConfig', () => {
  it('reads the calendars’ addresses (SCHEDULE_ICS_URLS), each one checked', () => {
    const config = readApiConfig({
      SCHEDULE_ICS_URLS: ' https://calendar.example/radio.ics , https://calendar.example/evenements.ics',
      SCHEDULE_TTL_S: '600',
    });
    expect(config.schedule).toEqual({
      urls: ['https://calendar.example/radio.ics', 'https://calendar.example/evenements.ics'],
    });
    expect(config.ttlMs.schedule).toBe(600_000);
    // Google's « webcal: » link is its https address.
    expect(readApiConfig({ SCHEDULE_ICS_URLS: 'webcal://calendar.example/radio.ics' }).schedule).toEqual({
      urls: ['https://calendar.example/radio.ics'],
    });
    expect(() => readApiConfig({ SCHEDULE_ICS_URLS: 'ftp://calendar.example/radio.ics' })).toThrow(/SCHEDULE_ICS_URLS/);
  });

  it('reads the events calendars’ addresses (EVENTS_ICS_URLS) as the schedule’s, and their TTL', () => {
    const config = readApiConfig({
      EVENTS_ICS_URLS: 'webcal://calendar.example/evenements.ics, https://calendar.example/concerts.ics/',
      EVENTS_TTL_S: '900',
    });
    expect(config.events).toEqual({
      urls: ['https://calendar.example/evenements.ics', 'https://calendar.example/concerts.ics'],
    });
    expect(config.ttlMs.events).toBe(900_000);
    expect(readApiConfig({}).ttlMs.events).toBe(300_000);
    expect(() => readApiConfig({ EVENTS_ICS_URLS: 'javascript:alert(1)' })).toThrow(/EVENTS_ICS_URLS/);
    expect(() =>
      readApiConfig({ EVENTS_ICS_URLS: Array(11).fill('https://calendar.example/x.ics').join(',') }),
    ).toThrow(/au plus 10/);
  });

  it('runs every upstream on the embedded demo when nothing is set', () => {
    const config = readApiConfig({});
    expect(config).toMatchObject({
      rss: null,
      soundcloud: null,
      twitch: null,
      azuracast: null,
      schedule: null,
      events: null,
      adminToken: null,
    });
    expect(config.ttlMs).toEqual({
      feed: 300_000,
      live: 30_000,
      nowPlaying: 15_000,
      track: 300_000,
      schedule: 300_000,
      events: 300_000,
    });
    expect(config.upstream).toEqual({ timeoutMs: 5000, maxBytes: 10 * 1024 * 1024 });
    expect(config.demo.live).toBe(false);
  });

  it('draws a site secret of its own for each process without Redis, and takes the one given', () => {
    const first = readApiConfig({}).siteSecret;
    expect(first.length).toBeGreaterThanOrEqual(24);
    expect(readApiConfig({}).siteSecret).not.toBe(first);
    const given = 'Zp4nVq8Rw2Ls6Tk9Hx3Mc7Bd-partage';
    expect(readApiConfig({ REDIS_URL: 'redis://127.0.0.1:6379', SITE_SECRET: given }).siteSecret).toBe(given);
  });

  it('reads every upstream, with the default API hosts and the site channel', () => {
    const config = readApiConfig({
      SOUNDCLOUD_RSS_URL: 'https://feeds.example/users/1/sounds.rss',
      SOUNDCLOUD_CLIENT_ID: 'sc-id',
      SOUNDCLOUD_CLIENT_SECRET: 'sc-secret',
      TWITCH_CLIENT_ID: 'tw-id',
      TWITCH_CLIENT_SECRET: 'tw-secret',
      AZURACAST_NOWPLAYING_URL: 'https://radio.example/api/nowplaying/radio',
      FEED_TTL_S: '60',
      UPSTREAM_TIMEOUT_MS: '2500',
      DEMO_LIVE: 'true',
      ADMIN_TOKEN: 'e2e-jeton-admin-de-24-caracteres',
    });
    expect(config.rss).toEqual({ url: 'https://feeds.example/users/1/sounds.rss', maxPages: 1 });
    expect(config.soundcloud).toMatchObject({ apiUrl: 'https://api.soundcloud.com', clientId: 'sc-id' });
    expect(config.twitch).toMatchObject({
      channel: siteConfig.radio.twitchChannel,
      apiUrl: 'https://api.twitch.tv/helix',
    });
    expect(config.azuracast).toEqual({ url: 'https://radio.example/api/nowplaying/radio' });
    expect(config.ttlMs.feed).toBe(60_000);
    expect(config.upstream.timeoutMs).toBe(2500);
    expect(config.demo.live).toBe(true);
    expect(config.adminToken).toBe('e2e-jeton-admin-de-24-caracteres');
  });

  it('lets tests point the API hosts at fakes', () => {
    const config = readApiConfig({
      TWITCH_CLIENT_ID: 'a',
      TWITCH_CLIENT_SECRET: 'b',
      TWITCH_API_URL: 'http://127.0.0.1:9999/helix/',
      TWITCH_AUTH_URL: 'http://127.0.0.1:9999/token',
      TWITCH_CHANNEL: 'autre_chaine',
    });
    expect(config.twitch).toMatchObject({
      apiUrl: 'http://127.0.0.1:9999/helix',
      authUrl: 'http://127.0.0.1:9999/token',
      channel: 'autre_chaine',
    });
  });

  it.each([
    [
      { SOUNDCLOUD_RSS_URL: 'pas une url' },
      'SOUNDCLOUD_RSS_URL',
      /valeur invalide « pas une url » \(attendu : une adresse http:\/\/ ou https:\/\//,
    ],
    [
      { AZURACAST_NOWPLAYING_URL: 'ftp://radio.example/np' },
      'AZURACAST_NOWPLAYING_URL',
      /« ftp:\/\/radio\.example\/np » \(attendu : une adresse http:\/\/ ou https:\/\//,
    ],
    [{ SOUNDCLOUD_CLIENT_ID: 'seul' }, 'SOUNDCLOUD_CLIENT_SECRET', /manquant/],
    [{ TWITCH_CLIENT_SECRET: 'seul' }, 'TWITCH_CLIENT_ID', /manquant/],
    [{ TWITCH_CHANNEL: 'chaîne avec espaces' }, 'TWITCH_CHANNEL', /invalide/],
    [
      { UPSTREAM_TIMEOUT_MS: '10s' },
      'UPSTREAM_TIMEOUT_MS',
      /« 10s » \(attendu : un nombre entier de millisecondes de 100 à 120000\)/,
    ],
    [{ FEED_TTL_S: '0' }, 'FEED_TTL_S', /entier/],
    [{ DEMO_LIVE: 'peut-être' }, 'DEMO_LIVE', /« peut-être » \(attendu : on ou off/],
    [{ ADMIN_TOKEN: 'court-123' }, 'ADMIN_TOKEN', /24 caractères ou plus/],
    [{ SITE_SECRET: 'court-123' }, 'SITE_SECRET', /24 caractères ou plus/],
    [{ REDIS_URL: 'redis://127.0.0.1:6379' }, 'SITE_SECRET', /manquant alors que REDIS_URL est défini/],
    [
      { SOUNDCLOUD_RSS_MAX_PAGES: '50' },
      'SOUNDCLOUD_RSS_MAX_PAGES',
      /« 50 » \(attendu : un nombre entier de pages de 1 à 20\)/,
    ],
  ])('rejects %j, naming %s', (env, variable, message) => {
    const { variable: named, message: text } = rejection(env);
    expect(named).toBe(variable);
    expect(text).toMatch(message);
    expect(text).toContain(variable);
    expect(text).not.toContain('\n');
  });
});
