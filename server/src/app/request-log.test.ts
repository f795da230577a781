import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { testConfig } from '../api/testing/fixtures';
import { readSiteServerConfig } from '../settings/config';
import { writeLeastSite } from '../site/render/fixtures';

// The request log never shows a secret an address carries (docs/proposals.md, « Private pages »;
// docs/support.md, « Notifications »): a refused form's draft (its `brouillon`, and the same id in
// the address the page reads it from), a deletion link's `jeton`, HelloAsso's notification key. The
// whole app logs as it does in production, into lines this test reads.

const TOKEN = 'jeton-de-suppression-9z8y7x';
const NOTIFICATION_KEY = 'cle-des-notifications-helloasso-1234';

let dir: string;
let app: FastifyInstance;
const lines: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'journal-'));
  writeLeastSite(dir);
  const site = readSiteServerConfig({ DIST_ROOT: dir, ASSETS_DIR: join(dir, 'assets'), LOG_LEVEL: 'info' });
  app = await buildApp({
    site,
    api: testConfig(),
    logger: {
      write: (line) => {
        lines.push(line);
      },
    },
  });
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The addresses of the log's request lines. */
const loggedUrls = (): string[] =>
  lines.flatMap((line) => {
    const { req } = JSON.parse(line) as { req?: { url?: string } };
    return req?.url === undefined ? [] : [req.url];
  });

describe('the request log', () => {
  it('shows no draft’s id, no deletion token and no notification key, only where they were', async () => {
    // A form refused without JavaScript (no form's token) goes back to its page with its draft's id.
    const refused = await app.inject({
      method: 'POST',
      url: '/api/proposals/emission',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      payload: new URLSearchParams({ name: 'Les Ondes Lentes', email: 'camille@example.org' }).toString(),
    });
    expect(refused.statusCode).toBe(303);
    const draft = new URL(String(refused.headers.location), 'https://radio.example.org').searchParams.get('brouillon');
    expect(draft).toMatch(/^[\w-]{8,}$/);
    const id = draft ?? '';
    // The draft's page, and its draft read from /api as the page does.
    expect((await app.inject({ url: `/proposer-une-emission?brouillon=${id}` })).statusCode).toBe(200);
    expect((await app.inject({ url: `/api/proposals/drafts/${id}` })).statusCode).toBe(200);
    // The draft's argument wherever it is in the query, however its name is written.
    await app.inject({ url: `/label/envoyer-une-demo?erreur=champs&br%6Fuillon=${id}&x=1` });
    // The deletion links, both kinds.
    await app.inject({ url: `/proposer-une-emission/supprimer?numero=E-7K3Q9M&jeton=${TOKEN}` });
    await app.inject({ url: `/label/envoyer-une-demo/supprimer?jeton=${TOKEN}&numero=D-0H2XWA` });
    // HelloAsso's notification address (answered or not, its request is logged).
    await app.inject({ method: 'POST', url: `/api/support/notifications/${NOTIFICATION_KEY}`, payload: {} });

    const log = lines.join('');
    for (const secret of [id, TOKEN, NOTIFICATION_KEY]) expect(log).not.toContain(secret);
    expect(loggedUrls()).toEqual(
      expect.arrayContaining([
        '/proposer-une-emission?brouillon=…',
        '/api/proposals/drafts/…',
        '/label/envoyer-une-demo?erreur=champs&br%6Fuillon=…&x=1',
        '/proposer-une-emission/supprimer?numero=E-7K3Q9M&jeton=…',
        '/label/envoyer-une-demo/supprimer?jeton=…&numero=D-0H2XWA',
        '/api/support/notifications/…',
      ]),
    );
  });
});
