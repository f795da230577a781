import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../app/app';
import { readSiteServerConfig } from '../settings/config';
import { testConfig } from './testing/fixtures';

// The API's description lists only what the public may call (docs/api.md, « The description »):
// no route of the editor, of the demo's stand-ins, of the admins, of nginx's mirror on the
// loopback, of HelloAsso's notifications or of a team's deploy. Read from the whole app's real
// routes, every optional plugin on, so that a route added tomorrow is checked too.

interface Registered {
  method: string;
  url: string;
  config: RouteOptions['config'];
}

let dir: string;
let app: FastifyInstance;
/** Every /api route the app adds (HEAD left out), with its config (Fastify announces each instance it makes). */
const registered: Registered[] = [];
/** Its description's operations, as `GET /api/episodes/:slug`. */
let described: Set<string>;

const keyOf = (method: string, url: string) => `${method} ${url}`;
const key = (route: Registered) => keyOf(route.method, route.url);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'openapi-public-'));
  mkdirSync(join(dir, 'mf-player', 'dist-embed'), { recursive: true });
  const onRoute = (route: RouteOptions): void => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method !== 'HEAD' && route.url.startsWith('/api/'))
        registered.push({ method, url: route.url, config: route.config });
    }
  };
  const onInstance = (message: unknown): void => {
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', onRoute);
  };
  subscribe('fastify.initialization', onInstance);
  try {
    const site = readSiteServerConfig({
      DIST_ROOT: dir,
      ASSETS_DIR: join(dir, 'assets'),
      // One renderer: with DEPLOY_TOKENS, the server refuses to render in its own process.
      RENDERERS: '1',
      // The teams' deploys and the editor's own origin: their routes too.
      DEPLOY_TOKENS: 'label:jeton-de-test-de-24-caracteres',
      EDITOR_ORIGIN: 'http://edition.localhost:8080',
    });
    // The demo, with the admins' token: its stand-ins and the admins' switch are registered.
    app = await buildApp({ site, api: testConfig({ adminToken: 'jeton-de-test' }) });
  } finally {
    unsubscribe('fastify.initialization', onInstance);
  }
  await app.ready();
  const answer = await app.inject({ url: '/api/openapi.json' });
  expect(answer.statusCode).toBe(200);
  const { paths } = answer.json<{ paths: Record<string, Record<string, unknown>> }>();
  described = new Set(
    Object.entries(paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => method !== 'head')
        .map((method) => keyOf(method.toUpperCase(), path.replace(/\{([^}]+)\}/g, ':$1').replace(/:\*$/, '*'))),
    ),
  );
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The registered routes that `keep` says, as `METHOD /url`, each once. */
const routesWhere = (keep: (route: Registered) => boolean): string[] => [...new Set(registered.filter(keep).map(key))];

describe('GET /api/openapi.json describes only what the public may call', () => {
  it('holds no route the editor’s origin answers, unless it is the public’s too', () => {
    const editors = routesWhere((route) => route.config?.editor === true && route.config.public !== true);
    // The editor's sign-in, its content writes and reads, the proposals' and the figures' pages.
    expect(editors).toEqual(
      expect.arrayContaining([
        'POST /api/editor/signin',
        'GET /api/editor/me',
        'PUT /api/content/:kind',
        'GET /api/content/:kind/history',
        'POST /api/content/pictures',
        'GET /api/content/tracklists/:episode/current',
        'GET /api/editor/proposals',
        'PUT /api/editor/proposals/:number/state',
        'GET /api/editor/figures/audience',
        'GET /api/editor/figures/support',
      ]),
    );
    expect(editors.filter((route) => described.has(route))).toEqual([]);
  });

  it('holds no route under /api/editor, /api/demo or /api/admin, nor the reference page', () => {
    const named = routesWhere((route) => /^\/api\/(?:editor|demo|admin|docs)(?:\/|$)/.test(route.url));
    expect(named).toEqual(
      expect.arrayContaining([
        'GET /api/docs',
        'GET /api/docs/reference.js',
        'POST /api/demo/helloasso/oauth2/token',
        'GET /api/demo/live.mp3',
        'GET /api/demo/replays/*',
        'POST /api/admin/live',
        'POST /api/editor/signout',
      ]),
    );
    expect(named.filter((route) => described.has(route))).toEqual([]);
  });

  it('holds neither nginx’s mirror, nor HelloAsso’s notifications, nor a team’s deploy', () => {
    const others = routesWhere((route) => route.config?.caller !== undefined);
    expect(others.sort()).toEqual(
      [
        'GET /api/figures/timeline',
        'POST /api/support/notifications/:key',
        'PUT /api/parts/:part',
        'POST /api/parts/:part/rollback',
      ].sort(),
    );
    expect(others.filter((route) => described.has(route))).toEqual([]);
  });

  it('holds an editor’s read exactly when it answers without signing in', async () => {
    // Each GET the editor's origin answers, asked by a visitor with no session on the public origin:
    // refused (401, 403) is the editor's and absent; answered (even 404) is the public's, and there.
    const reads = routesWhere((route) => route.method === 'GET' && route.config?.editor === true);
    const seen: { route: string; refused: boolean; described: boolean }[] = [];
    for (const route of reads) {
      const url = route.slice('GET '.length).replace(':kind', 'residences').replace(/:\w+/g, 'x');
      const { statusCode } = await app.inject({ url });
      seen.push({ route, refused: statusCode === 401 || statusCode === 403, described: described.has(route) });
    }
    expect(seen.filter((each) => each.refused === each.described)).toEqual([]);
    expect(seen.filter((each) => each.refused).length).toBeGreaterThan(5);
  });

  it('still holds the public’s routes', () => {
    expect([...described]).toEqual(
      expect.arrayContaining([
        'GET /api/openapi.json',
        'GET /api/xsrf',
        'GET /api/podcasts',
        'GET /api/episodes',
        'GET /api/episodes/:slug',
        'GET /api/episodes/:slug/chapters.json',
        'GET /api/releases',
        'GET /api/artists',
        'GET /api/artists/:slug',
        'GET /api/content/:kind',
        'GET /api/radio',
        'GET /api/nowplaying',
        'GET /api/events/:slug',
        'GET /api/timeshift',
        'GET /api/support',
        'POST /api/support/don',
        'GET /api/push/key',
        'PUT /api/push/subscription',
        'POST /api/proposals/:kind',
        'POST /api/figures/beacon',
        'GET /api/parts',
      ]),
    );
    // Every route that says it is the public's too.
    expect(routesWhere((route) => route.config?.public === true).filter((route) => !described.has(route))).toEqual([]);
  });
});
