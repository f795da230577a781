import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pagesJson, serverContainer } from '@collectif/shared/testing';
import { buildApp } from '../../app/app';
import { testConfig } from '../../api/testing/fixtures';
import { readSiteServerConfig, type Env } from '../../settings/config';
import { documentJson, SHELL, writeUnder } from './fixtures';
import { PAGE_CACHE_CONTROL } from './answer';

// The pages that hold one visitor's own (docs/proposals.md, « Private pages »): a draft shows what
// was typed, a deletion link carries its secret, « Merci ! » names one proposer's number. Asked twice,
// each is rendered twice (its part's modules count their renders) and sent `private, no-store`,
// whoever asks: neither this server's page cache nor a shared cache nor the browser keeps it.

/** A part's server container whose pages say how many times the part has rendered one. */
const counted = (modules: string[]) => `
const React = require('react');
let renders = 0;
const page = (name) => () => {
  renders += 1;
  return React.createElement('p', null, name + ' : rendu ' + renders);
};
exports.modules = { ${modules.map((name) => `${name}: page('${name}')`).join(', ')} };
exports.definitions = {};
`;

const PLAYER = `
const React = require('react');
exports.modules = { Player: () => React.createElement('button', { type: 'button' }, 'Écouter le direct') };
`;

const PRIVATE = 'private, no-store';
const DRAFT = 'brouillon-a1b2c3d4e5f6';
const TOKEN = 'jeton-de-suppression-9z8y7x';

let dir: string;
const apps: FastifyInstance[] = [];

async function start(env: Env = {}): Promise<FastifyInstance> {
  const site = readSiteServerConfig({
    DIST_ROOT: dir,
    ASSETS_DIR: join(dir, 'assets'),
    // Rendered in this process; pages kept a minute, so that a page kept would be seen again.
    RENDERERS: '0',
    PAGE_CACHE_TTL_S: '60',
    ...env,
  });
  const app = await buildApp({ site, api: testConfig() });
  apps.push(app);
  return app;
}

/** How many renders of its part the page says it was (`null`: not rendered on the server). */
const renderOf = (html: string): number | null => {
  const found = /: rendu (\d+)</.exec(html)?.[1];
  return found === undefined ? null : Number(found);
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pages-privees-'));
  const write = (path: string, content: string) => {
    writeUnder(dir, path, content);
  };
  write('shell/dist/document.json', documentJson());
  write('shell/dist/server/remoteEntry.js', serverContainer(SHELL));
  write('mf-player/dist/server/remoteEntry.js', serverContainer(PLAYER));
  write('mf-radio/dist/server/remoteEntry.js', serverContainer(counted(['HomePage', 'ProposeShowPage'])));
  write('mf-label/dist/server/remoteEntry.js', serverContainer(counted(['LabelPage', 'SendDemoPage'])));
  for (const part of ['mf-radio', 'mf-player', 'mf-label', 'mf-about']) write(`${part}/dist/mf-manifest.json`, '{}');
  for (const part of ['mf-radio', 'mf-label', 'mf-about']) write(`${part}/dist/pages.json`, pagesJson(part));
});

afterAll(async () => {
  for (const app of apps) await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('pages of one visitor’s own', () => {
  it.each([
    // The drafts of a refused form, both kinds, and a draft's argument on any other address.
    `/proposer-une-emission?brouillon=${DRAFT}`,
    `/label/envoyer-une-demo?erreur=champs&brouillon=${DRAFT}`,
    `/?brouillon=${DRAFT}`,
    // The deletion links, both kinds, and a token on any other address.
    `/proposer-une-emission/supprimer?numero=E-7K3Q9M&jeton=${TOKEN}`,
    `/label/envoyer-une-demo/supprimer?numero=D-0H2XWA&jeton=${TOKEN}`,
    `/label?jeton=${TOKEN}`,
    // « Merci ! », both kinds: one proposer's number.
    '/proposer-une-emission/merci?numero=E-7K3Q9M',
    '/label/envoyer-une-demo/merci?numero=D-0H2XWA&courriel=non',
  ])('%s is rendered for each request and sent private, no-store', async (url) => {
    const app = await start();
    const first = await app.inject({ url });
    const second = await app.inject({ url });
    expect([first.statusCode, first.headers['cache-control']]).toEqual([200, PRIVATE]);
    expect([second.statusCode, second.headers['cache-control']]).toEqual([200, PRIVATE]);
    // Its address is never sent on as a Referer (its origin alone), to the site itself neither.
    expect(first.headers['referrer-policy']).toBe('strict-origin');
    // Rendered on the server both times: the second is not the page cache's copy of the first.
    const rendered = renderOf(first.body);
    expect(rendered).not.toBeNull();
    expect(renderOf(second.body)).toBe((rendered ?? 0) + 1);
  });

  it('leaves the other pages public and kept: the same address, without its secret, or with others', async () => {
    const app = await start();
    // The form's own page is private through its cookie (docs/proposals.md, « Spam »), not its HTML.
    for (const [url, cacheControl] of [
      ['/', PAGE_CACHE_CONTROL],
      ['/label?numero=D-0H2XWA', PAGE_CACHE_CONTROL],
      ['/proposer-une-emission?erreur=champs', PRIVATE],
    ]) {
      const first = await app.inject({ url });
      const second = await app.inject({ url });
      expect([url, first.headers['cache-control'], second.headers['cache-control']]).toEqual([
        url,
        cacheControl,
        cacheControl,
      ]);
      expect(first.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      // The page cache's copy the second time.
      expect([url, renderOf(second.body)]).toEqual([url, renderOf(first.body)]);
    }
  });

  it('is private too when the browser renders it (SSR=off)', async () => {
    const app = await start({ SSR: 'off' });
    const page = await app.inject({ url: `/label/envoyer-une-demo/supprimer?numero=D-0H2XWA&jeton=${TOKEN}` });
    expect([page.statusCode, page.headers['cache-control']]).toEqual([200, PRIVATE]);
    const home = await app.inject({ url: '/' });
    expect(home.headers['cache-control']).toBe('no-cache');
  });
});
