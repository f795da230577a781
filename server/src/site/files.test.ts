import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { siteConfig } from '@collectif/shared/config';
import { pagesJson } from '@collectif/shared/testing';
import { buildApp } from '../app/app';
import { testConfig } from '../api/testing/fixtures';
import { ConfigError, defaultRemotes, readRemotes, readSiteServerConfig } from '../settings/config';
import { documentJson } from './render/fixtures';

let dir: string;
let app: FastifyInstance;

function write(path: string, content: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'site-'));
  // What the shell's build says its page needs (shared/build/webpack.mjs, DocumentAssetsPlugin).
  write('shell/dist/document.json', documentJson());
  write('shell/dist/main.js', 'console.log("shell");'.repeat(100));
  write('shell/dist/140.0123456789.js', 'x');
  // A file of the shell's build at a page's address: the page comes first.
  write('shell/dist/label', 'un fichier, pas la page');
  write('mf-radio/dist/mf-manifest.json', '{"id":"collectif_radio"}');
  write('mf-radio/dist/remoteEntry.js', 'var r;');
  write('mf-radio/dist/263.abcdef0123.js', 'var chunk;');
  for (const part of ['mf-player', 'mf-label', 'mf-about']) write(`${part}/dist/mf-manifest.json`, '{}');
  // The pages the remotes declare, as their builds write them.
  for (const part of ['mf-radio', 'mf-label', 'mf-about']) write(`${part}/dist/pages.json`, pagesJson(part));
  write('shared/assets/images/default-cover.webp', 'RIFF');
  const site = readSiteServerConfig({ DIST_ROOT: dir, ASSETS_DIR: join(dir, 'shared/assets') });
  app = await buildApp({ site, api: testConfig() });
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('site server', () => {
  it('serves the shell for every page path, so deep links and reloads work', async () => {
    for (const [url, title] of [
      ['/', 'Accueil'],
      ['/residences/axonberg', 'Résidence'],
      ['/a-propos?x=1', 'Collectif Garonne À Propos'],
    ]) {
      const res = await app.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain(`<title>${String(title)}</title>`);
      // The remote map is written into the page (server/src/site/render/page-writer.ts).
      expect(res.body).toContain(
        `<script type="application/json" id="remotes-config">${JSON.stringify(defaultRemotes)}</script>`,
      );
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it("answers a page of the table before a file of the same name, then the shell's files, then 404", async () => {
    const page = await app.inject({ url: '/label' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<title>Label</title>');
    const file = await app.inject({ url: '/main.js' });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('console.log("shell")');
    for (const url of ['/absent.js', '/api/absente', '/embed/absent.js', '/mf-radio/absent.js']) {
      const missing = await app.inject({ url });
      expect([url, missing.statusCode]).toEqual([url, 404]);
      expect(missing.json<{ error: string }>().error).toBe('not_found');
    }
    // An address that is neither a page nor a file is sent home, as the shell's router does.
    const unknown = await app.inject({ url: '/nulle-part' });
    expect(unknown.statusCode).toBe(302);
    expect(unknown.headers.location).toBe('/');
  });

  it('caches hashed chunks for a year and revalidates entry files', async () => {
    const chunk = await app.inject({ url: '/mf-radio/263.abcdef0123.js' });
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/mf-radio/remoteEntry.js', '/mf-radio/mf-manifest.json', '/main.js']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.etag).toBeDefined();
    }
  });

  it('answers 304 to a revalidation with the same ETag', async () => {
    const first = await app.inject({ url: '/mf-radio/remoteEntry.js' });
    const again = await app.inject({
      url: '/mf-radio/remoteEntry.js',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('does not hide a missing remote file behind the shell', async () => {
    const res = await app.inject({ url: '/mf-radio/missing.js' });
    expect(res.statusCode).toBe(404);
  });

  it('compresses with brotli or gzip as the client accepts', async () => {
    const br = await app.inject({ url: '/main.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    const gz = await app.inject({ url: '/main.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
  });

  it('sends security headers and a CSP naming the third parties the site embeds', async () => {
    const res = await app.inject({ url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' https://embed.twitch.tv");
    expect(csp).toContain(
      "frame-src 'self' https://embed.twitch.tv https://player.twitch.tv https://calendar.google.com",
    );
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('leaves the document-only headers off scripts and data, and keeps the others', async () => {
    for (const url of ['/main.js', '/mf-radio/remoteEntry.js', '/remotes.json']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toBeDefined();
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    }
    const page = await app.inject({ url: '/label' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    // Framing is refused by the policy's `frame-ancestors 'self'` alone (docs/server.md).
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(page.headers['x-frame-options']).toBeUndefined();
  });

  it('serves the runtime remote map and a health check', async () => {
    const remotes = await app.inject({ url: '/remotes.json' });
    expect(remotes.json()).toEqual(defaultRemotes);
    expect(remotes.headers['cache-control']).toBe('no-cache');
    const health = await app.inject({ url: '/healthz' });
    expect(health.json()).toEqual({ status: 'ok' });
  });

  it('serves generated images', async () => {
    const res = await app.inject({ url: '/assets/images/default-cover.webp' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
  });
});

describe('remote map configuration', () => {
  it('overrides one remote from REMOTES_CONFIG, keeping the others', () => {
    const remotes = readRemotes({ REMOTES_CONFIG: '{"label":"https://cdn.example.org/mf-label/mf-manifest.json"}' });
    expect(remotes.label).toBe('https://cdn.example.org/mf-label/mf-manifest.json');
    expect(remotes.radio).toBe(defaultRemotes.radio);
  });

  it('reads REMOTES_CONFIG_FILE', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'remotes-')), 'remotes.json');
    writeFileSync(file, '{"about":"/autre/mf-manifest.json"}');
    expect(readRemotes({ REMOTES_CONFIG_FILE: file }).about).toBe('/autre/mf-manifest.json');
  });

  it.each([
    ['{"label":', 'REMOTES_CONFIG : JSON illisible'],
    ['{"shop":"/x.json"}', 'remote inconnu « shop »'],
    ['{"label":"javascript:alert(1)"}', "« label » doit être l'URL de son mf-manifest.json"],
    ['[]', 'objet attendu'],
  ])('rejects %s with a message naming the variable', (value, message) => {
    expect(() => readRemotes({ REMOTES_CONFIG: value })).toThrow(ConfigError);
    expect(() => readRemotes({ REMOTES_CONFIG: value })).toThrow(message);
  });

  it('rejects a wrong PORT', () => {
    expect(() => readSiteServerConfig({ PORT: 'huit' })).toThrow(
      'PORT : valeur invalide « huit » (attendu : un nombre entier de 0 à 65535)',
    );
  });

  it('adds a remote hosted elsewhere to the CSP', async () => {
    const site = readSiteServerConfig({
      DIST_ROOT: dir,
      REMOTES_CONFIG: '{"label":"https://cdn.example.org/mf-label/mf-manifest.json"}',
    });
    const other = await buildApp({ site, api: testConfig() });
    const res = await other.inject({ url: '/' });
    expect(String(res.headers['content-security-policy'])).toContain(
      "script-src 'self' https://embed.twitch.tv https://cdn.example.org",
    );
    await other.close();
  });
});

describe('the radio settings in the page', () => {
  const hostile = '</script><script>alert(1)</script>\u2028\u2029<!--';
  let other: FastifyInstance;

  beforeAll(async () => {
    const site = readSiteServerConfig({ DIST_ROOT: dir, ASSETS_DIR: join(dir, 'shared/assets') });
    const api = testConfig(
      {},
      {
        LIVE_STREAM_URL: 'https://icecast.example.net/direct.mp3',
        CHAT_EMBED_URL: 'https://salons.example.net/{room}?embed',
        CHAT_ROOM: hostile,
        TWITCH_CHANNEL: 'autre_chaine',
      },
    );
    other = await buildApp({ site, api });
  });

  afterAll(() => other.close());

  it('writes them into every page, beside the remote map, escaped so that nothing closes the script', async () => {
    for (const url of ['/', '/residences/axonberg', '/a-propos']) {
      const res = await other.inject({ url, headers: { accept: 'text/html' } });
      const match =
        /<script type="application\/json" id="radio-config">([^<]*)<\/script><script type="application\/json" id="remotes-config">/.exec(
          res.body,
        );
      expect(match).not.toBeNull();
      const text = match?.[1] ?? '';
      expect(text).not.toMatch(/[<\u2028\u2029]/);
      expect(JSON.parse(text)).toEqual({
        liveStreamUrl: 'https://icecast.example.net/direct.mp3',
        chatEmbedUrl: 'https://salons.example.net/{room}?embed',
        chatRoom: hostile,
        twitchChannel: 'autre_chaine',
        renditions: [
          {
            id: 'normale',
            label: 'Normale',
            url: 'https://icecast.example.net/direct.mp3',
            bitrate: 128,
            codec: 'mp3',
          },
        ],
        timeshift: { playlist: '/direct/live.m3u8', hours: 4 },
        // HelloAsso on the site (the embedded demo's, as nothing is configured): « Nous soutenir » leads to /soutenir.
        support: { page: '/soutenir', external: siteConfig.links.donation },
      });
      // The table of pages, the radio's settings, the remote map and the shell's entry: no other script.
      expect(res.body.match(/<script/g)).toHaveLength(4);
    }
  });

  it('allows the chat of the settings in the CSP, not the one of site.json', async () => {
    const res = await other.inject({ url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/salons\.example\.net/);
    expect(csp).not.toContain(new URL(siteConfig.radio.chatEmbedUrl.replace('{room}', 'x')).origin);
  });
});
