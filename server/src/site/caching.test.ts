import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app/app';
import { testConfig } from '../api/testing/fixtures';
import { readSiteServerConfig } from '../settings/config';
import { pagesJson } from '@collectif/shared/testing';
import { documentJson } from './render/fixtures';

// A built site laid out as `npm run build` writes it (hashed names, pre-compressed .br and .gz
// beside every large file, minified HTML with unquoted attributes), in a folder of the test's own.
let dir: string;
let app: FastifyInstance;

const IMMUTABLE = 'public, max-age=31536000, immutable';

function write(path: string, content: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

/** A file with its .br and .gz, as the build leaves large files. */
function writeCompressed(path: string, content: string): void {
  write(path, content);
  writeFileSync(join(dir, `${path}.br`), brotliCompressSync(content));
  writeFileSync(join(dir, `${path}.gz`), gzipSync(content));
}

function manifest(expose: string, js: string[], css: string[]): string {
  return JSON.stringify({
    id: 'x',
    metaData: { remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' }, publicPath: 'auto' },
    shared: [],
    exposes: [
      { name: expose, path: `./${expose}`, assets: { js: { sync: js, async: [] }, css: { sync: css, async: [] } } },
    ],
  });
}

const big = (name: string) => `/* ${name} */\n${`console.log(${JSON.stringify(name)});\n`.repeat(400)}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'caching-'));
  write('shell/dist/document.json', documentJson(['/main.98035a7579.css'], ['/main.5cf9d34e62.js']));
  writeCompressed('shell/dist/main.5cf9d34e62.js', big('shell'));
  writeCompressed('shell/dist/main.98035a7579.css', `body{color:red}\n${'.a{margin:0}\n'.repeat(300)}`);
  writeCompressed(
    'mf-radio/dist/mf-manifest.json',
    manifest(
      'HomePage',
      ['746.ddfb095012.js', '__federation_expose_HomePage.09a68c192e.js'],
      ['__federation_expose_HomePage.d5f90bec80.css'],
    ),
  );
  writeCompressed('mf-radio/dist/remoteEntry.js', big('radio entry'));
  writeCompressed('mf-radio/dist/746.ddfb095012.js', big('radio chunk'));
  // A chunk without .br/.gz beside it: compressed on the fly.
  write('mf-radio/dist/__federation_expose_HomePage.09a68c192e.js', big('home'));
  writeCompressed(
    'mf-radio/dist/__federation_expose_HomePage.d5f90bec80.css',
    `.home{}\n${'.b{padding:0}\n'.repeat(300)}`,
  );
  writeCompressed(
    'mf-player/dist/mf-manifest.json',
    manifest(
      'Player',
      ['302.20f1992259.js', '__federation_expose_Player.2a37164e17.js'],
      ['__federation_expose_Player.1cb9b2f9d3.css'],
    ),
  );
  writeCompressed('mf-player/dist/remoteEntry.js', big('player entry'));
  writeCompressed('mf-player/dist/302.20f1992259.js', big('player chunk'));
  writeCompressed('mf-player/dist/__federation_expose_Player.2a37164e17.js', big('player'));
  writeCompressed('mf-player/dist/__federation_expose_Player.1cb9b2f9d3.css', `.p{}\n${'.c{border:0}\n'.repeat(300)}`);
  for (const part of ['mf-label', 'mf-about']) write(`${part}/dist/mf-manifest.json`, '{}');
  for (const part of ['mf-radio', 'mf-label', 'mf-about']) write(`${part}/dist/pages.json`, pagesJson(part));
  const site = readSiteServerConfig({ DIST_ROOT: dir, ASSETS_DIR: join(dir, 'assets') });
  app = await buildApp({ site, api: testConfig() });
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every same-origin script, style and preload the home page's HTML announces. */
async function homeFiles(): Promise<string[]> {
  const html = (await app.inject({ url: '/' })).body;
  const urls = new Set<string>();
  // The sheets written into the page name their file (`data-href`), and the loader the shell's entry
  // (`data-src`): the browser's scripts fetch them later.
  for (const match of html.matchAll(
    /<(?:script|link|style)\b[^>]*?\b(?:data-src|data-href|src|href)=(?:"([^"]+)"|([^\s">]+))[^>]*>/g,
  )) {
    const url = match[1] ?? match[2] ?? '';
    // The icons and the web app manifest are the site's own, not the build's (docs/published.md).
    if (/\brel="(?:icon|apple-touch-icon|manifest)"/.test(match[0])) continue;
    if (url.startsWith('/')) urls.add(url);
  }
  return [...urls];
}

describe('cache headers of the files the home page loads', () => {
  it('finds the shell entry, its styles and the remotes’ entries, chunks and styles in the page', async () => {
    expect(await homeFiles()).toEqual(
      expect.arrayContaining([
        '/main.5cf9d34e62.js',
        '/main.98035a7579.css',
        '/mf-radio/mf-manifest.json',
        '/mf-radio/remoteEntry.js',
        '/mf-radio/746.ddfb095012.js',
        '/mf-radio/__federation_expose_HomePage.09a68c192e.js',
        '/mf-radio/__federation_expose_HomePage.d5f90bec80.css',
        '/mf-player/302.20f1992259.js',
        '/mf-player/__federation_expose_Player.1cb9b2f9d3.css',
      ]),
    );
  });

  // What Chromium and Firefox send, what Safari sends, and a client that asks for no encoding.
  it.each([
    ['br, gzip, deflate, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    [undefined, undefined],
  ])(
    'with Accept-Encoding %s: hashed files immutable for a year, entries revalidated, Vary always',
    async (acceptEncoding, expected) => {
      const files = await homeFiles();
      expect(files.length).toBeGreaterThanOrEqual(12);
      for (const url of files) {
        const res = await app.inject({
          url,
          headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
        });
        const seen = {
          url,
          status: res.statusCode,
          cacheControl: res.headers['cache-control'],
          vary: res.headers.vary,
        };
        const hashed = /\.[0-9a-f]{10}\.(js|css)$/.test(url);
        expect(seen).toEqual({
          url,
          status: 200,
          cacheControl: hashed ? IMMUTABLE : 'no-cache',
          vary: expect.stringMatching(/^accept-encoding$/i) as string,
        });
        if (url !== '/mf-radio/__federation_expose_HomePage.09a68c192e.js') {
          expect([url, res.headers['content-encoding']]).toEqual([url, expected]);
        }
      }
    },
  );

  it('still revalidates an entry file served pre-compressed (304 on the same ETag)', async () => {
    const headers = { 'accept-encoding': 'br, gzip, deflate, zstd' };
    const first = await app.inject({ url: '/mf-radio/remoteEntry.js', headers });
    expect(first.headers['content-encoding']).toBe('br');
    const again = await app.inject({
      url: '/mf-radio/remoteEntry.js',
      headers: { ...headers, 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });
});
