import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app/app';
import { testConfig } from '../api/testing/fixtures';
import { readSiteServerConfig } from '../settings/config';
import { embedFrameModel } from './embed-frame';
import { renderDocument } from './render/document';
import { documentJson } from './render/fixtures';

/** The iframe player's page (docs/embed.md, « The iframe player »), through the whole server. */
let dir: string;
let app: FastifyInstance;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cadre-'));
  mkdirSync(join(dir, 'shell/dist'), { recursive: true });
  writeFileSync(join(dir, 'shell/dist/document.json'), documentJson([], []));
  const site = readSiteServerConfig({ DIST_ROOT: dir, ASSETS_DIR: join(dir, 'assets') });
  app = await buildApp({ site, api: testConfig() });
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('GET /embed/lecteur', () => {
  it('is the player with the address’s choices, framable by any site, cached a few minutes', async () => {
    const res = await app.inject({ url: '/embed/lecteur?residence=axonberg&theme=clair&couleur=1E90FF&format=carte' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['x-frame-options']).toBeUndefined();
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toContain('frame-ancestors *');
    expect(policy).not.toContain("'unsafe-inline'");
    expect(res.body).toContain(
      '<collectif-player api-base="/api" residence="axonberg" theme="clair" couleur="#1e90ff" format="carte"></collectif-player>',
    );
    expect(res.body).toContain('<script defer="" src="/embed/collectif-player.js"></script>');
    expect(res.body).toContain('<title>Lecteur Collectif Garonne : une résidence</title>');
    expect(res.body).toContain('<html lang="fr" data-collectif-cadre="">');
    expect(res.body).toContain('<meta name="robots" content="noindex"/>');
  });

  it('allows its one style by its hash, and the site’s pages stay unframable', async () => {
    const frame = await app.inject({ url: '/embed/lecteur' });
    const style = /<style>([^<]*)<\/style>/.exec(frame.body)?.[1] ?? '';
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256').update(style).digest('base64');
    expect(String(frame.headers['content-security-policy'])).toContain(`'sha256-${hash}'`);

    const page = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    // The policy alone refuses framing: no X-Frame-Options on any page (docs/server.md).
    expect(String(page.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    expect(page.headers['x-frame-options']).toBeUndefined();
  });

  it('reads hostile or unknown values as the defaults, and writes nothing as it came', () => {
    const hostile = new URLSearchParams({
      episode: '"><script>alert(1)</script>',
      residence: '../../etc/passwd',
      theme: '" onload="alert(1)',
      couleur: 'red;background:url(javascript:alert(1))',
      format: 'x'.repeat(5000),
    });
    const html = renderDocument(embedFrameModel(hostile));
    expect(html).toContain('<collectif-player api-base="/api"></collectif-player>');
    expect(html).not.toContain('alert');
    expect(html).not.toContain('passwd');
    expect(html).toContain('<title>Lecteur Collectif Garonne : le direct</title>');
  });

  it('passes « Écoute en différé » (differe=1) to the player it mounts, off by default', async () => {
    const asked = await app.inject({ url: '/embed/lecteur?residence=axonberg&differe=1' });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('<collectif-player api-base="/api" residence="axonberg" differe></collectif-player>');
    // The same policy: the option adds nothing to the page but the attribute.
    const plain = await app.inject({ url: '/embed/lecteur?residence=axonberg' });
    expect(plain.body).toContain('<collectif-player api-base="/api" residence="axonberg"></collectif-player>');
    expect(asked.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
  });

  it('ignores a hostile or unknown value of differe, and writes nothing of it', async () => {
    for (const value of ['0', 'non', '"><script>alert(1)</script>', '1 onload=alert(1)', '1'.repeat(5000)]) {
      const res = await app.inject({ url: `/embed/lecteur?${new URLSearchParams({ differe: value }).toString()}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<collectif-player api-base="/api"></collectif-player>');
      expect(res.body).not.toContain('alert');
    }
    // Given twice, the first counts, as for every choice (URLSearchParams.get).
    const twice = await app.inject({ url: '/embed/lecteur?differe=%3Cscript%3E&differe=1' });
    expect(twice.body).toContain('<collectif-player api-base="/api"></collectif-player>');
  });

  it('answers HEAD, and a query string that cannot be decoded as the defaults', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/embed/lecteur?episode=un-episode' });
    expect(head.statusCode).toBe(200);
    const broken = await app.inject({ url: '/embed/lecteur?episode=%E0%A4%A' });
    expect(broken.statusCode).toBe(200);
    expect(broken.body).toContain('<collectif-player api-base="/api"></collectif-player>');
  });
});
