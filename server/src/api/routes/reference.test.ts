import type { FastifyInstance } from 'fastify';
import { buildApi, testConfig } from '../testing/fixtures';

// The API's reference page (docs/api.md, « The reference page »): the page, its start script and
// Scalar's files from the site itself, each kept as long as its address says; nothing else of the
// package is served.

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildApi({ config: testConfig() });
});

afterAll(async () => {
  await app.close();
});

/** The site's addresses a page names in `src` and `href`, and the imports of a module. */
const addressesIn = (text: string) =>
  [...text.matchAll(/(?:src|href)="(\/[^"]+)"|from '(\/[^']+)'|import\('(\/[^']+)'\)/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? '',
  );

describe('GET /api/docs', () => {
  it('is a French page whose script, module and sheet are the site’s own files', async () => {
    const page = await app.inject({ url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<html lang="fr">');
    expect(page.body).toContain('<title>Référence de l’API</title>');
    // No inline script (the site's policy runs none) and no other origin.
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.body).not.toMatch(/https?:\/\//);
    const named = addressesIn(page.body);
    expect(named).toEqual(expect.arrayContaining(['/api/docs/reference.js', '/api/openapi.json']));
    const start = await app.inject({ url: '/api/docs/reference.js' });
    expect(start.headers['content-type']).toMatch(/^text\/javascript/);
    expect(start.body).toContain("url: '/api/openapi.json'");
    expect(start.body).toContain('withDefaultFonts: false');
    const files = [...named, ...addressesIn(start.body)].filter((address) => address.includes('/scalar/'));
    expect(files).toHaveLength(2);
    for (const file of files) {
      const answer = await app.inject({ url: file });
      expect({ file, status: answer.statusCode }).toEqual({ file, status: 200 });
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('serves nothing else of the package: no source map, no manifest, no way out of its folder', async () => {
    const page = await app.inject({ url: '/api/docs' });
    const sheet = addressesIn(page.body).find((address) => address.endsWith('style.css')) ?? '';
    const folder = sheet.slice(0, -'style.css'.length);
    for (const url of [
      `${folder}browser/standalone.esm.js.map`,
      `${folder}index.js`,
      `${folder}..%2Fpackage.json`,
      `${folder}browser/chunks/..%2F..%2F..%2Fpackage.json`,
    ]) {
      const answer = await app.inject({ url });
      expect({ url, status: answer.statusCode }).toEqual({ url, status: 404 });
      expect(answer.json()).toEqual({
        error: 'not_found',
        message: 'Ce fichier de la référence de l’API n’existe pas.',
      });
    }
    // A path the router reads out of the folder is no file of it either.
    for (const url of [`${folder}../package.json`, `${folder}%2e%2e/%2e%2e/%2e%2e/package.json`])
      expect((await app.inject({ url })).statusCode).toBe(404);
  });
});
