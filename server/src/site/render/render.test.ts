import { createHash } from 'node:crypto';
import { decodeHTML } from 'entities';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { PAGES_CONFIG_ID, SSR_STATE_ID } from '@collectif/shared';
import { pagesJson, startFakeServer, text, serverContainer } from '@collectif/shared/testing';
import { buildApp } from '../../app/app';
import { testConfig } from '../../api/testing/fixtures';
import { readSiteServerConfig, type Env } from '../../settings/config';
import type { Readiness } from './responder';
import { SHELL, writeUnder, documentJson } from './fixtures';

const radio = (marker: string) => `
const React = require('react');
const shared = require('@collectif/shared');
const h = React.createElement;
function HomePage() {
  const { data } = shared.usePodcastsQuery({ limit: 8 });
  const { liveStreamUrl } = shared.useRadioSettings();
  return h('section', null, h('h1', null, '${marker}'), h('img', { src: '/assets/images/une.webp', alt: '' }), h('ul', null, (data ?? []).map((p) => h('li', { key: p.link }, p.show))), h('p', { className: 'stream' }, liveStreamUrl));
}
function ResidencePage() {
  const { id } = shared.useParams();
  const long = id === 'longue' ? Array.from({ length: 400 }, (_, i) => h('p', { key: i }, 'Paragraphe ' + i + ' du texte de la résidence.')) : null;
  return h('article', null, h('h1', null, 'Résidence ' + id), long);
}
function ResidencesPage() { throw new Error('panne du module'); }
exports.modules = { HomePage, ResidencePage, ResidencesPage };
exports.definitions = {
  HomePage: {
    preloads: () => [{ href: '/assets/images/une.webp', fetchpriority: 'high' }, { href: 'https://pisteur.example/x.gif' }],
    load: ({ dispatch }) => [dispatch(shared.api.endpoints.podcasts.initiate({ limit: 8 }))],
    head: ({ radio }) => ({ description: 'Accueil rendu', jsonLd: [{ '@type': 'RadioStation', name: 'Radio', url: radio.liveStreamUrl }] }),
  },
  ResidencePage: {
    load: ({ params, dispatch }) => [dispatch(shared.api.endpoints.podcasts.initiate({ q: params.id }))],
    head: ({ params }) => params.id === 'connue'
      ? { title: 'Connue · ' + params.id }
      : { status: 404, title: 'Résidence introuvable · ' + params.id },
  },
};
`;

const PLAYER = `
const React = require('react');
exports.modules = { Player: () => React.createElement('button', { type: 'button' }, 'Écouter le direct') };
`;

/**
 * React's mark for a boundary the browser must render, with the area's fallback inside (in
 * development React adds the reason in a <template>).
 */
const CLIENT_RENDERED = /<main><!--\$!-->(<template[\s\S]*?<\/template>)?<p>Chargement \.\.\.<\/p><!--\/\$--><\/main>/;

let dir: string;

const write = (path: string, content: string) => {
  writeUnder(dir, path, content);
};

async function start(env: Env = {}, liveStreamUrl?: string): Promise<FastifyInstance> {
  const site = readSiteServerConfig({
    DIST_ROOT: dir,
    ASSETS_DIR: join(dir, 'assets'),
    SITE_ORIGIN: 'https://radio.example.org',
    // Rendered in this process here; the renderers have their own tests (render-pool.test.ts).
    RENDERERS: '0',
    ...env,
  });
  const api = testConfig();
  return buildApp({
    site,
    api: liveStreamUrl === undefined ? api : { ...api, radio: { ...api.radio, liveStreamUrl } },
  });
}

/** The page table the server wrote into a page, for the shell's routes and menu. */
function pagesConfig(html: string): { path: string; menu?: string }[] {
  const match = new RegExp(`<script type="application/json" id="${PAGES_CONFIG_ID}">(.*?)</script>`).exec(html);
  return match?.[1] === undefined ? [] : (JSON.parse(match[1]) as { path: string; menu?: string }[]);
}

function stateOf(html: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${SSR_STATE_ID}">(.*?)</script>`).exec(html);
  return match?.[1] === undefined ? null : JSON.parse(match[1]);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ssr-'));
  write('shell/dist/document.json', documentJson());
  write('shell/dist/server/remoteEntry.js', serverContainer(SHELL));
  write('mf-radio/dist/server/remoteEntry.js', serverContainer(radio('Accueil du serveur')));
  write('mf-player/dist/server/remoteEntry.js', serverContainer(PLAYER));
  write('assets/images/une.webp', 'RIFF');
  for (const part of ['mf-radio', 'mf-player', 'mf-label', 'mf-about']) write(`${part}/dist/mf-manifest.json`, '{}');
  // The pages each remote declares, as its build writes them (shared/build/webpack.mjs).
  for (const part of ['mf-radio', 'mf-label', 'mf-about']) write(`${part}/dist/pages.json`, pagesJson(part));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('pages rendered on the server', () => {
  it('sends the page with its content, its data, the player and a head of its own', async () => {
    const app = await start();
    const podcasts = (await app.inject({ url: '/api/podcasts?limit=8' })).json<{ show: string }[]>();
    const res = await app.inject({ url: '/' });
    await app.close();
    expect(res.statusCode).toBe(200);
    // React's own image preloads are left out: the page's definition announces its image, and only
    // what is on this site.
    expect(res.body.match(/<link rel="preload" as="image"[^>]*>/g)).toEqual([
      '<link rel="preload" as="image" href="/assets/images/une.webp" fetchPriority="high"/>',
    ]);
    expect(res.body).toContain(
      '<!--$--><section><h1>Accueil du serveur</h1><img src="/assets/images/une.webp" alt=""/>',
    );
    expect(podcasts.length).toBeGreaterThan(0);
    // As a reader sees it: the page's text, its entities decoded.
    for (const podcast of podcasts) expect(decodeHTML(res.body)).toContain(`<li>${podcast.show}</li>`);
    expect(res.body).toContain('Écouter le direct');
    expect(res.body).toContain('<title>Accueil</title>');
    expect(res.body).toContain('<meta name="description" content="Accueil rendu"/>');
    expect(res.body.match(/name="description"/g)).toHaveLength(1);
    expect(res.body).toContain('<link rel="canonical" href="https://radio.example.org/"/>');
    // Its JSON-LD where the page is, in the body (React keeps a title, a meta or a link in the head,
    // never a script of data).
    expect(res.body).toMatch(/<main><script type="application\/ld\+json">[^<]*"@type":"RadioStation"/);
    expect(res.body.slice(0, res.body.indexOf('</head>'))).not.toContain('ld+json');
    // The browser's store starts from the answers the page shows.
    const state = stateOf(res.body) as {
      api: { queries: Record<string, { status: string; data: unknown }> };
      feed: unknown;
    };
    expect(Object.values(state.api.queries)).toEqual([
      expect.objectContaining({ status: 'fulfilled', data: podcasts }),
    ]);
    expect(state.feed).toEqual({ loaded: true });
  });

  it('writes the shell’s and the areas’ styles into the page, each allowed by its hash, and keeps the policy with the cached page', async () => {
    const shellCss = 'body{margin:0}';
    const homeCss = '.accueil{color:#ffcf3f}';
    write('shell/dist/document.json', documentJson(['/main.0123456789.css']));
    write('shell/dist/main.0123456789.css', shellCss);
    write(
      'mf-radio/dist/mf-manifest.json',
      JSON.stringify({
        metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' } },
        exposes: [{ name: 'HomePage', assets: { js: { sync: [] }, css: { sync: ['accueil.css'] } } }],
      }),
    );
    write('mf-radio/dist/accueil.css', homeCss);
    const app = await start({ PAGE_CACHE_TTL_S: '60' });
    const first = await app.inject({ url: '/' });
    const again = await app.inject({ url: '/' });
    await app.close();
    expect(first.body).toContain(`<style data-href="/main.0123456789.css">${shellCss}</style>`);
    expect(first.body).toContain(`<style data-href="/mf-radio/accueil.css">${homeCss}</style>`);
    // The shell's sheet first, as in a page reached in the browser: the area's rules win ties alike.
    expect(first.body.indexOf('data-href="/main.0123456789.css"')).toBeLessThan(
      first.body.indexOf('data-href="/mf-radio/accueil.css"'),
    );
    // No link to a sheet: nothing to block the first paint, no request before it.
    expect(first.body).not.toMatch(/<link[^>]+stylesheet/);
    const hash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
    const styleSrc = /style-src ([^;]*)/.exec(String(first.headers['content-security-policy']))?.[1] ?? '';
    expect(styleSrc.split(' ')).toEqual(expect.arrayContaining(["'self'", hash(shellCss), hash(homeCss)]));
    expect(styleSrc).not.toContain('unsafe-inline');
    // The loader written into the page is allowed by the hash of its text, as the page carries it.
    const loader = /<script data-src="[^"]*">([\s\S]*?)<\/script>/.exec(first.body)?.[1] ?? '';
    expect(loader).toContain('first-contentful-paint');
    const scriptSrc = /script-src ([^;]*)/.exec(String(first.headers['content-security-policy']))?.[1] ?? '';
    expect(scriptSrc.split(' ')).toEqual(expect.arrayContaining(["'self'", hash(loader)]));
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
    expect(again.headers.etag).toBe(first.headers.etag);
  });

  it('answers 404 with the page for an unknown subject, and escapes what the address carries', async () => {
    const app = await start();
    const hostile = encodeURIComponent('</script><script>alert(1)</script>');
    const known = await app.inject({ url: '/residences/connue' });
    const unknown = await app.inject({ url: `/residences/${hostile}` });
    await app.close();
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('text/html');
    expect(unknown.body).toContain('<h1>Résidence &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(unknown.body).not.toContain('<script>alert(1)');
    // The query's argument is in the state, escaped so that it cannot close its script.
    expect(stateOf(unknown.body)).not.toBeNull();
    expect(unknown.body.match(/<\/script>/g)?.length).toBe(unknown.body.match(/<script/g)?.length);
  });

  it('sends a long page as HTML in place, readable without JavaScript', async () => {
    const app = await start();
    const res = await app.inject({ url: '/residences/longue' });
    await app.close();
    expect(res.body.length).toBeGreaterThan(20_000);
    // In place: not hidden and moved by a script, which a visitor without JavaScript never sees.
    expect(res.body).toContain('<main><!--$--><article><h1>Résidence longue</h1><p>Paragraphe 0');
    expect(res.body).toContain('Paragraphe 399 du texte de la résidence.</p></article><!--/$--></main>');
    expect(res.body).not.toMatch(/<div hidden id="S:/);
  });

  it('answers HEAD like GET, without the body', async () => {
    const app = await start();
    const get = await app.inject({ url: '/residences/connue' });
    const head = await app.inject({ method: 'HEAD', url: '/residences/connue' });
    const missing = await app.inject({ method: 'HEAD', url: '/residences/inconnue' });
    await app.close();
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.body).toBe('');
    expect(missing.statusCode).toBe(404);
  });

  it('sends an unknown path home and an unreadable one a French 400 page', async () => {
    const app = await start();
    const unknown = await app.inject({ url: '/nimporte/quoi' });
    const unreadable = await app.inject({ url: '/residences/%E0%A4%A' });
    await app.close();
    expect(unknown.statusCode).toBe(302);
    expect(unknown.headers.location).toBe('/');
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.body).toContain('<h1>Adresse invalide</h1>');
  });

  it("sends a page's former path, for good, where the page is now, with its query", async () => {
    const declared = JSON.parse(pagesJson('mf-radio')) as { module: string; path: string }[];
    write(
      'mf-radio/dist/pages.json',
      JSON.stringify(
        declared.map((page) =>
          page.module === 'ResidencePage' ? { ...page, path: 'residents/:id', aliases: ['residences/:id'] } : page,
        ),
      ),
    );
    const app = await start();
    const moved = await app.inject({ url: '/residences/connue?t=1' });
    const now = await app.inject({ url: '/residents/connue' });
    // A path a page has today is that page's, never a former one's.
    const list = await app.inject({ url: '/residences' });
    await app.close();
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe('/residents/connue?t=1');
    expect(now.statusCode).toBe(200);
    expect(now.body).toContain('<h1>Résidence connue</h1>');
    expect(now.body).toContain('<link rel="canonical" href="https://radio.example.org/residents/connue"/>');
    expect(list.statusCode).not.toBe(301);
  });

  it("has a remote's routes and menu links on the first page after its pages answer, and keeps no page without them", async () => {
    const origin = await startFakeServer();
    origin.on('/radio/pages.json', text('compilation en cours', 503));
    origin.on(
      '/radio/server/remoteEntry.js',
      text(serverContainer(radio('Accueil du serveur')), 200, 'text/javascript'),
    );
    const remotes = {
      player: '/mf-player/mf-manifest.json',
      radio: `${origin.origin}/radio/mf-manifest.json`,
      label: '/mf-label/mf-manifest.json',
      about: '/mf-about/mf-manifest.json',
    };
    const app = await start({ REMOTES_CONFIG: JSON.stringify(remotes) });
    try {
      const without = await app.inject({ url: '/label' });
      expect(without.statusCode).toBe(200);
      // Neither this server nor a browser keeps a page that lacks a remote's pages.
      expect(without.headers['cache-control']).toBe('no-store');
      expect(pagesConfig(without.body).map((page) => page.path)).not.toContain('residences');

      origin.on('/radio/pages.json', text(pagesJson('mf-radio')));
      const whole = await app.inject({ url: '/label' });
      expect(
        pagesConfig(whole.body)
          .filter((page) => page.menu !== undefined)
          .map((page) => page.menu),
      ).toEqual(['Programme', 'Évènements', 'Résidences', 'Mes résidences', 'Émissions', 'Label', 'À propos']);
      expect(whole.headers['cache-control']).toBe('public, max-age=0, s-maxage=10, stale-while-revalidate=60');
      expect((await app.inject({ url: '/residences/connue' })).body).toContain('<h1>Résidence connue</h1>');
    } finally {
      await app.close();
      await origin.close();
    }
  });

  it("names no folder of the server's disk in any answer", async () => {
    write('mf-label/dist/server/remoteEntry.js', 'throw new Error("cassé");');
    const app = await start();
    const urls = [
      '/readyz',
      '/healthz',
      '/remotes.json',
      '/',
      '/label',
      '/residences/inconnue',
      '/nimporte',
      '/sitemap.xml',
    ];
    const answers = await Promise.all(
      [...urls, '/mf-radio/absent.js', '/api/inexistant', '/residences/x/feed.xml'].map((url) => app.inject({ url })),
    );
    await app.close();
    for (const answer of answers) {
      // Less the component stack React's development build writes for an area left to the browser
      // (its production build, the server's, writes none).
      const body = answer.body.replace(/<template data-msg[^>]*><\/template>/g, '');
      expect(body).not.toContain(dir);
      expect(body).not.toContain(process.cwd());
    }
  });

  it('leaves an area whose module throws to the browser, and renders the rest', async () => {
    const app = await start();
    const res = await app.inject({ url: '/residences' });
    await app.close();
    expect(res.statusCode).toBe(200);
    // React's mark for a boundary the browser must render, with the area's fallback inside.
    expect(res.body).toMatch(CLIENT_RENDERED);
    expect(res.body).toContain('Écouter le direct');
  });

  it('renders the page in the browser when a part has no server container', async () => {
    rmSync(join(dir, 'mf-radio/dist/server'), { recursive: true });
    const app = await start();
    const res = await app.inject({ url: '/' });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(CLIENT_RENDERED);
    expect(res.body).toContain('Écouter le direct');
  });

  it('renders two apps of one process at once, each with its own settings, origin and data', async () => {
    // Nothing a render reads is set on a module (docs/rendering.md, « State per request »).
    const [first, second] = await Promise.all([
      start({ SITE_ORIGIN: 'https://une.example.org' }, 'https://flux-un.example.org/live'),
      start({ SITE_ORIGIN: 'https://deux.example.org' }, 'https://flux-deux.example.org/live'),
    ]);
    const [one, two] = await Promise.all([first.inject({ url: '/' }), second.inject({ url: '/' })]);
    const [oneAgain, twoAgain] = await Promise.all([first.inject({ url: '/' }), second.inject({ url: '/' })]);
    await Promise.all([first.close(), second.close()]);
    expect(one.body).toContain('<p class="stream">https://flux-un.example.org/live</p>');
    expect(one.body).toContain('"url":"https://flux-un.example.org/live"');
    expect(one.body).toContain('<link rel="canonical" href="https://une.example.org/"/>');
    expect(two.body).toContain('<p class="stream">https://flux-deux.example.org/live</p>');
    expect(two.body).toContain('"url":"https://flux-deux.example.org/live"');
    expect(two.body).toContain('<link rel="canonical" href="https://deux.example.org/"/>');
    for (const body of [one.body, oneAgain.body]) expect(body).not.toContain('flux-deux');
    for (const body of [two.body, twoAgain.body]) expect(body).not.toContain('flux-un');
    // Each store asked its own app's /api (the data came back).
    expect(stateOf(one.body)).toMatchObject({ feed: { loaded: true } });
    expect(stateOf(two.body)).toMatchObject({ feed: { loaded: true } });
  });

  it('renders in the browser, and says why, with a shell built before « State per request »', async () => {
    write(
      'shell/dist/server/remoteEntry.js',
      serverContainer(SHELL.replace('exports.renderApp', 'exports.createServerApp')),
    );
    const app = await start();
    const warnings: string[] = [];
    app.log.warn = (message: string) => warnings.push(message);
    const res = await app.inject({ url: '/' });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    expect(warnings.join('\n')).toContain('version antérieure (sans renderApp)');
  });

  it('sends the shell alone, rendered by the browser, when the shell cannot render', async () => {
    write('shell/dist/server/remoteEntry.js', 'throw new Error("bundle cassé");');
    const app = await start();
    const res = await app.inject({ url: '/' });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('says at /readyz which parts render on the server, which do not and why, and logs a refused one once', async () => {
    write('mf-radio/dist/server/remoteEntry.js', 'throw new Error("bundle cassé au chargement");');
    const app = await start();
    const warnings: string[] = [];
    app.log.warn = (message: string) => warnings.push(message);
    const pages = [await app.inject({ url: '/' }), await app.inject({ url: '/' })];
    const broken = await app.inject({ url: '/readyz' });
    write('mf-radio/dist/server/remoteEntry.js', serverContainer(radio('Réparé')));
    const repaired = await app.inject({ url: '/readyz' });
    rmSync(join(dir, 'shell/dist/document.json'));
    const unbuilt = await app.inject({ url: '/readyz' });
    await app.close();

    // The pages are answered all along, the radio's area by the browser.
    for (const page of pages) expect(page.statusCode).toBe(200);
    expect(broken.statusCode).toBe(200);
    expect(broken.headers['cache-control']).toBe('no-store');
    const state = broken.json<Readiness>();
    expect(state.status).toBe('ready');
    expect(state.serverRendering).toBe(true);
    // Where a part comes from, never where this server keeps its files: /readyz is public.
    expect(state.parts.shell).toEqual({ state: 'ok', where: 'ce serveur' });
    expect(broken.body).not.toContain(dir);
    expect(state.parts.player?.state).toBe('ok');
    expect(state.parts.radio).toEqual({
      state: 'refused',
      where: 'ce serveur',
      reason: 'bundle cassé au chargement',
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
    });
    // No server container deployed for the label: its page renders in the browser.
    expect(state.parts.label?.state).toBe('missing');
    const refusals = warnings.filter((message) => message.includes('« radio »'));
    expect(refusals).toEqual([
      `Conteneur serveur de « radio » inutilisable (${join(dir, 'mf-radio/dist/server/remoteEntry.js')}) : bundle cassé au chargement`,
    ]);
    // Redeployed: in use again, with no restart.
    expect(repaired.json<Readiness>().parts.radio?.state).toBe('ok');
    // No shell build: no page can be answered, and a load balancer is told so.
    expect(unbuilt.statusCode).toBe(503);
    expect(unbuilt.json<Readiness>().status).toBe('not-built');
  });

  it('picks up a part redeployed in place on the next request, with no restart', async () => {
    const app = await start();
    const before = await app.inject({ url: '/' });
    write('mf-radio/dist/server/remoteEntry.js', serverContainer(radio('Nouvelle version')));
    const after = await app.inject({ url: '/' });
    await app.close();
    expect(before.body).toContain('Accueil du serveur');
    expect(after.body).toContain('Nouvelle version');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('serves a page a remote declares once it is deployed, with no restart, and tells the shell', async () => {
    const app = await start();
    const before = await app.inject({ url: '/ateliers' });
    const declared = JSON.parse(readFileSync(join(dir, 'mf-radio/dist/pages.json'), 'utf8')) as unknown[];
    write(
      'mf-radio/dist/pages.json',
      JSON.stringify([
        ...declared,
        { path: 'ateliers', module: 'HomePage', title: 'Ateliers', area: 'Les ateliers', menu: 'Ateliers' },
      ]),
    );
    const after = await app.inject({ url: '/ateliers' });
    // A refused declaration leaves the remote without pages, never the site broken.
    write(
      'mf-radio/dist/pages.json',
      JSON.stringify([{ path: '/<script>', module: 'HomePage', title: 'x', area: 'x' }]),
    );
    const refused = await app.inject({ url: '/label' });
    await app.close();
    expect(before.statusCode).toBe(302);
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('<title>Ateliers</title>');
    expect(after.body).toContain('Accueil du serveur');
    const table = new RegExp(`<script type="application/json" id="${PAGES_CONFIG_ID}">(.*?)</script>`).exec(after.body);
    expect(JSON.parse(table?.[1] ?? '[]')).toContainEqual(
      expect.objectContaining({ path: 'ateliers', menu: 'Ateliers', remote: 'radio' }),
    );
    expect(refused.statusCode).toBe(200);
    expect(refused.body).not.toContain('<script>');
  });

  it('answers the table of pages as a file, revalidated, to a shell that reads it there, and leaves it out of its pages', async () => {
    // docs/rendering.md, « The document ».
    write('shell/dist/document.json', JSON.stringify({ ...JSON.parse(documentJson()), pageTable: 'file' }));
    const app = await start();
    try {
      const page = await app.inject({ url: '/' });
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain(`id="${PAGES_CONFIG_ID}"`);
      expect(page.body).toContain('{"href":"/pages.json","as":"fetch","crossorigin":"anonymous"}');
      const table = await app.inject({ url: '/pages.json' });
      expect(table.statusCode).toBe(200);
      expect(table.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(table.headers['cache-control']).toBe('public, max-age=0, s-maxage=10');
      expect(JSON.parse(table.body)).toContainEqual(
        expect.objectContaining({ path: 'label', remote: 'label', module: 'LabelPage' }),
      );
      const again = await app.inject({ url: '/pages.json', headers: { 'if-none-match': String(table.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      // A remote's new page: another table, another validator.
      const declared = JSON.parse(readFileSync(join(dir, 'mf-radio/dist/pages.json'), 'utf8')) as unknown[];
      write(
        'mf-radio/dist/pages.json',
        JSON.stringify([
          ...declared,
          { path: 'ateliers', module: 'HomePage', title: 'Ateliers', area: 'Les ateliers' },
        ]),
      );
      const changed = await app.inject({
        url: '/pages.json',
        headers: { 'if-none-match': String(table.headers.etag) },
      });
      expect(changed.statusCode).toBe(200);
      expect(JSON.parse(changed.body)).toContainEqual(expect.objectContaining({ path: 'ateliers' }));
    } finally {
      await app.close();
    }
  });

  it('keeps no table of pages that lacks a remote’s pages', async () => {
    write('shell/dist/document.json', JSON.stringify({ ...JSON.parse(documentJson()), pageTable: 'file' }));
    const origin = await startFakeServer();
    origin.on('/radio/pages.json', text('compilation en cours', 503));
    const remotes = {
      player: '/mf-player/mf-manifest.json',
      radio: `${origin.origin}/radio/mf-manifest.json`,
      label: '/mf-label/mf-manifest.json',
      about: '/mf-about/mf-manifest.json',
    };
    const app = await start({ REMOTES_CONFIG: JSON.stringify(remotes) });
    try {
      const table = await app.inject({ url: '/pages.json' });
      expect(table.statusCode).toBe(200);
      expect(table.headers['cache-control']).toBe('no-store');
      expect((JSON.parse(table.body) as { path: string }[]).map((page) => page.path)).not.toContain('residences');
    } finally {
      await app.close();
      await origin.close();
    }
  });

  it('sends the shell alone, never a redirect to itself, while no remote declares the home page', async () => {
    for (const part of ['mf-radio', 'mf-label', 'mf-about']) rmSync(join(dir, part, 'dist/pages.json'));
    const app = await start();
    const home = await app.inject({ url: '/' });
    const other = await app.inject({ url: '/label' });
    await app.close();
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('<div id="root"></div>');
    expect(other.statusCode).toBe(302);
    expect(other.headers.location).toBe('/');
  });

  it('reuses a rendered page for its URL, revalidated by ETag', async () => {
    const app = await start();
    const first = await app.inject({ url: '/' });
    const second = await app.inject({ url: '/' });
    const etag = String(first.headers.etag);
    const revalidated = await app.inject({ url: '/', headers: { 'if-none-match': etag } });
    // As a browser or a proxy may send it: the strong form, or one of several validators.
    const strong = await app.inject({ url: '/', headers: { 'if-none-match': etag.replace(/^W\//, '') } });
    const listed = await app.inject({ url: '/', headers: { 'if-none-match': `W/"autre", ${etag}` } });
    await app.close();
    expect(second.body).toBe(first.body);
    // Weak, as /api's: the same content, whatever compression the bytes get.
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(strong.statusCode).toBe(304);
    expect(listed.statusCode).toBe(304);
    expect(first.headers['cache-control']).toBe('public, max-age=0, s-maxage=10, stale-while-revalidate=60');
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
  });

  it('sends a rendered page in its own brotli, smaller than on the fly, and gzip or as is to the others', async () => {
    const app = await start();
    const plain = await app.inject({ url: '/' });
    const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const again = await app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    const head = await app.inject({ method: 'HEAD', url: '/', headers: { 'accept-encoding': 'br' } });
    const refused = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    const any = await app.inject({ url: '/', headers: { 'accept-encoding': '*' } });
    const none = await app.inject({ url: '/', headers: { 'accept-encoding': 'br', 'x-no-compression': '1' } });
    const revalidated = await app.inject({
      url: '/',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(plain.headers.etag) },
    });
    await app.close();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('Accueil du serveur');

    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    // Smaller than what the server compresses other answers into (quality 5).
    const onTheFly = brotliCompressSync(plain.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
    expect(br.rawPayload.length).toBeLessThan(onTheFly.length);
    // Made once with the page: the page from the cache is the same bytes.
    expect(again.rawPayload.equals(br.rawPayload)).toBe(true);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.body).toBe('');

    expect(refused.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(refused.rawPayload).toString('utf8')).toBe(plain.body);
    // `*` is read as gzip, as for every other answer of the server.
    expect(any.headers['content-encoding']).toBe('gzip');
    // What the compression plugin honours for every answer: nothing compressed.
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body).toBe(plain.body);
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
  });

  it('renders every page in the browser when SSR=off', async () => {
    const app = await start({ SSR: 'off' });
    const res = await app.inject({ url: '/' });
    await app.close();
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).not.toContain(SSR_STATE_ID);
  });
});
