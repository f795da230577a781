import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { pageTable, readPageDeclarations, type PageRef } from '@collectif/shared';
import { buildApp } from '../app/app';
import { testConfig } from '../api/testing/fixtures';
import { readSiteServerConfig } from '../settings/config';
import { checkAddresses, DeployRefused } from './checks';

// A page address belongs to one part (docs/parts.md, « Addresses »), and none is the server's: every
// route the server answers, with every optional plugin on, is refused to a remote's pages, at deploy
// and when serving. A route added to the server without its reserved address fails here.

let dir: string;
let app: FastifyInstance;
/** Every route the app adds, but the pages' own (`/`, `/*`). */
const routes = new Set<string>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'addresses-'));
  // The embeddable player built, so that its files are served.
  mkdirSync(join(dir, 'mf-player', 'dist-embed'), { recursive: true });
  const onRoute = (route: RouteOptions): void => {
    if (route.url !== '/' && route.url !== '/*') routes.add(route.url);
  };
  // Fastify announces each instance it makes, before any plugin (as docs.test.ts reads the routes).
  const onInstance = (message: unknown): void => {
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', onRoute);
  };
  subscribe('fastify.initialization', onInstance);
  try {
    const site = readSiteServerConfig({
      DIST_ROOT: dir,
      ASSETS_DIR: join(dir, 'assets'),
      DEV_REMOTES: JSON.stringify({ radio: 'http://127.0.0.1:9' }),
      RENDERERS: '1',
      DEPLOY_TOKENS: 'label:jeton-de-test-de-24-caracteres',
      EDITOR_ORIGIN: 'http://edition.localhost:8080',
    });
    // The live's timeline kept: its routes under /direct/ (no recorder: the app does not listen).
    const timeshift = { hours: 4, dir: join(dir, 'direct'), segmentSeconds: 10 };
    app = await buildApp({ site, api: testConfig({ adminToken: 'jeton-de-test', timeshift }) });
  } finally {
    unsubscribe('fastify.initialization', onInstance);
  }
  await app.ready();
}, 60_000);

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The page paths that would take a route's address: the route as a page would write it (`*` some
 * word), and with each segment a page cannot write (a dot, an underscore) as a parameter.
 */
function claimsOn(url: string): string[] {
  const segments = url
    .replace(/^\/|\/$/g, '')
    .split('/')
    .map((segment) => (segment === '*' ? 'x' : segment));
  return [segments.join('/'), segments.map((segment) => (/^[a-z0-9-]+$|^:/.test(segment) ? segment : ':p')).join('/')];
}

/** Whether a remote's build could declare `path` at all (pages.json's own check). */
const declarable = (path: string): boolean => {
  try {
    readPageDeclarations([{ path, module: 'HomePage', title: 'T', area: 'a' }], 'radio');
    return true;
  } catch {
    return false;
  }
};

describe("the server's routes", () => {
  it('are many, the optional ones included', () => {
    expect([...routes]).toEqual(
      expect.arrayContaining([
        '/api/parts/:part',
        '/healthz',
        '/readyz',
        '/sitemap.xml',
        '/robots.txt',
        '/manifest.webmanifest',
        '/remotes.json',
        '/oembed',
        '/embed/lecteur',
        '/media/:file',
        '/residences/:id/feed.xml',
        '/mf-label/*',
        '/_dev/mf-radio/*',
        '/direct/live.m3u8',
        '/direct/:rendition/:file',
      ]),
    );
  });

  it("are no remote's page: a claim on any of them is left out of the table, and refused at deploy", () => {
    const declared = [...routes].flatMap(claimsOn).filter(declarable);
    expect(declared.length).toBeGreaterThan(20);
    const pages: PageRef[] = declared.map((path) => ({
      remote: 'radio',
      path,
      module: 'HomePage',
      title: 'T',
      area: 'a',
    }));
    const refused = new Set<string>();
    expect(pageTable({ radio: pages }, { refused: (page) => refused.add(page.path) })).toEqual([]);
    expect(declared.filter((path) => !refused.has(path))).toEqual([]);
    for (const page of pages) {
      expect(() => {
        checkAddresses('label', [{ ...page, remote: 'label' }], []);
      }).toThrow(DeployRefused);
    }
  });
});
