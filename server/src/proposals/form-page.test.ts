import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app/app';
import { testConfig } from '../api/testing/fixtures';
import { readSiteServerConfig } from '../settings/config';
import { writeLeastSite } from '../site/render/fixtures';
import { FORM_COOKIE } from './spam';

// The form's page gives each visitor the single-use token of the form without JavaScript, in a
// cookie the proposal routes alone receive, never with another site's post; the page is then the
// visitor's own (docs/proposals.md, « Spam »). A built site laid out as the build writes it, in a
// folder of the test's own.

let dir: string;
let app: FastifyInstance;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'page-proposition-'));
  writeLeastSite(dir);
  const site = readSiteServerConfig({ DIST_ROOT: dir, ASSETS_DIR: join(dir, 'assets') });
  app = await buildApp({ site, api: testConfig() });
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the form’s page', () => {
  it.each(['/proposer-une-emission', '/label/envoyer-une-demo'])(
    '%s sets the form’s token, for the proposal routes only, and is kept by no shared cache',
    async (url) => {
      const page = await app.inject({ url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('private, no-store');
      const cookie = String(page.headers['set-cookie']);
      const token = new RegExp(
        `^${FORM_COOKIE}=([^;]+); Path=/api/proposals; Max-Age=86400; HttpOnly; SameSite=Strict$`,
      ).exec(cookie)?.[1];
      expect(token).toBeDefined();
      // A token of the server's, just given: too fast to be sent yet, then good for one proposal.
      expect(app.proposals.spam.formFilled(token)).toMatchObject({ verdict: 'fast' });
      // Each visitor their own.
      const again = String((await app.inject({ url })).headers['set-cookie']);
      expect(again).not.toBe(cookie);
    },
  );

  it('is given only on the form itself, not on any other page', async () => {
    for (const url of ['/', '/label', '/proposer-une-emission/merci?numero=E-7K3Q9M']) {
      const page = await app.inject({ url });
      expect(String(page.headers['set-cookie'] ?? '')).not.toContain(`${FORM_COOKIE}=`);
    }
  });
});
