import type { FastifyInstance } from 'fastify';
import type {
  ApiError,
  EpisodeDetail,
  EpisodesPage,
  PlayedArtist,
  PlayedArtistsPage,
  Release,
} from '@collectif/shared';
import { buildApi, listen, testConfig } from '../api/testing/fixtures';
import { editorClient } from '../api/testing/editors';

// GET /api/artists and /api/artists/:slug over real HTTP on loopback (docs/artists.md): the index
// made from the demo's tracklists and the label's releases, kept current when a tracklist, a release
// or a merge is saved; French 404s; hostile addresses refused; the merges an admin's alone.

const TOKEN = 'jeton-admin-du-test-de-24-car';
let app: FastifyInstance;
let base: string;

beforeEach(async () => {
  app = await buildApi({ config: testConfig({ adminToken: TOKEN }), demoAnchor: new Date('2026-11-22T00:00:00Z') });
  base = await listen(app);
});
afterEach(() => app.close());

const { send, volunteer } = editorClient(() => ({ app, base }), TOKEN);
// The answer's type is the test's reading of its body.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
const read = async <T>(path: string) => {
  const res = await send(path);
  return { status: res.status, body: (await res.json()) as T };
};

const NOT_FOUND = 'Cet artiste n’a pas de page sur le site.';

describe('GET /api/artists', () => {
  it('lists the played artists A–Z with their plays, and the label’s, 50 a page; a page past the last is a French 404', async () => {
    const { status, body } = await read<PlayedArtistsPage>('/artists');
    expect(status).toBe(200);
    expect(body.total).toBeGreaterThan(10);
    expect(body.items.length).toBe(Math.min(50, body.total));
    const names = body.items.map((item) => item.name.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'fr')));
    const basic = (await read<PlayedArtistsPage>('/artists?q=BASIC%20chann')).body;
    expect(basic.items).toEqual([expect.objectContaining({ slug: 'basic-channel', name: 'Basic Channel' })]);
    expect(basic.items[0]?.plays).toBeGreaterThanOrEqual(2);
    const past = await read<ApiError>(`/artists?page=${String(body.pages + 1)}`);
    expect(past.status).toBe(404);
    expect(past.body.message).toBe('Cette page de la liste des artistes n’existe pas.');
    // A 10 KB search is read up to its first 100 characters, not refused.
    expect((await read<PlayedArtistsPage>(`/artists?q=${'b'.repeat(10_000)}`)).status).toBe(200);
  });

  it('gives an artist’s plays (episode, time, track), releases and residence; an unknown or hostile slug is a French 404', async () => {
    const { status, body } = await read<PlayedArtist>('/artists/axonberg');
    expect(status).toBe(200);
    expect(body.slug).toBe('axonberg');
    expect(body.indexed).toBe(true);
    expect(body.residence?.id).toBe('axonberg');
    expect(body.releases.map((release) => release.href)).toContain('/album/synapses-ep');
    expect(body.sameAs.every((link) => link.startsWith('https://'))).toBe(true);
    const play = body.plays[0];
    expect(play).toBeDefined();
    const episode = (await read<EpisodeDetail>(`/episodes/${play?.episode ?? ''}`)).body;
    expect(episode.tracks?.find((row) => row.start === play?.start)).toMatchObject({
      artist: 'Axonberg',
      title: play?.title,
      artistSlug: 'axonberg',
    });

    for (const slug of [
      'personne-inconnue',
      '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      'a%00b%07',
      'a'.repeat(2000),
      'Axonberg',
    ]) {
      const unknown = await read<ApiError>(`/artists/${slug}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(NOT_FOUND);
    }
  });

  it('is kept current when a tracklist or a release is saved, and links releases to their artist', async () => {
    const newest = (await read<EpisodesPage>('/episodes?residence=la-brume')).body.items[0];
    if (newest === undefined) throw new Error('aucune émission');
    expect((await read<ApiError>('/artists/orchestre-du-sous-sol')).status).toBe(404);
    const tracks = [
      { start: 0, artist: 'Orchestre du Sous-Sol', title: 'Cave' },
      { start: 30, artist: 'ORCHESTRE DU SOUS-SOL', title: 'Cellier' },
    ];
    const saved = await send(`/content/tracklists/${newest.slug}`, {
      method: 'PUT',
      body: { entry: { episode: newest.slug, tracks } },
    });
    expect(saved.status).toBe(200);
    const artist = (await read<PlayedArtist>('/artists/orchestre-du-sous-sol')).body;
    expect(artist.plays.map((one) => [one.episode, one.start, one.title])).toEqual([
      [newest.slug, 0, 'Cave'],
      [newest.slug, 30, 'Cellier'],
    ]);
    expect(artist.indexed).toBe(true);
    // The archive's search names the artist's page beside the episodes.
    const search = (await read<EpisodesPage>('/episodes?q=sous-sol')).body;
    expect(search.items.map((item) => item.slug)).toContain(newest.slug);
    expect(search.artists?.map((item) => item.slug)).toEqual(['orchestre-du-sous-sol']);

    const releases = (await read<Release[]>('/content/releases')).body;
    const put = await send('/content/releases', {
      method: 'PUT',
      body: { data: [{ ...releases[0], artist: 'Orchestre du Sous-Sol', href: '/album/sous-sol' }, ...releases] },
    });
    expect(put.status).toBe(200);
    expect((await read<PlayedArtist>('/artists/orchestre-du-sous-sol')).body.releases).toEqual([
      expect.objectContaining({ href: '/album/sous-sol' }),
    ]);
    const served = (await read<Release[]>('/releases?limit=1')).body;
    expect(served[0]).toMatchObject({ href: '/album/sous-sol', artistSlug: 'orchestre-du-sous-sol' });
  });

  it('bounds a hostile name saved as content: markup kept as text, control characters out, 2,000 characters refused', async () => {
    const releases = (await read<Release[]>('/content/releases')).body;
    const hostile = '<img src=x onerror=alert(1)>\u0007 Cloche\u0000';
    const put = await send('/content/releases', {
      method: 'PUT',
      body: { data: [{ ...releases[0], artist: hostile, href: '/album/piege' }, ...releases] },
    });
    expect(put.status).toBe(200);
    const page = (await read<PlayedArtistsPage>('/artists?q=cloche')).body;
    expect(page.items).toEqual([
      { slug: 'img-src-x-onerror-alert-1-cloche', name: '<img src=x onerror=alert(1)> Cloche', plays: 0, releases: 1 },
    ]);
    const long = await send('/content/releases', {
      method: 'PUT',
      body: { data: [{ ...releases[0], artist: 'A'.repeat(2000), href: '/album/long' }, ...releases] },
    });
    expect(long.status).toBe(400);
    const newest = (await read<EpisodesPage>('/episodes?residence=la-brume')).body.items[0];
    const row = await send(`/content/tracklists/${newest?.slug ?? ''}`, {
      method: 'PUT',
      body: { entry: { episode: newest?.slug, tracks: [{ start: 0, artist: '<b>Gras</b>', title: 'x' }] } },
    });
    expect(row.status).toBe(400);
    expect((await read<PlayedArtistsPage>('/artists?q=gras')).body.total).toBe(0);
  });

  it('applies an admin’s merge (the merged-away slug answers the canonical artist); refuses another team’s and a hostile one', async () => {
    const before = (await read<PlayedArtistsPage>('/artists?q=moritz')).body.items;
    expect(before.map((item) => item.slug)).toEqual(['moritz-von-oswald-trio']);
    const label = await volunteer('label', 'label-camille');
    const merges = [{ into: 'basic-channel', names: ['Moritz von Oswald Trio'] }];
    const refused = await send('/content/artistMerges', { method: 'PUT', as: label, body: { data: merges } });
    expect(refused.status).toBe(403);
    const hostile = await send('/content/artistMerges', {
      method: 'PUT',
      body: { data: [{ into: '<b>x</b>', names: ['<script>', 'a'.repeat(2000)] }] },
    });
    expect(hostile.status).toBe(400);
    expect(((await hostile.json()) as ApiError).message).toBe('Le contenu a des erreurs : rien n’a été enregistré.');

    expect((await send('/content/artistMerges', { method: 'PUT', body: { data: merges } })).status).toBe(200);
    const merged = (await read<PlayedArtist>('/artists/moritz-von-oswald-trio')).body;
    expect(merged.slug).toBe('basic-channel');
    expect(merged.plays.length).toBeGreaterThan(before[0]?.plays ?? 0);
    expect((await read<PlayedArtistsPage>('/artists?q=moritz')).body.items.map((item) => item.slug)).toEqual([
      'basic-channel',
    ]);
    // Versioned like any content: its history has the save.
    const history = (await read<{ versions: unknown[] }>('/content/artistMerges/history')).body;
    expect(history.versions.length).toBeGreaterThanOrEqual(1);
  });
});
