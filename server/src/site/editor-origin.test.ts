import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { pagesJson } from '@collectif/shared/testing';
import { buildApp } from '../app/app';
import { testConfig } from '../api/testing/fixtures';
import { readSiteServerConfig, readEditorOrigin } from '../settings/config';
import { radioSettings } from '@collectif/shared/config';
import { contentSecurityPolicy } from './render/csp';
import { documentJson, writeUnder } from './render/fixtures';
import { EDITOR_CONFIG_ID } from './editor-origin';

// The editor on an origin of its own (docs/content.md, « The editor's origin »): one server, two host
// names; what each may reach, whatever cookie comes with a request.

const SITE = 'https://radio.example.org';
const EDITOR = 'https://edition.radio.example.org';
const PUBLIC_HOST = 'radio.example.org';
const EDITOR_HOST = 'edition.radio.example.org';
/** Every cookie a script of the public origin could read or a browser could send. */
const COOKIES = 'XSRF-TOKEN=jeton; collectif_editeur=session-volee';

let dir: string;
let app: FastifyInstance;
/** Every route the app adds, with what it says of the editor (Fastify announces each instance it makes). */
const routes: { url: string; editor: boolean }[] = [];
const onRoute = (route: RouteOptions): void => {
  routes.push({ url: route.url, editor: route.config?.editor === true });
};
const onInstance = (message: unknown): void => {
  (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', onRoute);
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'editor-origin-'));
  writeUnder(dir, 'shell/dist/document.json', documentJson());
  writeUnder(
    dir,
    'mf-admin/dist/editor/document.json',
    JSON.stringify({
      // What mf-admin's build lists (shared/build/webpack.mjs, DocumentAssetsPlugin), and an address
      // of another site, which no build writes: left out of the page.
      scripts: ['/mf-admin/editor/main.js', 'https://ailleurs.example/vol.js'],
      styles: ['/mf-admin/editor/main.css'],
      fonts: ['/mf-admin/editor/files/archivo.woff2'],
    }),
  );
  for (const part of ['mf-radio', 'mf-label', 'mf-about']) writeUnder(dir, `${part}/dist/pages.json`, pagesJson(part));
  const site = readSiteServerConfig({
    DIST_ROOT: dir,
    ASSETS_DIR: join(dir, 'assets'),
    SITE_ORIGIN: SITE,
    EDITOR_ORIGIN: EDITOR,
    RENDERERS: '0',
    // Behind one proxy on the loopback, which says the request came over https.
    TRUST_PROXY: '127.0.0.1',
  });
  subscribe('fastify.initialization', onInstance);
  try {
    app = await buildApp({ site, api: testConfig() });
  } finally {
    unsubscribe('fastify.initialization', onInstance);
  }
  await app.ready();
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const on = (
  host: string,
  url: string,
  more: { method?: 'GET' | 'PUT' | 'POST'; origin?: string; body?: unknown } = {},
) =>
  app.inject({
    method: more.method ?? 'GET',
    url,
    headers: {
      host,
      cookie: COOKIES,
      'x-xsrf-token': 'jeton',
      ...(more.origin === undefined ? {} : { origin: more.origin }),
      ...(more.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(more.body === undefined ? {} : { payload: JSON.stringify(more.body) }),
  });

describe('the public origin', () => {
  it('sends /admin and the invitation to the editor’s origin before any script runs', async () => {
    for (const path of ['/admin', '/admin/invitation', '/admin?onglet=residences']) {
      const res = await on(PUBLIC_HOST, path);
      expect([path, res.statusCode, res.headers.location]).toEqual([path, 302, `${EDITOR}${path}`]);
      expect(res.body).not.toContain('<script');
    }
  });

  it('takes no editor or content write, whatever cookie comes with it, even from its own pages', async () => {
    const writes = [
      { method: 'PUT' as const, url: '/api/content/residences/axonberg', body: { name: 'Volée' } },
      { method: 'POST' as const, url: '/api/editor/invitation/options', body: { token: 'x' } },
      { method: 'POST' as const, url: '/api/editor/signin/options', body: {} },
    ];
    for (const { method, url, body } of writes) {
      const res = await on(PUBLIC_HOST, url, { method, origin: SITE, body });
      expect([url, res.statusCode]).toEqual([url, 403]);
      expect(res.json<{ message: string }>().message).toContain(`dans l'éditeur, à ${EDITOR}`);
    }
    expect((await on(PUBLIC_HOST, '/api/editor/session')).statusCode).toBe(403);
  });

  it('refuses the editor’s routes whatever their address’s encoding: the rule reads the route that matched', async () => {
    for (const url of [
      '/api/%65ditor/figures/support',
      '/api/%65%64itor/session',
      '/api/editor%2Fsession',
      '/API/editor/session',
      '/api//editor/session',
    ]) {
      const res = await on(PUBLIC_HOST, url);
      expect([url, res.statusCode === 401]).toEqual([url, false]);
    }
    for (const url of ['/api/%65ditor/figures/support', '/api/%65%64itor/session']) {
      const res = await on(PUBLIC_HOST, url);
      expect([url, res.statusCode, res.json<{ error: string }>().error]).toEqual([url, 403, 'editor_origin']);
    }
    const write = await on(PUBLIC_HOST, '/api/%63ontent/residences/axonberg', {
      method: 'PUT',
      origin: SITE,
      body: { name: 'Volée' },
    });
    expect(write.statusCode).toBe(403);
  });

  it('sends no editor-only header: its /api answers carry no cross-origin allowance there', async () => {
    const res = await on(EDITOR_HOST, '/api/content/residences?view=summary');
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('tells its pages the editor’s origin, from which alone they take a preview', async () => {
    const page = await on(PUBLIC_HOST, '/label');
    expect(page.statusCode).toBe(200);
    const config = /<script type="application\/json" id="preview-config">([^<]*)<\/script>/.exec(page.body)?.[1];
    expect(JSON.parse(config ?? '{}')).toEqual({ editorOrigin: EDITOR });
  });

  it('still answers the public reads of the content', async () => {
    expect((await on(PUBLIC_HOST, '/api/content/residences?view=summary')).statusCode).toBe(200);
  });

  it('lets the editor’s origin frame its pages, for the preview, and nobody else', () => {
    expect(contentSecurityPolicy({} as never, radioSettings(), EDITOR)['frame-ancestors']).toEqual(["'self'", EDITOR]);
    expect(contentSecurityPolicy({} as never, radioSettings())['frame-ancestors']).toEqual(["'self'"]);
  });
});

describe('the editor’s origin', () => {
  it('serves the editor’s document with its configuration and a policy of its own', async () => {
    for (const path of ['/admin', '/admin/invitation']) {
      const res = await on(EDITOR_HOST, path);
      expect(res.statusCode).toBe(200);
      const config = new RegExp(`<script type="application/json" id="${EDITOR_CONFIG_ID}">([^<]*)</script>`).exec(
        res.body,
      )?.[1];
      expect(JSON.parse(config ?? '{}')).toMatchObject({ publicOrigin: SITE });
      // Written by the pages' Document from the build's list, as every page is.
      expect(res.body).toMatch(/^<!doctype html><html lang="fr"><head><meta charSet="utf-8"\/>/);
      expect(res.body).toContain('<meta name="robots" content="noindex"/>');
      expect(res.body).toContain('<title>Espace des bénévoles</title>');
      expect(res.body).toContain('<link rel="stylesheet" href="/mf-admin/editor/main.css"/>');
      expect(res.body).toContain(
        '<link rel="preload" href="/mf-admin/editor/files/archivo.woff2" as="font" type="font/woff2" crossorigin=""/>',
      );
      expect(res.body).toContain('<script defer="" src="/mf-admin/editor/main.js"></script>');
      expect(res.body).not.toContain('ailleurs.example');
      expect(res.body).toContain(
        '<noscript>L’espace des bénévoles a besoin de JavaScript : activez-le, puis rechargez la page.</noscript><div id="root"></div>',
      );
      const policy = res.headers['content-security-policy'];
      expect(policy).not.toContain('unsafe-inline');
      expect(policy).toContain("script-src 'self';");
      expect(policy).toContain(`frame-src ${SITE}`);
      expect(policy).toContain("frame-ancestors 'none'");
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers the reads its tracklists’ and merges’ forms make', async () => {
    for (const path of ['/api/releases', '/api/episodes?residence=axonberg', '/api/artists?q=basic']) {
      expect([path, (await on(EDITOR_HOST, path)).statusCode]).not.toEqual([path, 302]);
    }
  });

  it('answers only the /api routes that say they are the editor’s (`editor: true`); an unknown one is /api’s 404', async () => {
    for (const path of ['/api/podcasts?limit=1', '/api/styles', '/api/radio']) {
      const res = await on(EDITOR_HOST, path);
      expect([path, res.statusCode, res.headers.location]).toEqual([path, 302, `${SITE}${path}`]);
    }
    const beacon = await on(EDITOR_HOST, '/api/figures/beacon', { method: 'POST', body: {}, origin: EDITOR });
    expect(beacon.statusCode).toBe(404);
    for (const path of ['/api/content/rien/du/tout', '/api/nexiste-pas']) {
      const res = await on(EDITOR_HOST, path);
      expect([path, res.statusCode]).toEqual([path, 404]);
      expect(res.json<{ error: string }>().error).toBe('not_found');
    }
  });

  it('answers every route of the editor’s own API and of the content’s: each says editor: true', () => {
    const own = routes.filter(({ url }) => /^\/api\/(?:editor|content)(?:\/|$)/.test(url));
    expect(own.length).toBeGreaterThan(10);
    expect(own.filter(({ editor }) => !editor).map(({ url }) => url)).toEqual([]);
  });

  it('sends what is not the editor’s to the public site', async () => {
    for (const path of ['/', '/label', '/mf-player/remoteEntry.js']) {
      const res = await on(EDITOR_HOST, path);
      expect([path, res.statusCode, res.headers.location]).toEqual([path, 302, `${SITE}${path}`]);
    }
  });

  it('takes a write only from its own pages: another origin, or none, is refused', async () => {
    const url = '/api/editor/signin/options';
    for (const origin of [undefined, SITE, 'https://pirate.example', 'null']) {
      const res = await on(EDITOR_HOST, url, { method: 'POST', body: {}, ...(origin === undefined ? {} : { origin }) });
      expect([origin, res.statusCode]).toEqual([origin, 403]);
    }
    const own = await on(EDITOR_HOST, url, { method: 'POST', body: {}, origin: EDITOR });
    expect(own.statusCode).not.toBe(403);
  });
});

describe('EDITOR_ORIGIN', () => {
  it('is the public host or a sub-domain of it, never the public origin itself', () => {
    expect(readEditorOrigin({ SITE_ORIGIN: SITE, EDITOR_ORIGIN: EDITOR })).toBe(EDITOR);
    expect(readEditorOrigin({ SITE_ORIGIN: SITE })).toBeNull();
    expect(() => readEditorOrigin({ SITE_ORIGIN: SITE, EDITOR_ORIGIN: SITE })).toThrow(
      /l'éditeur doit avoir la sienne/,
    );
    expect(() => readEditorOrigin({ SITE_ORIGIN: SITE, EDITOR_ORIGIN: 'https://edition.example.net' })).toThrow(
      /ni radio\.example\.org ni un de ses sous-domaines/,
    );
  });
});

describe('the session’s cookie on the editor’s origin over https', () => {
  it('is `__Host-`: Secure, for `/`, without a Domain, and the one a session is read from', async () => {
    const res = await on(EDITOR_HOST, '/api/editor/signin/options', { method: 'POST', body: {}, origin: EDITOR });
    expect(res.statusCode).toBe(200);
    // A session is only opened by a ceremony's end; a sign-out says the cookie's name and form.
    const out = await on(EDITOR_HOST, '/api/editor/signout', { method: 'POST', body: {}, origin: EDITOR });
    const cookie = String(out.headers['set-cookie'] ?? '');
    expect(cookie).toMatch(/^__Host-collectif_editeur=; Path=\/; HttpOnly; SameSite=Strict; Secure; Max-Age=0$/);
    expect(cookie).not.toContain('Domain');
  });
});

describe('the XSRF cookie over https', () => {
  it('is `__Host-XSRF-TOKEN`, Secure, for `/`, without a Domain; a write is checked against it', async () => {
    const res = await app.inject({
      url: '/api/xsrf',
      headers: { host: EDITOR_HOST, 'x-forwarded-proto': 'https' },
    });
    const cookie = String(res.headers['set-cookie'] ?? '');
    expect(cookie).toMatch(/^__Host-XSRF-TOKEN=[\w-]{20,}; Path=\/; SameSite=Strict; Secure$/);
    // The plain name is no longer the one a write is checked against over https.
    // A sign-in's first step over https, with the XSRF token in a cookie of that name.
    const withCookie = (name: string) =>
      app.inject({
        method: 'POST',
        url: '/api/editor/signin/options',
        headers: {
          host: EDITOR_HOST,
          origin: EDITOR,
          'x-forwarded-proto': 'https',
          cookie: `${name}=jeton`,
          'x-xsrf-token': 'jeton',
          'content-type': 'application/json',
        },
        payload: '{}',
      });
    expect((await withCookie('XSRF-TOKEN')).statusCode).toBe(403);
    const hosted = await withCookie('__Host-XSRF-TOKEN');
    expect(hosted.statusCode).toBe(200);
  });
});

describe('the passkeys’ relying party', () => {
  it('stays the public host, which the editor’s sub-domain names: every passkey made before works there', async () => {
    const res = await on(EDITOR_HOST, '/api/editor/signin/options', { method: 'POST', body: {}, origin: EDITOR });
    expect(JSON.stringify(res.json())).toContain('"rpId":"radio.example.org"');
  });

  it('is the editor’s own host when the public host has one label (localhost): no sub-domain may name it', async () => {
    const local = await buildApp({
      site: readSiteServerConfig({
        DIST_ROOT: dir,
        ASSETS_DIR: join(dir, 'assets'),
        PORT: '8080',
        EDITOR_ORIGIN: 'http://edition.localhost:8080',
        RENDERERS: '0',
      }),
      api: testConfig(),
    });
    try {
      const res = await local.inject({
        method: 'POST',
        url: '/api/editor/signin/options',
        headers: {
          host: 'edition.localhost:8080',
          origin: 'http://edition.localhost:8080',
          cookie: 'XSRF-TOKEN=jeton',
          'x-xsrf-token': 'jeton',
          'content-type': 'application/json',
        },
        payload: '{}',
      });
      expect(res.statusCode).toBe(200);
      expect(JSON.stringify(res.json())).toContain('"rpId":"edition.localhost"');
    } finally {
      await local.close();
    }
  });
});
