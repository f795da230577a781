import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pagesJson } from '@collectif/shared/testing';
import { buildApp } from '../app/app';
import { testConfig } from '../api/testing/fixtures';
import { readSiteServerConfig } from '../settings/config';
import { documentJson } from '../site/render/fixtures';
import { FAKE_ACCOUNT } from './testing/fake-helloasso';

const ADMIN = 'jeton-admin-des-pages-du-soutien';
const XSRF = { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc' };

let dir: string;
let app: FastifyInstance;

function write(path: string, content: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'soutien-pages-'));
  write('shell/dist/document.json', documentJson());
  write('shell/dist/main.0123456789.js', 'console.log("shell");');
  for (const part of ['mf-player', 'mf-radio', 'mf-label', 'mf-about']) write(`${part}/dist/mf-manifest.json`, '{}');
  for (const part of ['mf-radio', 'mf-label', 'mf-about']) write(`${part}/dist/pages.json`, pagesJson(part));
  const site = readSiteServerConfig({ DIST_ROOT: dir, ASSETS_DIR: join(dir, 'shared/assets'), PAGE_CACHE_TTL_S: '0' });
  // HelloAsso configured (nothing listens there: the pages do not ask it).
  app = await buildApp({
    site,
    api: testConfig({
      adminToken: ADMIN,
      support: { helloasso: { ...FAKE_ACCOUNT, apiUrl: 'http://127.0.0.1:9' }, demo: false, taxReceipt: false },
    }),
  });
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The radio's settings a page carries. */
async function pageSupport(url: string): Promise<unknown> {
  const res = await app.inject({ url, headers: { accept: 'text/html' } });
  expect(res.statusCode).toBe(200);
  expect(res.body).not.toContain(FAKE_ACCOUNT.clientSecret);
  const data = /<script type="application\/json" id="radio-config">([^<]*)<\/script>/.exec(res.body)?.[1];
  return (JSON.parse(data ?? '{}') as { support?: unknown }).support;
}

describe('the support links in the pages', () => {
  it('lead to /soutenir while HelloAsso is on, outside once an admin turns it off; no page carries the secret', async () => {
    expect(await pageSupport('/')).toEqual({
      page: '/soutenir',
      external: expect.stringMatching(/^https:\/\//) as unknown,
    });
    const off = await app.inject({
      method: 'PUT',
      url: '/api/content/support',
      headers: { ...XSRF, authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ data: { helloasso: false } }),
    });
    expect(off.statusCode).toBe(200);
    expect(await pageSupport('/label')).toEqual({
      page: '',
      external: expect.stringMatching(/^https:\/\//) as unknown,
    });
  });
});
