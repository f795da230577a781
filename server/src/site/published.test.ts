import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { siteConfig, type Events, type PodcastItem } from '@collectif/shared';
import { colors } from '@collectif/shared/tokens';
import { declaredHref, declaredPages, pagesJson, startFakeServer } from '@collectif/shared/testing';
import { hrefOf } from '@collectif/shared/addresses';
import { buildApp } from '../app/app';
import { testConfig } from '../api/testing/fixtures';
import { readSiteServerConfig } from '../settings/config';
import { xmlSafe } from '../files/xml';
import { plain } from '../feed';
import { enclosureBytes, itunesDuration, residenceFeed } from './published/rss';
import { sitemap } from './published/sitemap';
import { shortName } from './published/manifest';

// The site's server on the demo feed, its pages declared as the remotes' builds write them.
let dir: string;
let app: FastifyInstance;
const ORIGIN = 'https://radio.example.org';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'feeds-'));
  for (const part of ['mf-radio', 'mf-label', 'mf-about']) {
    const file = join(dir, part, 'dist', 'pages.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, pagesJson(part));
  }
  const site = readSiteServerConfig({ DIST_ROOT: dir, ASSETS_DIR: join(dir, 'assets'), SITE_ORIGIN: ORIGIN });
  app = await buildApp({ site, api: testConfig() });
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The same validator the feed reader uses (server/src/api/upstream/rss.ts says why this one). */
function wellFormed(xml: string): true | { err: { msg: string } } {
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  return XMLValidator.validate(xml);
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => name === 'item' });
const RFC_822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

type Node = Record<string, unknown>;
const nodeText = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Node)['#text'] : value);

/**
 * The podcast RSS rules as Apple Podcasts lists them: a channel with title, link, description,
 * language, itunes:author, itunes:image, itunes:category and itunes:explicit; each item with a title,
 * an enclosure (url, length, type), a unique guid, an RFC 822 pubDate and a duration.
 */
function podcastProblems(xml: string): string[] {
  const problems: string[] = [];
  const valid = wellFormed(xml);
  if (valid !== true) return [`XML mal formé : ${valid.err.msg}`];
  const document = parser.parse(xml) as { rss?: Node };
  const rss = document.rss;
  if (rss?.['@version'] !== '2.0') problems.push('rss version 2.0');
  if (rss?.['@xmlns:itunes'] !== 'http://www.itunes.com/dtds/podcast-1.0.dtd') problems.push('itunes namespace');
  const channel = (rss?.channel ?? {}) as Node;
  for (const name of ['title', 'link', 'description', 'language', 'itunes:author', 'itunes:explicit']) {
    if (channel[name] === undefined || nodeText(channel[name]) === '') problems.push(`channel ${name}`);
  }
  if (!String((channel['itunes:image'] as Node | undefined)?.['@href']).startsWith('https://')) {
    problems.push('channel itunes:image href');
  }
  if ((channel['itunes:category'] as Node | undefined)?.['@text'] === undefined) problems.push('itunes:category');
  const items = (channel.item ?? []) as Node[];
  const guids = new Set<unknown>();
  for (const [index, item] of items.entries()) {
    const where = `item ${String(index)}`;
    if (typeof item.title !== 'string' || item.title === '') problems.push(`${where} title`);
    const enclosure = (item.enclosure ?? {}) as Node;
    if (!String(enclosure['@url']).startsWith('https://')) problems.push(`${where} enclosure url`);
    if (!/^[1-9]\d*$/.test(String(enclosure['@length']))) problems.push(`${where} enclosure length`);
    if (enclosure['@type'] !== 'audio/mpeg') problems.push(`${where} enclosure type`);
    const guid = nodeText(item.guid);
    if (typeof guid !== 'string' || guids.has(guid)) problems.push(`${where} guid`);
    guids.add(guid);
    if (!RFC_822.test(String(item.pubDate))) problems.push(`${where} pubDate`);
    if (!/^\d+(:\d{2}){1,2}$/.test(String(item['itunes:duration']))) problems.push(`${where} itunes:duration`);
  }
  return problems;
}

describe("a residence's podcast feed", () => {
  it('is a valid podcast RSS of its episodes, newest first, linking their pages', async () => {
    const res = await app.inject({ url: '/residences/axonberg/feed.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(podcastProblems(res.body)).toEqual([]);
    const channel = (parser.parse(res.body) as { rss: { channel: Node } }).rss.channel;
    expect(channel.title).toBe('Axonberg · Synapses');
    expect(channel.link).toBe(`${ORIGIN}/residences/axonberg`);
    const items = channel.item as Node[];
    const theirs = (await app.inject({ url: '/api/episodes?residence=axonberg' })).json<{ total: number }>();
    expect(items).toHaveLength(theirs.total);
    expect(nodeText(items[0]?.guid)).toMatch(new RegExp(`^${ORIGIN}/emissions/[a-z0-9-]+$`));
    const dates = items.map((item) => Date.parse(String(item.pubDate)));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    // The archive's first page gives the same episodes in the same order: « artist · show line ».
    const first = (await app.inject({ url: '/api/episodes?residence=axonberg' })).json<{
      items: { slug: string; artist: string; show: string; url: string }[];
    }>().items;
    for (const [index, episode] of first.entries()) {
      const item = items[index];
      expect(item?.title).toBe(`${episode.artist} · ${episode.show}`);
      expect(item?.link).toBe(`${ORIGIN}/emissions/${episode.slug}`);
      expect((item?.enclosure as Node | undefined)?.['@url']).toBe(new URL(episode.url, ORIGIN).href);
    }
    expect(channel['itunes:author']).toBe('Axonberg');
    expect((channel['itunes:image'] as Node)['@href']).toBe(`${ORIGIN}/assets/images/residences/axonberg-800.webp`);
    // The content file's description as plain text: its tags dropped, nothing else lost.
    const shipped = (
      JSON.parse(readFileSync(testConfig().demo.residencesFile, 'utf8')) as { id: string; description: string }[]
    ).find((entry) => entry.id === 'axonberg');
    expect(channel.description).toBe(plain(shipped?.description ?? ''));
    expect(channel.description).not.toMatch(/[<>]/);
    expect((channel['atom:link'] as Node)['@href']).toBe(`${ORIGIN}/residences/axonberg/feed.xml`);
    expect(String(channel.lastBuildDate)).toMatch(RFC_822);
    expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=10, stale-while-revalidate=60');
  });

  it('answers HEAD like GET, and 304 to its ETag', async () => {
    const get = await app.inject({ url: '/residences/axonberg/feed.xml' });
    const head = await app.inject({ method: 'HEAD', url: '/residences/axonberg/feed.xml' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(get.headers.etag);
    const again = await app.inject({
      url: '/residences/axonberg/feed.xml',
      headers: { 'if-none-match': String(get.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('names the chapters file of each episode with a tracklist, in the podcast namespace, and follows a save', async () => {
    const read = async () => {
      const res = await app.inject({ url: '/residences/axonberg/feed.xml' });
      expect(podcastProblems(res.body)).toEqual([]);
      const rss = (parser.parse(res.body) as { rss: Node }).rss;
      expect(rss['@xmlns:podcast']).toBe('https://podcastindex.org/namespace/1.0');
      const items = (rss.channel as Node).item as Node[];
      return items.flatMap((item) => {
        const chapters = item['podcast:chapters'] as Node | undefined;
        return chapters === undefined ? [] : [{ link: String(item.link), chapters }];
      });
    };
    // The demo's one tracklist among Axonberg's episodes.
    expect(await read()).toEqual([
      {
        link: `${ORIGIN}/emissions/axonberg-synapses-11`,
        chapters: {
          '@url': `${ORIGIN}/api/episodes/axonberg-synapses-11/chapters.json`,
          '@type': 'application/json+chapters',
        },
      },
    ]);
    const file = await app.inject({ url: '/api/episodes/axonberg-synapses-11/chapters.json' });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^application\/json\+chapters/);

    // A tracklist saved for another of its episodes is in the feed at once.
    const other = (await app.inject({ url: '/api/episodes?residence=axonberg' }))
      .json<{ items: { slug: string }[] }>()
      .items.find((episode) => episode.slug !== 'axonberg-synapses-11');
    if (other === undefined) throw new Error('Axonberg a un seul épisode');
    const present = app.content.current('tracklists');
    await app.content.save(
      'tracklists',
      [
        ...(present.data as unknown[]),
        { episode: other.slug, tracks: [{ start: 0, artist: 'Axonberg', title: 'Neurone' }] },
      ],
      { by: 'test', basedOn: present.id },
    );
    expect((await read()).map((item) => item.link).sort()).toEqual(
      [`${ORIGIN}/emissions/axonberg-synapses-11`, `${ORIGIN}/emissions/${other.slug}`].sort(),
    );
  });

  it.each(['inconnue', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', '..%2F..%2Fetc'])(
    'answers 404 in French for %s, without repeating it',
    async (id) => {
      const res = await app.inject({ url: `/residences/${id}/feed.xml` });
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe('Flux introuvable : cette résidence n’existe pas.');
    },
  );

  it('stays well-formed XML whatever the content holds', () => {
    const hostile = 'Ça & <b>là</b> "’" \u0000\u0008 ]]> <script>';
    const episode = {
      url: '/api/demo/replays/a.mp3',
      duration: 3750,
      artist: hostile,
      show: hostile,
      cover: '',
      link: 'https://soundcloud.com/x/y',
      pubDate: 'pas une date',
      slug: 'y',
      residences: ['r'],
      styles: [],
      summary: hostile,
      length: 12_345_678,
    } satisfies PodcastItem & Record<string, unknown>;
    const xml = residenceFeed(
      { id: 'r', artist: hostile, show: hostile, description: hostile },
      [episode],
      ORIGIN,
      new Date('2026-11-22T00:00:00Z'),
      declaredHref,
    );
    expect(wellFormed(xml)).toBe(true);
    expect(xml).not.toContain('<script>');
    expect(xmlSafe("a\u0000b<'")).toBe("ab<'");
  });

  it('reads a description as plain text, entities and all, for XML to escape once', () => {
    expect(plain('Dub &amp; steppers<br>au <em>studio</em> &#8212; &#x2019;ici &bogus;')).toBe(
      'Dub & steppers au studio — ’ici &bogus;',
    );
    // Every entity a browser reads, not a chosen few.
    expect(plain('Caf&eacute; &laquo; dub &raquo; &hellip; &#0; &#x110000;')).toBe('Café « dub » … \ufffd \ufffd');
    const xml = residenceFeed(
      { id: 'r', artist: 'A', show: 'B', description: 'A &amp; B' },
      [],
      ORIGIN,
      new Date('2026-11-22T00:00:00Z'),
      declaredHref,
    );
    expect(xml).toContain('<description>A &amp; B</description>');
  });

  it('writes durations as h:mm:ss and never an enclosure length of 0', () => {
    expect(itunesDuration(59)).toBe('0:00:59');
    expect(itunesDuration(3750.9)).toBe('1:02:30');
    expect(enclosureBytes({ length: 140_234_567, duration: 3600 })).toBe(140_234_567);
    // No length claimed: 128 kbit/s for the duration, else the least an episode's enclosure is.
    expect(enclosureBytes({ duration: 3600 })).toBe(57_600_000);
    expect(enclosureBytes({ length: 0, duration: 0 })).toBe(10_000_000);
  });
});

describe('a feed of a residence with hostile content', () => {
  const hostile = { artist: 'Ça & <b>"là"</b>', show: '<script>alert(1)</script> ]]>' };
  let hostileApp: FastifyInstance;
  let residencesDir: string;

  beforeAll(async () => {
    residencesDir = mkdtempSync(join(tmpdir(), 'feeds-residences-'));
    const residencesFile = join(residencesDir, 'residences.json');
    writeFileSync(
      residencesFile,
      JSON.stringify([
        {
          id: 'hostile',
          ...hostile,
          description: '<img src=x onerror=alert(1)>Fin &amp; suite\u0001 ]]> <!-- -->',
          styles: ['dub'],
        },
      ]),
    );
    const base = testConfig();
    const site = readSiteServerConfig({ DIST_ROOT: dir, ASSETS_DIR: join(dir, 'assets'), SITE_ORIGIN: ORIGIN });
    hostileApp = await buildApp({ site, api: testConfig({ demo: { ...base.demo, residencesFile } }) });
    // The feeds read the residences volunteers saved (docs/content.md): saved as a volunteer would.
    await hostileApp.content.save('residences', JSON.parse(readFileSync(residencesFile, 'utf8')), { by: 'test' });
  });

  afterAll(async () => {
    await hostileApp.close();
    rmSync(residencesDir, { recursive: true, force: true });
  });

  it('stays a valid podcast feed that reads back the very texts', async () => {
    const res = await hostileApp.inject({ url: '/residences/hostile/feed.xml' });
    expect(res.statusCode).toBe(200);
    expect(podcastProblems(res.body)).toEqual([]);
    expect(res.body).not.toMatch(/<(script|b|img)\b/);
    const channel = (parser.parse(res.body) as { rss: { channel: Node } }).rss.channel;
    expect(channel.title).toBe(`${hostile.artist} · ${hostile.show}`);
    expect(channel.description).toBe('Fin & suite ]]>');
    expect((channel.item as Node[]).length).toBeGreaterThan(0);
  });
});

describe('the sitemap and robots.txt', () => {
  it('lists the pages, the residences and the events while the feed is unreachable, kept by no cache', async () => {
    const site = readSiteServerConfig({ DIST_ROOT: dir, ASSETS_DIR: join(dir, 'assets'), SITE_ORIGIN: ORIGIN });
    const down = await buildApp({
      site,
      api: testConfig({ rss: { url: 'http://127.0.0.1:1/sounds.rss', maxPages: 1 } }),
    });
    try {
      const res = await down.inject({ url: '/sitemap.xml' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain(`<loc>${ORIGIN}/residences</loc>`);
      expect(res.body).toContain(`<loc>${ORIGIN}/label</loc>`);
      expect(res.body).not.toContain('/emissions/');
    } finally {
      await down.close();
    }
  });

  it('has a residence volunteers just saved, with no restart: its podcast feed and its address', async () => {
    const before = app.content.current('residences');
    const added = {
      id: 'nouvelle-venue',
      artist: 'Nouvelle Venue',
      show: 'Premier Mardi',
      description: 'Tous les premiers mardis.',
      styles: [],
      // Its portrait, uploaded (docs/content.md, « Pictures »): the feed's square picture.
      portrait: '/media/0123456789abcdef0123456789abcdef-800.webp',
    };
    await app.content.save('residences', [...(before.data as unknown[]), added], { by: 'test' });
    try {
      const feed = await app.inject({ url: '/residences/nouvelle-venue/feed.xml' });
      expect(feed.statusCode).toBe(200);
      const channel = (parser.parse(feed.body) as { rss: { channel: Node } }).rss.channel;
      expect(channel.title).toBe('Nouvelle Venue · Premier Mardi');
      expect((channel['itunes:image'] as Node)['@href']).toBe(`${ORIGIN}${added.portrait}`);
      const sitemap = await app.inject({ url: '/sitemap.xml' });
      expect(sitemap.body).toContain(`<loc>${ORIGIN}/residences/nouvelle-venue</loc>`);
    } finally {
      app.content.restore('residences', before.id, 'test');
    }
    expect((await app.inject({ url: '/residences/nouvelle-venue/feed.xml' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/sitemap.xml' })).body).not.toContain('/residences/nouvelle-venue<');
  });

  it('lists every page without parameters, every residence and every episode, with lastmod from the feed', async () => {
    const res = await app.inject({ url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(wellFormed(res.body)).toBe(true);
    const urls = (parser.parse(res.body) as { urlset: { url: { loc: string; lastmod?: string }[] } }).urlset.url;
    const locs = urls.map((url) => url.loc);
    for (const path of ['/', '/residences', '/emissions', '/label', '/a-propos', '/residences/axonberg']) {
      expect(locs).toContain(`${ORIGIN}${path}`);
    }
    // The volunteers' editor is not for search engines (its route says `noindex`).
    expect(locs.filter((loc) => loc.startsWith(`${ORIGIN}/admin`))).toEqual([]);
    const { total } = (await app.inject({ url: '/api/episodes' })).json<{ total: number }>();
    expect(locs.filter((loc) => loc.startsWith(`${ORIGIN}/emissions/`))).toHaveLength(total);
    expect(locs.some((loc) => loc.includes(':'.concat('id')))).toBe(false);
    expect(urls.find((url) => url.loc === `${ORIGIN}/`)?.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('lists a remote’s pages while it runs on its dev server (npm run dev), as the pages and the menu do', async () => {
    // The radio's dev server: its pages.json on its own origin, none in the site's folder.
    const devServer = await startFakeServer({
      routes: {
        '/pages.json': (_request, response) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(pagesJson('mf-radio'));
        },
      },
    });
    const devDir = mkdtempSync(join(tmpdir(), 'feeds-dev-'));
    for (const part of ['mf-label', 'mf-about']) {
      const file = join(devDir, part, 'dist', 'pages.json');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, pagesJson(part));
    }
    const site = readSiteServerConfig({
      DIST_ROOT: devDir,
      ASSETS_DIR: join(devDir, 'assets'),
      SITE_ORIGIN: ORIGIN,
      DEV_REMOTES: JSON.stringify({ radio: devServer.origin }),
    });
    const devApp = await buildApp({ site, api: testConfig() });
    try {
      const res = await devApp.inject({ url: '/sitemap.xml' });
      const locs = (parser.parse(res.body) as { urlset: { url: { loc: string }[] } }).urlset.url.map((url) => url.loc);
      for (const path of ['/', '/residences', '/emissions', '/residences/axonberg', '/label']) {
        expect(locs).toContain(`${ORIGIN}${path}`);
      }
      expect(devServer.count('/pages.json')).toBeGreaterThan(0);
    } finally {
      await devApp.close();
      await devServer.close();
      rmSync(devDir, { recursive: true, force: true });
    }
  });

  it('lists the events’ page and every event’s page the calendars hold', async () => {
    const res = await app.inject({ url: '/sitemap.xml' });
    const locs = (parser.parse(res.body) as { urlset: { url: { loc: string }[] } }).urlset.url.map((url) => url.loc);
    expect(locs).toContain(`${ORIGIN}/evenements`);
    const events = (await app.inject({ url: '/api/events' })).json<Events>();
    const slugs = [...events.coming, ...events.past].map((event) => event.slug);
    expect(slugs.length).toBeGreaterThan(5);
    for (const slug of slugs) expect(locs).toContain(`${ORIGIN}/evenements/${slug}`);
    expect(
      sitemap(declaredPages(), [], [], ORIGIN, [{ slug: '2026-12-05-3f9a1c0d2b' }]).match(
        /<loc>[^<]*evenements[^<]*<\/loc>/g,
      ),
    ).toEqual([`<loc>${ORIGIN}/evenements</loc>`, `<loc>${ORIGIN}/evenements/2026-12-05-3f9a1c0d2b</loc>`]);
  });

  it('lists the artists’ page and each played artist worth indexing, never the others (docs/artists.md)', async () => {
    const res = await app.inject({ url: '/sitemap.xml' });
    const locs = (parser.parse(res.body) as { urlset: { url: { loc: string }[] } }).urlset.url.map((url) => url.loc);
    expect(locs).toContain(`${ORIGIN}/artistes`);
    const listed = locs.filter((loc) => loc.startsWith(`${ORIGIN}/artistes/`));
    expect(listed.length).toBeGreaterThan(0);
    // Every one listed is indexed (a release, a residence or two plays); one play alone is not listed.
    for (const loc of listed) {
      const slug = loc.slice(`${ORIGIN}/artistes/`.length);
      expect([slug, (await app.inject({ url: `/api/artists/${slug}` })).json<{ indexed: boolean }>().indexed]).toEqual([
        slug,
        true,
      ]);
    }
    const all = (await app.inject({ url: '/api/artists' })).json<{ items: { slug: string }[] }>().items;
    const unlisted = all.filter((item) => !listed.includes(`${ORIGIN}/artistes/${item.slug}`));
    expect(unlisted.length).toBeGreaterThan(0);
    for (const { slug } of unlisted) {
      expect((await app.inject({ url: `/api/artists/${slug}` })).json<{ indexed: boolean }>().indexed).toBe(false);
    }
  });

  it('robots.txt allows everything and names the sitemap', async () => {
    const res = await app.inject({ url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${ORIGIN}/sitemap.xml\n`);
  });

  it('answer HEAD like GET, and 304 to their ETag', async () => {
    for (const url of ['/sitemap.xml', '/robots.txt', '/manifest.webmanifest']) {
      const get = await app.inject({ url });
      const head = await app.inject({ method: 'HEAD', url });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers.etag).toBe(get.headers.etag);
      const again = await app.inject({ url, headers: { 'if-none-match': String(get.headers.etag) } });
      expect(again.statusCode).toBe(304);
    }
  });

  it('skips pages with parameters, and writes residences without episodes without lastmod', () => {
    const xml = sitemap(
      [
        { path: '', remote: 'radio', module: 'HomePage', title: 'Accueil', area: 'a' },
        { path: 'residences/:id', remote: 'radio', module: 'ResidencePage', title: 'R', area: 'a' },
      ],
      [{ id: 'calme', artist: 'Calme', show: 'Plat', description: '' }],
      [],
      ORIGIN,
    );
    expect(xml).toContain(`<url><loc>${ORIGIN}/</loc></url>`);
    expect(xml).toContain(`<url><loc>${ORIGIN}/residences/calme</loc></url>`);
    expect(xml).not.toContain(':id');
  });

  it('writes every address where the page table puts the pages today', () => {
    const renamed = declaredPages().map((page) =>
      page.module === 'EpisodePage' ? { ...page, path: 'episodes/:slug', aliases: ['emissions/:slug'] } : page,
    );
    const episode = {
      url: '/a.mp3',
      duration: 60,
      artist: 'A',
      show: 'B',
      cover: '',
      link: 'https://soundcloud.com/x/y',
      pubDate: '2026-11-20T19:00:00.000Z',
      slug: 'a-b-1',
      residences: ['r'],
      styles: [],
    } satisfies PodcastItem & Record<string, unknown>;
    const xml = sitemap(renamed, [{ id: 'r', artist: 'A', show: 'B', description: '' }], [episode], ORIGIN);
    expect(xml).toContain(`<loc>${ORIGIN}/episodes/a-b-1</loc>`);
    expect(xml).not.toContain('/emissions/a-b-1');
    const feed = residenceFeed(
      { id: 'r', artist: 'A', show: 'B', description: '' },
      [episode],
      ORIGIN,
      new Date('2026-11-22T00:00:00Z'),
      hrefOf(renamed),
    );
    expect(feed).toContain(`<link>${ORIGIN}/episodes/a-b-1</link>`);
    // Without the episode page in the table (its remote is down), an item has no link to a page
    // that does not answer: its GUID is its audio file.
    const unlinked = residenceFeed(
      { id: 'r', artist: 'A', show: 'B', description: '' },
      [episode],
      ORIGIN,
      new Date('2026-11-22T00:00:00Z'),
      hrefOf(renamed.filter((page) => page.module !== 'EpisodePage')),
    );
    expect(unlinked).not.toContain('a-b-1');
    expect(unlinked).toContain(`<guid isPermaLink="false">${ORIGIN}/a.mp3</guid>`);
  });
});

describe('the events’ calendar, /evenements.ics', () => {
  it('is the file of /api/events.ics, to subscribe to, at an address of the site', async () => {
    const site = await app.inject({ url: '/evenements.ics' });
    const api = await app.inject({ url: '/api/events.ics' });
    expect(site.statusCode).toBe(200);
    expect(site.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(site.headers['content-disposition']).toBe('inline; filename="evenements.ics"');
    expect(site.body).toBe(api.body);
    expect(site.headers.etag).toBe(api.headers.etag);
    expect(site.body).toContain(`X-WR-CALNAME:${siteConfig.name} · évènements`);
    expect(site.body).toContain(`URL:${ORIGIN}/evenements/`);
    const head = await app.inject({ method: 'HEAD', url: '/evenements.ics' });
    expect([head.statusCode, head.body, head.headers.etag]).toEqual([200, '', site.headers.etag]);
    const again = await app.inject({ url: '/evenements.ics', headers: { 'if-none-match': String(site.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });
});

describe('the web app manifest', () => {
  it('names the site in French, with its colours and icons, so it can be added to a home screen', async () => {
    const res = await app.inject({ url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    const manifest = res.json<Record<string, unknown>>();
    expect(manifest).toMatchObject({
      name: siteConfig.name,
      description: siteConfig.baseline,
      lang: 'fr',
      start_url: '/',
      display: 'standalone',
      theme_color: colors.bg,
      background_color: colors.bg,
    });
    expect(manifest.short_name).toBe(shortName(siteConfig.name));
    expect(String(manifest.short_name).length).toBeLessThanOrEqual(12);
    const icons = (manifest.icons as Node[]).map(({ sizes, type, purpose }) => ({ sizes, type, purpose }));
    expect(icons).toEqual(
      ['any', 'maskable'].flatMap((purpose) =>
        ['192x192', '512x512'].map((sizes) => ({ sizes, type: 'image/png', purpose })),
      ),
    );
  });

  it('shortens the name at whole words for the home screen', () => {
    expect(shortName('Collectif Garonne')).toBe('Garonne');
    expect(shortName('Radio Canal Sud')).toBe('Canal Sud');
    expect(shortName(' Radio ')).toBe('Radio');
    expect(shortName('Anticonstitutionnellement')).toBe('Anticonstitu');
  });
});
