import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { pagesJson } from '@collectif/shared/testing';
import { buildApp } from './app';
import { testConfig } from '../api/testing/fixtures';
import { readSiteServerConfig } from '../settings/config';
import { documentJson } from '../site/render/fixtures';

/**
 * The security headers of every kind of answer (docs/server.md, « Security headers »): a page, an
 * /api answer, the built files; and nginx's list for the files it serves itself
 * (deploy/security-headers.conf), which must be the server's.
 */

/** On every answer, document or not. */
const EVERY_ANSWER = {
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-resource-policy': 'cross-origin',
};

/** On documents only: they mean nothing on a script, a picture or data. */
const DOCUMENT_ONLY = ['content-security-policy', 'cross-origin-opener-policy', 'origin-agent-cluster'];

/** Sent by helmet by default, obsolete or redundant for the browsers the site runs in: never sent. */
const NEVER = [
  'x-xss-protection',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-dns-prefetch-control',
  'x-frame-options',
  'x-powered-by',
];

/** Every security header the server could send, to compare whole sets. */
const SECURITY_HEADERS = [
  ...Object.keys(EVERY_ANSWER),
  ...DOCUMENT_ONLY,
  ...NEVER,
  'cross-origin-embedder-policy',
  'permissions-policy',
];

/** The security headers an answer carries, by name. */
function security(headers: OutgoingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    SECURITY_HEADERS.filter((name) => headers[name] !== undefined).map((name) => [name, String(headers[name])]),
  );
}

let dir: string;
let app: FastifyInstance;

function write(path: string, content: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'securite-'));
  write('shell/dist/document.json', documentJson());
  write('shell/dist/main.0123456789.js', 'console.log("shell");');
  write('shell/dist/hors-ligne.html', '<!doctype html><title>Hors ligne</title>');
  write('mf-radio/dist/remoteEntry.js', 'var r;');
  write('mf-radio/dist/263.abcdef0123.js', 'var chunk;');
  for (const part of ['mf-player', 'mf-radio', 'mf-label', 'mf-about']) write(`${part}/dist/mf-manifest.json`, '{}');
  for (const part of ['mf-radio', 'mf-label', 'mf-about']) write(`${part}/dist/pages.json`, pagesJson(part));
  write('shared/assets/images/default-cover.webp', 'RIFF');
  const site = readSiteServerConfig({ DIST_ROOT: dir, ASSETS_DIR: join(dir, 'shared/assets') });
  app = await buildApp({ site, api: testConfig() });
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('security headers', () => {
  it('puts the common ones and the document ones on a page, and no obsolete one', async () => {
    for (const url of ['/', '/label', '/hors-ligne.html']) {
      const res = await app.inject({ url, headers: { accept: 'text/html' } });
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect(res.headers['content-type']).toContain('text/html');
      const sent = security(res.headers);
      expect(sent).toMatchObject(EVERY_ANSWER);
      expect(sent['cross-origin-opener-policy']).toBe('same-origin');
      expect(sent['origin-agent-cluster']).toBe('?1');
      // Framing is refused by the policy alone (X-Frame-Options is among NEVER).
      expect(sent['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(Object.keys(sent).sort()).toEqual([...Object.keys(EVERY_ANSWER), ...DOCUMENT_ONLY].sort());
    }
  });

  it('puts exactly the common ones on /api answers, its errors included', async () => {
    for (const [url, status] of [
      ['/api/radio', 200],
      ['/api/absente', 404],
    ] as const) {
      const res = await app.inject({ url });
      expect([url, res.statusCode]).toEqual([url, status]);
      expect([url, security(res.headers)]).toEqual([url, EVERY_ANSWER]);
    }
  });

  it('puts exactly the common ones on the built files', async () => {
    for (const url of [
      '/main.0123456789.js',
      '/mf-radio/remoteEntry.js',
      '/mf-radio/263.abcdef0123.js',
      '/assets/images/default-cover.webp',
      '/remotes.json',
    ]) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect([url, security(res.headers)]).toEqual([url, EVERY_ANSWER]);
    }
  });

  it('gives nginx the same list for the files it serves itself, on its errors too', async () => {
    const snippet = readFileSync(join(__dirname, '..', '..', '..', 'deploy', 'security-headers.conf'), 'utf8');
    const nginx: Record<string, string> = {};
    for (const line of snippet.split('\n').filter((text) => text.startsWith('add_header'))) {
      // `always`: on nginx's own errors too.
      const [, name, value] = /^add_header ([\w-]+) "([^"]*)" always;$/.exec(line) ?? [];
      expect([line, name !== undefined && value !== undefined]).toEqual([line, true]);
      nginx[String(name).toLowerCase()] = String(value);
    }
    const file = await app.inject({ url: '/mf-radio/263.abcdef0123.js' });
    expect(nginx).toEqual(security(file.headers));
  });
});
