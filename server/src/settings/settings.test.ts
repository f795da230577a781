import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readApiConfig } from '../api/env';
import { workspaceRoot } from './config';
import { SETTINGS, type Setting } from './declarations';
import { ConfigError } from './kinds';
import { fileVariables, readSetting, setting } from './settings';
import { settingsMarkdown, settingsText } from './list';

describe('the settings table', () => {
  it('is what docs/settings.md says (npm run settings -- --markdown > docs/settings.md when it changes)', () => {
    expect(readFileSync(join(workspaceRoot, 'docs', 'settings.md'), 'utf8')).toBe(settingsMarkdown());
  });

  it('accepts the example of each variable, and its default', () => {
    for (const [name, entry] of Object.entries(SETTINGS) as [string, Setting][]) {
      expect(() => readSetting({ [name]: entry.example }, name, entry)).not.toThrow();
      expect(() => readSetting({}, name, entry)).not.toThrow();
    }
  });

  it('knows every variable of deploy/site.env.example, and accepts each value written there', () => {
    const written = fileVariables(readFileSync(join(workspaceRoot, 'deploy', 'site.env.example'), 'utf8'));
    expect(written.length).toBeGreaterThan(5);
    for (const { name, value, commented } of written) {
      expect(Object.keys(SETTINGS)).toContain(name);
      if (!commented) {
        expect(() =>
          readSetting({ [name]: value }, name, SETTINGS[name as keyof typeof SETTINGS] as Setting),
        ).not.toThrow();
      }
    }
  });

  it('refuses a value with one French line: the variable, the value, and what is accepted', () => {
    const refusal = (name: keyof typeof SETTINGS, value: string) => {
      try {
        setting({ [name]: value }, name);
      } catch (error) {
        if (error instanceof ConfigError) return error.message;
        throw error;
      }
      throw new Error(`${name}=${value} accepté`);
    };
    expect(refusal('DEMO_LIVE', 'peut-être')).toBe(
      'DEMO_LIVE : valeur invalide « peut-être » (attendu : on ou off (aussi oui/non, true/false, 1/0))',
    );
    expect(refusal('FEED_TTL_S', '5m')).toBe(
      'FEED_TTL_S : valeur invalide « 5m » (attendu : un nombre entier de secondes de 1 à 86400)',
    );
    expect(refusal('UPSTREAM_MAX_BYTES', '12')).toBe(
      "UPSTREAM_MAX_BYTES : valeur invalide « 12 » (attendu : un nombre entier d'octets de 1024 à 536870912)",
    );
    expect(refusal('SCHEDULE_ICS_URLS', 'https://a.example/x.ics, ftp://b.example/y.ics')).toMatch(
      /^SCHEDULE_ICS_URLS : valeur invalide « .* » \(attendu : au plus 10 valeurs séparées par des virgules, chacune une adresse http:\/\/ ou https:\/\//,
    );
    // The admin's token: 24 characters or more, as the deploy tokens, and never written out.
    expect(refusal('ADMIN_TOKEN', 'court-123')).toBe(
      'ADMIN_TOKEN : valeur invalide de 9 caractères (cachée) (attendu : 24 caractères ou plus, sans espace)',
    );
    expect(refusal('ADMIN_TOKEN', 'un jeton de plus de vingt-quatre caractères')).not.toContain('vingt-quatre');
    expect(setting({ ADMIN_TOKEN: 'q7Rt2mX9vL4pW8sK3nB6yH1c' }, 'ADMIN_TOKEN')).toBe('q7Rt2mX9vL4pW8sK3nB6yH1c');
  });

  it('reads durations in milliseconds, lists as lists, and webcal: calendars as https:', () => {
    expect(setting({ FEED_TTL_S: '600' }, 'FEED_TTL_S')).toBe(600_000);
    expect(setting({}, 'FEED_TTL_S')).toBe(300_000);
    expect(
      setting({ SCHEDULE_ICS_URLS: ' webcal://a.example/x.ics ,, https://b.example/y.ics/ ' }, 'SCHEDULE_ICS_URLS'),
    ).toEqual(['https://a.example/x.ics', 'https://b.example/y.ics']);
    expect(() =>
      setting({ SCHEDULE_ICS_URLS: Array(11).fill('https://a.example/x.ics').join(',') }, 'SCHEDULE_ICS_URLS'),
    ).toThrow(/au plus 10/);
  });

  it('reads the live’s timeline: hours with decimals (0 off), its folder made absolute, segments of 2 to 30 s', () => {
    expect(readApiConfig({}).timeshift).toEqual({
      hours: 4,
      dir: join(workspaceRoot, 'server', '.timeshift'),
      segmentSeconds: 10,
    });
    expect(
      readApiConfig({ LIVE_TIMESHIFT_HOURS: '0,01', LIVE_TIMESHIFT_DIR: 'direct', LIVE_TIMESHIFT_SEGMENT_S: '2' })
        .timeshift,
    ).toEqual({ hours: 0.01, dir: resolve('direct'), segmentSeconds: 2 });
    expect(setting({ LIVE_TIMESHIFT_HOURS: '0' }, 'LIVE_TIMESHIFT_HOURS')).toBe(0);
    expect(setting({ LIVE_TIMESHIFT_HOURS: '2.5' }, 'LIVE_TIMESHIFT_HOURS')).toBe(2.5);
    expect(setting({ LIVE_TIMESHIFT_HOURS: '48' }, 'LIVE_TIMESHIFT_HOURS')).toBe(48);
  });

  it.each([
    ['LIVE_TIMESHIFT_HOURS', '-1'],
    ['LIVE_TIMESHIFT_HOURS', '48.5'],
    ['LIVE_TIMESHIFT_HOURS', '4h'],
    ['LIVE_TIMESHIFT_HOURS', '1e3'],
    ['LIVE_TIMESHIFT_HOURS', '0.0001'],
    ['LIVE_TIMESHIFT_HOURS', 'Infinity'],
    ['LIVE_TIMESHIFT_HOURS', '9'.repeat(400)],
    ['LIVE_TIMESHIFT_SEGMENT_S', '1'],
    ['LIVE_TIMESHIFT_SEGMENT_S', '31'],
    ['LIVE_TIMESHIFT_SEGMENT_S', '2.5'],
    ['LIVE_TIMESHIFT_DIR', '/'],
    ['LIVE_TIMESHIFT_DIR', '/srv/../'],
    ['LIVE_TIMESHIFT_DIR', '/srv/direct\0'],
  ] as const)('refuses %s=%j in one French line', (name, value) => {
    let message = '';
    try {
      setting({ [name]: value }, name);
    } catch (error) {
      if (error instanceof ConfigError) message = error.message;
    }
    expect(message).toMatch(new RegExp(`^${name} : valeur invalide « `));
    expect(message).toContain(
      {
        LIVE_TIMESHIFT_HOURS: "(attendu : un nombre d'heures de 0 à 48, décimales permises (0,5 ou 0.5))",
        LIVE_TIMESHIFT_SEGMENT_S: '(attendu : un nombre entier de secondes de 2 à 30)',
        LIVE_TIMESHIFT_DIR: '(attendu : un dossier (pas la racine du système))',
      }[name],
    );
  });

  it('prints every variable for a terminal, never a secret’s value', () => {
    const text = settingsText({ ADMIN_TOKEN: 'ceci-est-secret-42', SSR: 'off' });
    for (const name of Object.keys(SETTINGS)) expect(text).toContain(`  ${name}`);
    expect(text).toContain('ADMIN_TOKEN [défini]');
    expect(text).not.toContain('ceci-est-secret-42');
    expect(text).toContain('SSR [= off]');
  });
});
