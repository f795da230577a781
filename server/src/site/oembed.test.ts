import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import type { OembedData, Params } from '@extractus/oembed-extractor';
import { siteConfig } from '@collectif/shared';
import {
  DEFAULT_EMBED_OPTIONS,
  EMBED_EPISODES_HEIGHT,
  EMBED_HEIGHTS,
  EMBED_MAX_WIDTH,
  EMBED_MIN_WIDTH,
  embedFrameSnippet,
} from '@collectif/shared/embed';
import { declaredPages, pagesJson, serverContainer } from '@collectif/shared/testing';
import { buildApp } from '../app/app';
import { testConfig } from '../api/testing/fixtures';
import { readSiteServerConfig, workspaceRoot } from '../settings/config';
import { SHELL, writeUnder, documentJson } from './render/fixtures';
import { oembedAlternate } from '@collectif/shared/oembed';
import { embedSize, readDimension, readSiteAddress, sitePicture } from './oembed';

/** A residence is answered as a card, with its latest episodes listed under it. */
const RESIDENCE_CARD = EMBED_HEIGHTS.carte + EMBED_EPISODES_HEIGHT;

// The site's server on the demo feed, listening on the loopback, with a radio part whose pages
// announce the endpoint in their head as mf-radio's do (mf-radio/src/pages/), with what the shared
// helper writes (a part's server container carries its own copy of it, as it does of
// @collectif/shared/oembed); mf-radio's own heads are tested in mf-radio/src/pages/pages.test.ts.
const ORIGIN = 'https://radio.example.org';
const PAGES_TABLE = declaredPages();

/** The radio part's server container, its heads announcing what the shared helper writes for these paths. */
function radioBundle(paths: readonly string[]): string {
  const written = Object.fromEntries(paths.map((path) => [path, oembedAlternate(ORIGIN, path, 'Lecteur')]));
  return `
const React = require('react');
const h = React.createElement;
const Page = () => h('p', null, 'Page');
exports.modules = { HomePage: Page, ResidencePage: Page, EpisodePage: Page };
const written = ${JSON.stringify(written)};
const announce = (origin, path) => {
  if (origin !== '${ORIGIN}' || !(path in written)) throw new Error('adresse inattendue : ' + origin + path);
  return { alternates: [written[path]] };
};
exports.definitions = {
  HomePage: { head: ({ origin }) => announce(origin, '/') },
  ResidencePage: {
    head: ({ params, origin }) => params.id === 'axonberg'
      ? announce(origin, '/residences/' + encodeURIComponent(params.id))
      : { status: 404, title: 'Résidence introuvable · Résidences' },
  },
  EpisodePage: { head: ({ params, origin }) => announce(origin, '/emissions/' + params.slug) },
};
`;
}

let dir: string;
let app: FastifyInstance;
/** Where the server listens: http://127.0.0.1:<port>. */
let base: string;
/** A slug of the demo feed (an Axonberg episode), its artist and show. */
let episode: { slug: string; artist: string; show: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'oembed-'));
  writeUnder(dir, 'shell/dist/document.json', documentJson());
  writeUnder(dir, 'shell/dist/server/remoteEntry.js', serverContainer(SHELL));
  for (const part of ['mf-radio', 'mf-player', 'mf-label', 'mf-about'])
    writeUnder(dir, `${part}/dist/mf-manifest.json`, '{}');
  for (const part of ['mf-radio', 'mf-label', 'mf-about']) writeUnder(dir, `${part}/dist/pages.json`, pagesJson(part));
  const site = readSiteServerConfig({
    DIST_ROOT: dir,
    ASSETS_DIR: join(dir, 'assets'),
    SITE_ORIGIN: ORIGIN,
    RENDERERS: '0',
  });
  app = await buildApp({ site, api: testConfig() });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${String((app.server.address() as AddressInfo).port)}`;
  const { items } = (await app.inject({ url: '/api/episodes?residence=axonberg' })).json<{
    items: { slug: string; artist: string; show: string }[];
  }>();
  const first = items[0];
  if (first === undefined) throw new Error('aucune émission d’Axonberg dans la démo');
  episode = first;
  // Read by the server when a page is first rendered.
  writeUnder(
    dir,
    'mf-radio/dist/server/remoteEntry.js',
    serverContainer(radioBundle(['/', '/residences/axonberg', `/emissions/${first.slug}`])),
  );
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The consumer: @extractus/oembed-extractor, in a Node process of its own (as a CMS would be; its
 * HTML parser ships ES modules only, which Node loads and jest's module system does not). The site's
 * public addresses are answered by this server on the loopback, as a proxy would, through the
 * library's own `fetcher` option; nothing else is reached. With `provider`, the consumer knows the
 * endpoint as a CMS registers a provider (oembed.com's providers.json), and every https address is
 * sent there, so that the refusals are the endpoint's own; without, it finds the endpoint in the
 * page's head (discovery).
 */
const CONSUMER = `
import { extract, setProviderList } from '@extractus/oembed-extractor';
const { origin, base, provider, requests } = JSON.parse(process.env.OEMBED_CONSUMER);
const fetcher = (url) => {
  if (!url.startsWith(origin + '/')) throw new Error('adresse hors du site : ' + url);
  return fetch(base + url.slice(origin.length));
};
if (provider) {
  setProviderList([
    { provider_name: 'Site', provider_url: origin + '/', endpoints: [{ schemes: ['https://*'], url: origin + '/oembed' }] },
  ]);
}
const results = [];
for (const { url, params } of requests) {
  try {
    results.push({ data: await extract(url, params, fetcher) });
  } catch (error) {
    results.push({ error: error.message });
  }
}
process.stdout.write(JSON.stringify(results));
`;

type Consumed = { data: OembedData; error?: undefined } | { data?: undefined; error: string };

/** What the consumer gets for each address, in order. */
async function consume(requests: { url: string; params?: Params }[], provider: boolean): Promise<Consumed[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CONSUMER], {
    cwd: workspaceRoot,
    env: { ...process.env, OEMBED_CONSUMER: JSON.stringify({ origin: ORIGIN, base, provider, requests }) },
  });
  return JSON.parse(stdout) as Consumed[];
}

/** One address's answer through the consumer; throws the consumer's error. */
async function embed(url: string, params: Params = {}, provider = true): Promise<OembedData> {
  const [result] = await consume([{ url, params }], provider);
  if (result === undefined) throw new Error('pas de réponse');
  if (result.error !== undefined) throw new Error(result.error);
  return result.data;
}

/** The endpoint, asked directly over HTTP. */
const ask = (query: Record<string, string>) => fetch(`${base}/oembed?${new URLSearchParams(query).toString()}`);

/** The iframe's attributes in an answer's `html`, which must be that one element and nothing else. */
function frameOf(html: string): { attributes: Record<string, string> } {
  const match = /^<iframe ((?:[a-z-]+="[^"<>]*" ?)+)><\/iframe>$/.exec(html);
  if (match === null) throw new Error(`pas une iframe seule : ${html}`);
  const pairs = [...(match[1] ?? '').matchAll(/([a-z-]+)="([^"]*)"/g)];
  return {
    attributes: Object.fromEntries(pairs.map((found) => [found[1] ?? '', (found[2] ?? '').replaceAll('&amp;', '&')])),
  };
}

describe('discovery: a consumer given a page finds the endpoint in its head', () => {
  it('gets the home’s, a residence’s and an episode’s player', async () => {
    const [home, residence, found] = await consume(
      [{ url: `${ORIGIN}/` }, { url: `${ORIGIN}/residences/axonberg` }, { url: `${ORIGIN}/emissions/${episode.slug}` }],
      false,
    );
    for (const result of [home, residence, found]) {
      expect(result?.data).toMatchObject({
        method: 'auto-discovery',
        version: '1.0',
        type: 'rich',
        provider_name: siteConfig.name,
      });
    }
    expect(home?.data?.title).toBe(`Le direct · ${siteConfig.name}`);
    expect(home?.data?.height).toBe(EMBED_HEIGHTS.barre);
    expect(residence?.data?.title).toBe('Axonberg · Synapses');
    expect(residence?.data?.height).toBe(RESIDENCE_CARD);
    expect(frameOf(String(found?.data?.html)).attributes.src).toBe(`${ORIGIN}/embed/lecteur?episode=${episode.slug}`);
  });

  it('finds none on an unknown residence’s page', async () => {
    const [unknown] = await consume([{ url: `${ORIGIN}/residences/inconnue` }], false);
    expect(unknown?.error).toBe('Request failed with error code 404');
  });

  it('is written in the server’s HTML as a link to the endpoint with the page’s address', async () => {
    const html = await (await fetch(`${base}/residences/axonberg`)).text();
    const page = encodeURIComponent(`${ORIGIN}/residences/axonberg`);
    expect(html).toContain(
      `<link rel="alternate" type="application/json+oembed" href="${ORIGIN}/oembed?url=${page}&amp;format=json" title="Lecteur"/>`,
    );
    const unknown = await fetch(`${base}/residences/inconnue`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain('json+oembed');
  });
});

describe('the endpoint, through a consumer that knows it as a provider', () => {
  it('answers the live stream for the home, as a bar', async () => {
    const data = await embed(`${ORIGIN}/`);
    expect(data.method).toBe('provider-api');
    expect(data).toMatchObject({
      version: '1.0',
      type: 'rich',
      title: `Le direct · ${siteConfig.name}`,
      provider_name: siteConfig.name,
      provider_url: `${ORIGIN}/`,
      cache_age: 3600,
      width: EMBED_MAX_WIDTH,
      height: EMBED_HEIGHTS.barre,
    });
    expect(data.thumbnail_url).toBeUndefined();
    expect(frameOf(String(data.html)).attributes).toMatchObject({
      src: `${ORIGIN}/embed/lecteur`,
      title: `Lecteur ${siteConfig.name} : le direct`,
      width: String(EMBED_MAX_WIDTH),
      height: String(EMBED_HEIGHTS.barre),
      allow: 'autoplay',
    });
    // The iframe of « Intégrer le lecteur », as it is pasted by hand.
    expect(data.html).toBe(
      embedFrameSnippet(ORIGIN, DEFAULT_EMBED_OPTIONS, siteConfig.name, {
        width: EMBED_MAX_WIDTH,
        height: EMBED_HEIGHTS.barre,
      }),
    );
  });

  it('answers a residence’s player as a card, with its picture and its artist', async () => {
    const data = await embed(`${ORIGIN}/residences/axonberg`);
    expect(data).toMatchObject({
      title: 'Axonberg · Synapses',
      author_name: 'Axonberg',
      author_url: `${ORIGIN}/residences/axonberg`,
      width: EMBED_MAX_WIDTH,
      height: RESIDENCE_CARD,
      thumbnail_url: `${ORIGIN}/assets/images/residences/axonberg-400.webp`,
      thumbnail_width: 400,
      thumbnail_height: 400,
    });
    const { attributes } = frameOf(String(data.html));
    expect(attributes.src).toBe(`${ORIGIN}/embed/lecteur?residence=axonberg&format=carte`);
    expect(attributes.height).toBe(String(RESIDENCE_CARD));
  });

  it('answers an episode’s player as a bar, titled as its page, with a cover of known size', async () => {
    const data = await embed(`${ORIGIN}/emissions/${episode.slug}`);
    expect(data).toMatchObject({
      title: `${episode.artist} · ${episode.show}`,
      author_name: episode.artist,
      author_url: `${ORIGIN}/residences/axonberg`,
      height: EMBED_HEIGHTS.barre,
    });
    expect(String(data.thumbnail_url)).toMatch(
      /^https:\/\/radio\.example\.org\/assets\/images\/(residences\/axonberg-400|default-cover)\.webp$/,
    );
    expect([400, 600]).toContain(data.thumbnail_width);
    expect(data.thumbnail_height).toBe(data.thumbnail_width);
    expect(frameOf(String(data.html)).attributes.src).toBe(`${ORIGIN}/embed/lecteur?episode=${episode.slug}`);
  });

  it('ignores the query string, the fragment and trailing slashes of the address', async () => {
    const page = `${ORIGIN}/emissions/${episode.slug}`;
    const [plain, ...others] = await consume(
      [page, `${page}/`, `${page}?t=1h02m`, `${page}//?t=30#lecteur`, `${ORIGIN}/?utm_source=x`, ORIGIN].map((url) => ({
        url,
      })),
      true,
    );
    expect(plain?.data?.title).toBe(`${episode.artist} · ${episode.show}`);
    expect(others.slice(0, 3)).toEqual([plain, plain, plain]);
    for (const home of others.slice(3)) expect(home.data?.title).toBe(`Le direct · ${siteConfig.name}`);
  });

  it('honours maxwidth, down to the narrowest player', async () => {
    const [narrow, wide, narrowest, tooNarrow] = await consume(
      [
        { url: `${ORIGIN}/residences/axonberg`, params: { maxwidth: 400 } },
        { url: `${ORIGIN}/`, params: { maxwidth: 5000 } },
        { url: `${ORIGIN}/`, params: { maxwidth: EMBED_MIN_WIDTH } },
        { url: `${ORIGIN}/`, params: { maxwidth: EMBED_MIN_WIDTH - 1 } },
      ],
      true,
    );
    expect(narrow?.data?.width).toBe(400);
    expect(frameOf(String(narrow?.data?.html)).attributes.width).toBe('400');
    expect(wide?.data?.width).toBe(EMBED_MAX_WIDTH);
    expect(narrowest?.data?.width).toBe(EMBED_MIN_WIDTH);
    expect(tooNarrow?.error).toBe('Request failed with error code 404');
  });

  it('gives a bar instead of a card when the card is too high, and nothing when a bar is', async () => {
    const [bar, card, home, tooLow] = await consume(
      [
        { url: `${ORIGIN}/residences/axonberg`, params: { maxheight: RESIDENCE_CARD - 1 } },
        { url: `${ORIGIN}/residences/axonberg`, params: { maxheight: RESIDENCE_CARD } },
        { url: `${ORIGIN}/`, params: { maxheight: EMBED_HEIGHTS.barre } },
        { url: `${ORIGIN}/`, params: { maxheight: EMBED_HEIGHTS.barre - 1 } },
      ],
      true,
    );
    expect(bar?.data?.height).toBe(EMBED_HEIGHTS.barre);
    expect(frameOf(String(bar?.data?.html)).attributes.src).toBe(`${ORIGIN}/embed/lecteur?residence=axonberg`);
    expect(card?.data?.height).toBe(RESIDENCE_CARD);
    expect(home?.data?.height).toBe(EMBED_HEIGHTS.barre);
    expect(tooLow?.error).toBe('Request failed with error code 404');
  });

  it('refuses an unknown residence or episode, another site and another page of this one (404)', async () => {
    const urls = [
      `${ORIGIN}/residences/inconnue`,
      `${ORIGIN}/emissions/nexiste-pas`,
      'https://soundcloud.com/collectif',
      'https://radio.example.org.evil.com/',
      `${ORIGIN}/residences`,
      `${ORIGIN}/emissions`,
      `${ORIGIN}/label`,
      `${ORIGIN}/residences/axonberg/feed.xml`,
    ];
    const results = await consume(
      urls.map((url) => ({ url })),
      true,
    );
    expect(results).toEqual(urls.map(() => ({ error: 'Request failed with error code 404' })));
  });

  it('is refused a format other than JSON (501)', async () => {
    // The consumer's parameters go into the endpoint's query string, format's too.
    await expect(embed(`${ORIGIN}/`, { format: 'xml' } as Params)).rejects.toThrow('error code 501');
  });
});

describe('the endpoint’s answers over HTTP', () => {
  it('is JSON readable from any origin, kept an hour', async () => {
    const res = await ask({ url: `${ORIGIN}/residences/axonberg`, format: 'json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // A JSON answer, not a document: none of the page's headers.
    expect(res.headers.get('content-security-policy')).toBeNull();
    const head = await fetch(`${base}/oembed?url=${encodeURIComponent(`${ORIGIN}/`)}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('answers format=json, empty or none, and 501 to xml or any other format', async () => {
    expect((await ask({ url: `${ORIGIN}/` })).status).toBe(200);
    expect((await ask({ url: `${ORIGIN}/`, format: '' })).status).toBe(200);
    for (const format of ['xml', 'XML', 'JSON', 'html']) {
      const res = await ask({ url: `${ORIGIN}/`, format });
      expect(res.status).toBe(501);
      expect(await res.json()).toEqual({
        error: 'format_not_supported',
        message: 'Seul le format JSON est proposé (format=json).',
      });
    }
  });

  it('refuses a maxwidth or maxheight that is not a positive integer (400), and reads an empty one as absent', async () => {
    for (const value of ['0', '-1', '1.5', 'abc', '1e3', ' 400', '0x10']) {
      for (const name of ['maxwidth', 'maxheight']) {
        const res = await ask({ url: `${ORIGIN}/`, [name]: value });
        expect(res.status).toBe(400);
        expect((await res.json()) as unknown).toMatchObject({ error: 'bad_request' });
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
      }
    }
    const res = await ask({ url: `${ORIGIN}/`, maxwidth: '', maxheight: '' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { width: number }).width).toBe(EMBED_MAX_WIDTH);
  });

  it('answers 404 in French, not kept, without an address or with one given twice', async () => {
    const missing = await fetch(`${base}/oembed?format=json`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-cache');
    expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await missing.json()) as { error: string; message: string };
    expect(body.error).toBe('not_found');
    expect(body.message).toMatch(/^Aucun lecteur pour cette adresse/);
    const twice = await fetch(
      `${base}/oembed?url=${encodeURIComponent(`${ORIGIN}/`)}&url=${encodeURIComponent(`${ORIGIN}/`)}`,
    );
    expect(twice.status).toBe(404);
  });

  describe('refuses hostile addresses (404) and never writes them back', () => {
    const hostile: [string, string][] = [
      ['5,000 characters', `${ORIGIN}/residences/${'a'.repeat(5000)}`],
      ['a long address to a real page', `${ORIGIN}/residences/axonberg?${'x'.repeat(5000)}`],
      ['CR LF inside', `${ORIGIN}/residences/axon\r\nberg`],
      ['CR LF and a header after', `${ORIGIN}/\r\nSet-Cookie: a=b`],
      ['a tab inside', `${ORIGIN}/residences/axon\tberg`],
      ['javascript:', `javascript:alert(1)//${ORIGIN.slice('https://'.length)}/`],
      ['data:', 'data:text/html,<script>alert(1)</script>'],
      ['an origin that merely starts with the site’s', 'https://radio.example.org.evil.com/'],
      ['the site’s name as a user', 'https://radio.example.org@evil.com/'],
      ['a user on the site', 'https://evil.com@radio.example.org/'],
      ['a user and password on the site', 'https://a:b@radio.example.org/residences/axonberg'],
      ['http instead of https', 'http://radio.example.org/'],
      ['another port', 'https://radio.example.org:8443/'],
      ['a relative address', '/residences/axonberg'],
      ['no scheme', 'radio.example.org/residences/axonberg'],
      ['percent-encoded traversal', `${ORIGIN}/residences/..%2F..%2Fetc%2Fpasswd`],
      ['an encoded slash in a slug', `${ORIGIN}/emissions/axonberg%2Fsynapses`],
      ['a malformed escape', `${ORIGIN}/residences/%E0%A4%A`],
      ['markup in a slug', `${ORIGIN}/emissions/%3Cscript%3Ealert(1)%3C%2Fscript%3E`],
      ['capitals', `${ORIGIN}/residences/Axonberg`],
      ['a deeper path', `${ORIGIN}/residences/axonberg/episodes`],
      ['nothing', ''],
    ];

    it.each(hostile)('%s', async (_name, url) => {
      const res = await ask({ url });
      expect(res.status).toBe(404);
      const text = await res.text();
      expect((JSON.parse(text) as { error: string }).error).toBe('not_found');
      expect(text).not.toContain('<script');
      expect(text).not.toContain('evil');
      expect(text.length).toBeLessThan(300);
      expect(res.headers.get('set-cookie')).toBeNull();
    });
  });

  it('reads an escaped letter in a slug as the letter, as the page does', async () => {
    const res = await ask({ url: `${ORIGIN}/residences/%61xonberg` });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { title: string }).title).toBe('Axonberg · Synapses');
  });
});

describe('readSiteAddress', () => {
  it('names the home, a residence and an episode of the site, and nothing else', () => {
    expect(readSiteAddress(`${ORIGIN}/`, ORIGIN, PAGES_TABLE)).toEqual({ kind: 'direct' });
    expect(readSiteAddress('HTTPS://RADIO.EXAMPLE.ORG:443', ORIGIN, PAGES_TABLE)).toEqual({ kind: 'direct' });
    expect(readSiteAddress(`${ORIGIN}/residences/axonberg/`, ORIGIN, PAGES_TABLE)).toEqual({
      kind: 'residence',
      id: 'axonberg',
    });
    expect(readSiteAddress(`${ORIGIN}/emissions/a-b-1?t=3`, ORIGIN, PAGES_TABLE)).toEqual({
      kind: 'episode',
      slug: 'a-b-1',
    });
    // What the address means once its dots are read, as a browser reads it.
    expect(readSiteAddress(`${ORIGIN}/residences/../emissions/a-b`, ORIGIN, PAGES_TABLE)).toEqual({
      kind: 'episode',
      slug: 'a-b',
    });
    expect(readSiteAddress(`${ORIGIN}/residences/${'a'.repeat(121)}`, ORIGIN, PAGES_TABLE)).toBeNull();
    expect(readSiteAddress(`${ORIGIN}/programme`, ORIGIN, PAGES_TABLE)).toBeNull();
  });

  it('reads the addresses where the page table puts the pages today, and their former ones', () => {
    const renamed = PAGES_TABLE.map((page) =>
      page.module === 'EpisodePage' ? { ...page, path: 'episodes/:slug', aliases: ['emissions/:slug'] } : page,
    );
    expect(readSiteAddress(`${ORIGIN}/episodes/a-b-1`, ORIGIN, renamed)).toEqual({ kind: 'episode', slug: 'a-b-1' });
    expect(readSiteAddress(`${ORIGIN}/emissions/a-b-1`, ORIGIN, renamed)).toEqual({ kind: 'episode', slug: 'a-b-1' });
    expect(readSiteAddress(`${ORIGIN}/episodes/a-b-1`, ORIGIN, PAGES_TABLE)).toBeNull();
    // Without the residence page in the table (its remote is down), no residence is named.
    const withoutRadio = PAGES_TABLE.filter((page) => page.remote !== 'radio');
    expect(readSiteAddress(`${ORIGIN}/residences/axonberg`, ORIGIN, withoutRadio)).toBeNull();
  });
});

describe('readDimension and embedSize', () => {
  it('reads positive integers only', () => {
    expect(readDimension(undefined)).toBeUndefined();
    expect(readDimension('')).toBeUndefined();
    expect(readDimension('0320')).toBe(320);
    expect(readDimension(['320', '400'])).toBe('invalid');
    expect(readDimension('00')).toBe('invalid');
  });

  it('fits the player in the bounds, or says it cannot', () => {
    const live = { kind: 'direct' } as const;
    expect(embedSize(live, 'carte')).toEqual({ format: 'carte', width: EMBED_MAX_WIDTH, height: EMBED_HEIGHTS.carte });
    const bar = EMBED_HEIGHTS.barre;
    expect(embedSize(live, 'carte', 300, EMBED_HEIGHTS.carte - 1)).toEqual({
      format: 'barre',
      width: 300,
      height: bar,
    });
    expect(embedSize(live, 'barre', undefined, 1000)).toEqual({ format: 'barre', width: EMBED_MAX_WIDTH, height: bar });
    expect(embedSize(live, 'carte', EMBED_MIN_WIDTH - 1)).toBeNull();
    expect(embedSize(live, 'carte', undefined, bar - 1)).toBeNull();
    // A residence's card carries its latest episodes: it needs their room too, or it is a bar.
    const residence = { kind: 'residence', id: 'axonberg' } as const;
    const card = EMBED_HEIGHTS.carte + EMBED_EPISODES_HEIGHT;
    expect(embedSize(residence, 'carte')).toEqual({ format: 'carte', width: EMBED_MAX_WIDTH, height: card });
    expect(embedSize(residence, 'carte', undefined, card - 1)).toEqual({
      format: 'barre',
      width: EMBED_MAX_WIDTH,
      height: bar,
    });
  });
});

describe('sitePicture', () => {
  it('gives the size of the site’s own pictures, and none for a picture elsewhere', () => {
    expect(sitePicture('/assets/images/residences/a-b-800.webp', ORIGIN)).toEqual({
      thumbnail_url: `${ORIGIN}/assets/images/residences/a-b-800.webp`,
      thumbnail_width: 800,
      thumbnail_height: 800,
    });
    expect(sitePicture(`${ORIGIN}/assets/images/residences/a-header.webp`, ORIGIN)?.thumbnail_width).toBe(1600);
    expect(sitePicture('/assets/images/default-cover.webp', ORIGIN)?.thumbnail_height).toBe(600);
    expect(sitePicture('https://i1.sndcdn.com/artworks-1-t3000x3000.jpg', ORIGIN)).toBeNull();
    expect(sitePicture('//evil.com/assets/images/default-cover.webp', ORIGIN)).toBeNull();
    expect(sitePicture('/assets/images/slides/une.webp', ORIGIN)).toBeNull();
  });
});
