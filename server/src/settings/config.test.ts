import { ConfigError, readSiteServerConfig, remotesForServer } from './config';
import { readApiConfig } from '../api/env';

describe('the rendering settings of the server', () => {
  it('defaults to pages rendered on the server, kept 10 s, with the local address as the origin', () => {
    const config = readSiteServerConfig({ PORT: '9090' });
    expect(config.ssr).toBe(true);
    expect(config.pageCacheTtlMs).toBe(10_000);
    expect(config.siteOrigin).toBe('http://localhost:9090');
    expect(config.renderers).toBeGreaterThanOrEqual(1);
    expect(config.renderRecycleAfter).toBe(100);
  });

  it('reads SITE_ORIGIN, SSR and PAGE_CACHE_TTL_S', () => {
    const config = readSiteServerConfig({
      SITE_ORIGIN: 'https://radio.example.org/',
      SSR: 'OFF',
      PAGE_CACHE_TTL_S: '0',
    });
    expect(config.siteOrigin).toBe('https://radio.example.org');
    expect(config.ssr).toBe(false);
    expect(config.pageCacheTtlMs).toBe(0);
  });

  it.each([
    [
      'SITE_ORIGIN',
      'radio.example.org',
      /SITE_ORIGIN : valeur invalide « radio\.example\.org » \(attendu : une origine/,
    ],
    [
      'SITE_ORIGIN',
      'https://radio.example.org/chemin',
      /SITE_ORIGIN : valeur invalide .*une origine http\(s\), sans chemin/,
    ],
    ['SITE_ORIGIN', 'ftp://radio.example.org', /SITE_ORIGIN : valeur invalide/],
    ['SSR', 'peut-être', /SSR : valeur invalide « peut-être » \(attendu : on ou off/],
    ['PORT', '70000', /PORT : valeur invalide « 70000 » \(attendu : un nombre entier de 0 à 65535\)/],
    ['LOG_LEVEL', 'bavard', /LOG_LEVEL : valeur invalide « bavard » \(attendu : fatal, error/],
    ['REDIS_URL', 'http://cache:6379', /REDIS_URL : valeur invalide .*redis:\/\/ ou rediss:\/\//],
    ['PAGE_CACHE_TTL_S', '-1', /PAGE_CACHE_TTL_S : valeur invalide « -1 »/],
    ['PAGE_CACHE_TTL_S', '3601', /de 0 à 3600/],
    ['RENDERERS', 'deux', /RENDERERS : valeur invalide « deux »/],
    ['RENDER_RECYCLE_AFTER', '0', /RENDER_RECYCLE_AFTER : valeur invalide « 0 »/],
  ])('refuses %s=%s with a line naming it', (variable, value, message) => {
    const read = () => readSiteServerConfig({ [variable]: value });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(message);
  });

  it('refuses rendering in the server’s own process (RENDERERS=0) when teams deploy: their code would see every secret', () => {
    const read = () =>
      readSiteServerConfig({
        RENDERERS: '0',
        DEPLOY_TOKENS: 'label:jeton-de-test-de-24-caracteres',
        EDITOR_ORIGIN: 'http://edition.localhost:8080',
      });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(/RENDERERS : 0 .* refusé avec DEPLOY_TOKENS/);
    expect(readSiteServerConfig({ RENDERERS: '0' }).renderers).toBe(0);
    // Its former name is still read, and refused alike, where RENDERERS is unset.
    expect(readSiteServerConfig({ RENDER_WORKERS: '3' }).renderers).toBe(3);
    expect(readSiteServerConfig({ RENDER_WORKERS: '3', RENDERERS: '1' }).renderers).toBe(1);
    expect(() =>
      readSiteServerConfig({
        RENDER_WORKERS: '0',
        DEPLOY_TOKENS: 'label:jeton-de-test-de-24-caracteres',
        EDITOR_ORIGIN: 'http://edition.localhost:8080',
      }),
    ).toThrow(/RENDER_WORKERS : 0 .* refusé avec DEPLOY_TOKENS/);
  });

  it('refuses teams’ deploys without an editor origin of its own, saying in French what to set', () => {
    const read = () =>
      readSiteServerConfig({
        SITE_ORIGIN: 'https://radio.example.org',
        DEPLOY_TOKENS: 'label:jeton-de-test-de-24-caracteres',
      });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(
      /EDITOR_ORIGIN : les équipes déploient \(DEPLOY_TOKENS\) .* EDITOR_ORIGIN=https:\/\/edition\.radio\.example\.org/,
    );
    const config = readSiteServerConfig({
      SITE_ORIGIN: 'https://radio.example.org',
      EDITOR_ORIGIN: 'https://edition.radio.example.org',
      DEPLOY_TOKENS: 'label:jeton-de-test-de-24-caracteres',
    });
    expect(config.editorOrigin).toBe('https://edition.radio.example.org');
  });

  it('gives a renderer the mode, the time zone and the tests’ clock, and no other variable', () => {
    const config = readSiteServerConfig({
      NODE_ENV: 'production',
      TZ: 'Europe/Paris',
      E2E_CLOCK_START: '2026-06-01T20:00:00Z',
      ADMIN_TOKEN: 'jeton-admin-de-test-de-24-caracteres',
      DEPLOY_TOKENS: 'label:jeton-de-test-de-24-caracteres',
      EDITOR_ORIGIN: 'http://edition.localhost:8080',
      REDIS_URL: 'redis://:secret@127.0.0.1:6379',
      PATH: '/usr/bin',
    });
    expect(config.rendererEnv).toEqual({
      NODE_ENV: 'production',
      TZ: 'Europe/Paris',
      E2E_CLOCK_START: '2026-06-01T20:00:00Z',
    });
  });
});

describe('one rule per kind of setting', () => {
  it('reads a yes or no alike for every variable: on/off, oui/non, true/false, 1/0', () => {
    for (const [written, expected] of [
      ['on', true],
      ['OUI', true],
      ['true', true],
      ['1', true],
      ['off', false],
      ['non', false],
      ['False', false],
      ['0', false],
    ] as const) {
      expect(readSiteServerConfig({ SSR: written }).ssr).toBe(expected);
      expect(readApiConfig({ DEMO_LIVE: written }).demo.live).toBe(expected);
    }
  });

  it('takes an empty variable as unset', () => {
    expect(readSiteServerConfig({ SSR: ' ', PAGE_CACHE_TTL_S: '', PORT: '' })).toMatchObject({
      ssr: true,
      pageCacheTtlMs: 10_000,
      port: 8080,
    });
  });
});

describe('the remote map (REMOTES_CONFIG), checked by the schema the shell reads it with', () => {
  it('moves the remotes it names and keeps the others on this server', () => {
    const { remotes } = readSiteServerConfig({
      REMOTES_CONFIG: '{"label":"https://cdn.example.org/mf-label/mf-manifest.json"}',
    });
    expect(remotes.label).toBe('https://cdn.example.org/mf-label/mf-manifest.json');
    expect(remotes.radio).toBe('/mf-radio/mf-manifest.json');
  });

  it.each([
    ['{"shell":"/mf-shell/mf-manifest.json"}', /REMOTES_CONFIG : remote inconnu « shell »/],
    ['{"label":"ftp://cdn.example.org/m.json"}', /REMOTES_CONFIG : « label » doit être l'URL de son mf-manifest\.json/],
    ['{"label":""}', /« label »/],
    ['["label"]', /objet attendu/],
  ])('refuses REMOTES_CONFIG=%s with a line naming it', (value, message) => {
    expect(() => readSiteServerConfig({ REMOTES_CONFIG: value })).toThrow(message);
  });
});

describe('the remotes in development (DEV_REMOTES, set by npm run dev)', () => {
  it('announces each one on the page’s own origin and reads it from its dev server', () => {
    const config = readSiteServerConfig({ DEV_REMOTES: '{"radio":"http://127.0.0.1:3002"}' });
    expect(config.remotes.radio).toBe('/_dev/mf-radio/mf-manifest.json');
    expect(config.remotes.label).toBe('/mf-label/mf-manifest.json');
    expect(config.devRemotes).toEqual([
      { name: 'radio', prefix: '/_dev/mf-radio/', upstream: 'http://127.0.0.1:3002' },
    ]);
    expect(remotesForServer(config).radio).toBe('http://127.0.0.1:3002/mf-manifest.json');
    expect(remotesForServer(config).label).toBe('/mf-label/mf-manifest.json');
  });

  it('is empty when unset', () => {
    expect(readSiteServerConfig({}).devRemotes).toEqual([]);
  });

  it.each([
    ['{"radio":', /JSON illisible/],
    ['["radio"]', /un objet/],
    ['{"shell":"http://127.0.0.1:3000"}', /remote inconnu « shell »/],
    ['{"radio":"https://127.0.0.1:3002"}', /origine de serveur de développement invalide pour « radio »/],
    ['{"radio":"http://127.0.0.1:3002/chemin"}', /invalide pour « radio »/],
    ['{"radio":3002}', /invalide pour « radio »/],
  ])('refuses DEV_REMOTES=%s with a line naming it', (value, message) => {
    const read = () => readSiteServerConfig({ DEV_REMOTES: value });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(message);
  });
});
