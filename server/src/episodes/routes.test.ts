import type { FastifyInstance } from 'fastify';
import type { ApiError, Episode, EpisodeDetail, EpisodesPage, PodcastItem, StyleCount } from '@collectif/shared';
import { buildApi, testConfig } from '../api/testing/fixtures';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { chaptersSchema } from '@collectif/shared/schemas';
import { EPISODES_PAGE_SIZE, MAX_QUERY_LENGTH, searchTerm, type TracklistEntry } from './catalogue';
import { workspaceRoot } from '../settings/config';

// The repository's tracklists, which a new content folder starts from (docs/tracklists.md).
const SEED_TRACKLISTS = JSON.parse(
  readFileSync(join(workspaceRoot, 'server/content/tracklists.json'), 'utf8'),
) as TracklistEntry[];
/** « artist title » of each row the repository's tracklist of `slug` has. */
const played = (slug: string) =>
  (SEED_TRACKLISTS.find((entry) => entry.episode === slug)?.tracks ?? []).map((t) => `${t.artist} ${t.title}`);

// The demo feed (about 530 podcasts over the residences of the content file), on a fixed day.
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildApi({ config: testConfig(), demoAnchor: new Date('2026-11-22T00:00:00Z') });
});
afterAll(() => app.close());

// The answer's type is the test's reading of its body.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
const get = async <T>(url: string) => {
  const res = await app.inject({ url });
  return { status: res.statusCode, body: res.json<T>(), headers: res.headers };
};

describe('GET /api/episodes, the archive', () => {
  it('lists every podcast of the feed, newest first, a page at a time', async () => {
    const all = await get<PodcastItem[]>('/api/podcasts');
    const first = await get<EpisodesPage>('/api/episodes');
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(all.body.length);
    expect(first.body.total).toBeGreaterThan(500);
    expect(first.body.pages).toBe(Math.ceil(first.body.total / EPISODES_PAGE_SIZE));
    expect(first.body.items.map((item) => item.link)).toEqual(all.body.slice(0, EPISODES_PAGE_SIZE).map((i) => i.link));
    const second = await get<EpisodesPage>('/api/episodes?page=2');
    expect(second.body.page).toBe(2);
    expect(second.body.items[0]?.link).toBe(all.body[EPISODES_PAGE_SIZE]?.link);
  });

  it('gives every episode a unique slug, the one /api/podcasts gives it too', async () => {
    const all = await get<PodcastItem[]>('/api/podcasts');
    const slugs = all.body.map((item) => item.slug);
    expect(slugs.every((slug) => typeof slug === 'string' && /^[a-z0-9-]+$/.test(slug))).toBe(true);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it('finds shows whatever the case and accents, with typos and word beginnings', async () => {
    const exact = await get<EpisodesPage>('/api/episodes?q=Axonberg');
    expect(exact.body.total).toBeGreaterThan(0);
    // Its own episodes first, then those whose tracklist played it.
    expect(exact.body.items[0]?.artist).toContain('Axonberg');
    expect(
      exact.body.items.every(
        (item) => item.artist.includes('Axonberg') || played(item.slug).some((line) => line.includes('Axonberg')),
      ),
    ).toBe(true);
    for (const q of ['axonberg', 'AXONBERG', 'axonbreg', 'axonb']) {
      const found = await get<EpisodesPage>(`/api/episodes?q=${q}`);
      expect(found.body.items.map((item) => item.slug)).toContain(exact.body.items[0]?.slug);
    }
    const accents = await get<EpisodesPage>(`/api/episodes?q=${encodeURIComponent('détente')}`);
    const plain = await get<EpisodesPage>('/api/episodes?q=detente');
    expect(plain.body.total).toBeGreaterThan(0);
    expect(plain.body.total).toBe(accents.body.total);
  });

  it('finds a short word only where a word starts with it: « dub » is not « du »', async () => {
    const all: Episode[] = [];
    const { body: first } = await get<EpisodesPage>('/api/episodes');
    for (let page = 1; page <= first.pages; page += 1) {
      all.push(...(await get<EpisodesPage>(`/api/episodes?page=${String(page)}`)).body.items);
    }
    // The words of what is searched: the artist, the show, the description and the tracklist.
    const words = (item: Episode) =>
      searchTerm(`${item.artist} ${item.show} ${item.summary ?? ''} ${played(item.slug).join(' ')}`).split(
        /[^a-z0-9]+/,
      );
    const expected = all.filter((item) => words(item).some((word) => word.startsWith('dub')));
    expect(expected.length).toBeGreaterThan(0);
    const found = await get<EpisodesPage>('/api/episodes?q=dub');
    // Every episode found has a word that starts with « dub », and every such episode is found.
    expect(found.body.total).toBe(expected.length);
    const pages = Math.ceil(found.body.total / EPISODES_PAGE_SIZE);
    const slugs: string[] = [];
    for (let page = 1; page <= pages; page += 1) {
      const answer = await get<EpisodesPage>(`/api/episodes?q=dub&page=${String(page)}`);
      slugs.push(...answer.body.items.map((item) => item.slug));
    }
    expect(slugs.sort()).toEqual(expected.map((item) => item.slug).sort());
  });

  it('forgives a typo in a word long enough to carry one, and needs every word', async () => {
    const typo = await get<EpisodesPage>('/api/episodes?q=Nebuleuze');
    expect(typo.body.total).toBeGreaterThan(0);
    expect(typo.body.items.every((item) => item.artist.includes('Nébuleuse'))).toBe(true);
    // Three letters carry no typo: « dun » does not find « dub ».
    const short = await get<EpisodesPage>('/api/episodes?q=dun');
    expect(short.body.items.some((item) => /\bdub/i.test(`${item.artist} ${item.show}`))).toBe(false);
    const both = await get<EpisodesPage>(`/api/episodes?q=${encodeURIComponent('Nébuleuse zzzzzz')}`);
    expect(both.body.total).toBe(0);
  });

  it('filters by style and by residence, with or without a search', async () => {
    const styles = await get<StyleCount[]>('/api/styles');
    const dub = styles.body.find((style) => style.name === 'dub');
    expect(dub?.count).toBeGreaterThan(0);
    const byStyle = await get<EpisodesPage>('/api/episodes?style=dub');
    expect(byStyle.body.total).toBe(dub?.count);
    expect(byStyle.body.items.every((item) => item.styles.includes('dub'))).toBe(true);
    const byResidence = await get<EpisodesPage>('/api/episodes?residence=axonberg');
    expect(byResidence.body.total).toBeGreaterThan(0);
    expect(byResidence.body.items.every((item) => item.residences.includes('axonberg'))).toBe(true);
    const both = await get<EpisodesPage>('/api/episodes?residence=axonberg&style=dub');
    expect(both.body.total).toBe(0);
  });

  it('answers an unknown style or a page past the last with no episode, never an error', async () => {
    const unknown = await get<EpisodesPage>('/api/episodes?style=%3Cscript%3E');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ total: 0, items: [], page: 1, pages: 1 });
    const past = await get<EpisodesPage>('/api/episodes?page=99999');
    expect(past.status).toBe(200);
    expect(past.body.items).toEqual([]);
    expect(past.body.page).toBe(99999);
  });

  it('refuses a page that is not a page number with a French 400', async () => {
    for (const page of ['-1', '0', 'abc', '1.5']) {
      const res = await get<ApiError>(`/api/episodes?page=${page}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('bad_request');
      expect(res.body.message).toMatch(/page/);
    }
  });

  it('reads a 10 KB search up to its first characters instead of failing', async () => {
    const long = `axonberg ${'x'.repeat(10 * 1024)}`;
    const res = await get<EpisodesPage>(`/api/episodes?q=${long}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(0);
    const cut = await get<EpisodesPage>(`/api/episodes?q=axonberg%20${'%20'.repeat(MAX_QUERY_LENGTH)}zzz`);
    expect(cut.body.total).toBeGreaterThan(0);
  });

  it('answers again with 304 to its ETag, and builds the search index once per feed version', async () => {
    const first = await app.inject({ url: '/api/episodes?q=dub' });
    const again = await app.inject({
      url: '/api/episodes?q=dub',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const a = await app.sources.episodes.get();
    const b = await app.sources.episodes.get();
    expect(b.value).toBe(a.value);
  });
});

describe('GET /api/episodes/:slug', () => {
  it('answers one episode by its slug, with its residences, styles and the feed description', async () => {
    const [first] = (await get<EpisodesPage>('/api/episodes?residence=axonberg')).body.items;
    const res = await get<Episode>(`/api/episodes/${first?.slug ?? ''}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ slug: first?.slug, residences: ['axonberg'], link: first?.link });
    expect(res.body.summary).toMatch(/Enregistré|épisode/);
  });

  it.each(['inconnue', '%3Cb%3Ex%3C%2Fb%3E', '..%2F..%2Fetc', 'MAJUSCULES', 'a'.repeat(150)])(
    'answers 404 in French for %s, never the text it was given',
    async (slug) => {
      const res = await app.inject({ url: `/api/episodes/${slug}` });
      expect(res.statusCode).toBe(404);
      expect(res.json<ApiError>()).toEqual({
        error: 'episode_not_found',
        message: 'Cette émission n’existe pas ou n’est plus dans le flux.',
      });
    },
  );
});

describe("an episode's tracklist (docs/tracklists.md)", () => {
  it('gives its rows in time order, each naming up to three other episodes that played its artist', async () => {
    const { status, body } = await get<EpisodeDetail>('/api/episodes/melodica-joe-souffle-dub-11');
    expect(status).toBe(200);
    expect(body.tracks?.map((row) => [row.start, row.artist, row.title])).toEqual([
      [0, 'Augustus Pablo', 'King Tubby Meets Rockers Uptown'],
      [11, 'Danièle Dubwise', 'Écho du Canal'],
      [22, 'Lee « Scratch » Perry', 'Disco Devil'],
      [33, 'Various Artists', 'Garonne Dub Vol. 6'],
      [44, 'Scientist', 'The Mummy’s Shroud'],
    ]);
    expect(body.tracks?.[1]?.release).toBe('/album/echo-du-canal');
    // Augustus Pablo is played by three other demo episodes, newest first; never this one.
    const pablo = body.tracks?.[0]?.also.map((other) => other.slug);
    expect(pablo).toEqual([
      'daniele-dubwise-echo-chambre-11',
      'onde-courte-radio-pirate-11',
      'capitole-sound-session-capitole-11',
    ]);
    expect(body.tracks?.[2]?.also).toEqual([]);
  });

  it('has no tracks on an episode without a tracklist', async () => {
    const { body } = await get<EpisodeDetail>('/api/episodes/tournesol-plein-sud-11');
    expect(body.slug).toBe('tournesol-plein-sud-11');
    expect(body.tracks).toBeUndefined();
  });

  it('finds an episode by an artist or a title its tracklist played', async () => {
    const byArtist = await get<EpisodesPage>(`/api/episodes?q=${encodeURIComponent('Augustus Pablo')}`);
    expect(byArtist.body.items.map((item) => item.slug).sort()).toEqual(
      [
        'capitole-sound-session-capitole-11',
        'daniele-dubwise-echo-chambre-11',
        'melodica-joe-souffle-dub-11',
        'onde-courte-radio-pirate-11',
      ].sort(),
    );
    const byTitle = await get<EpisodesPage>(`/api/episodes?q=${encodeURIComponent('mummy shroud')}`);
    expect(byTitle.body.items.map((item) => item.slug)).toEqual(['melodica-joe-souffle-dub-11']);
  });

  it('serves it as Podcast Index JSON chapters, with their type, cache headers and ETag', async () => {
    const res = await app.inject({ url: '/api/episodes/axonberg-synapses-11/chapters.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json\+chapters\b/);
    // Kept a minute at most (private here only because this first request is given its XSRF cookie).
    expect(res.headers['cache-control']).toMatch(/^(public|private), max-age=(\d|[1-5]\d|60)$/);
    const body: unknown = res.json();
    // The format: a version, chapters with a start in seconds and a title, in time order.
    expect(v.is(chaptersSchema, body)).toBe(true);
    const chapters = v.parse(chaptersSchema, body);
    expect(chapters.version).toBe('1.2.0');
    expect(chapters.author).toBe('Axonberg');
    expect(chapters.title).toMatch(/^Axonberg · /);
    expect(chapters.chapters[0]).toEqual({
      startTime: 0,
      title: 'Axonberg — Synapses EP',
      url: expect.stringMatching(/^https:\/\/[^/]+\/album\/synapses-ep$/) as string,
    });
    expect(chapters.chapters[1]).toEqual({ startTime: 11, title: 'Moritz von Oswald Trio — Pattern 3' });
    const starts = chapters.chapters.map((chapter) => chapter.startTime);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const again = await app.inject({
      url: '/api/episodes/axonberg-synapses-11/chapters.json',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers 404 in French for an episode without a tracklist, an unknown one, or a forged slug', async () => {
    const none = await get<ApiError>('/api/episodes/tournesol-plein-sud-11/chapters.json');
    expect(none.status).toBe(404);
    expect(none.body.message).toBe('Cette émission n’a pas de liste de titres.');
    const unknown = await get<ApiError>('/api/episodes/inconnue-1/chapters.json');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('episode_not_found');
    const forged = await get<ApiError>(`/api/episodes/${encodeURIComponent('<b>x</b>')}/chapters.json`);
    expect(forged.status).toBe(404);
  });
});
