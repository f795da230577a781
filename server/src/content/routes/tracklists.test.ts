import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ApiError, Episode } from '@collectif/shared';
import { buildApi, listen, testConfig } from '../../api/testing/fixtures';
import { editorClient, XSRF } from '../../api/testing/editors';

// An episode's tracklist written by its residence's resident or an admin (docs/content.md,
// « Tracklists »), over real HTTP on loopback: a save, refusals (another residence's episode, an
// unknown one, markup, too many rows, a row past the episode's end), a removal, and the prefill
// from what the radio recorded during the show's slot.

const TOKEN = 'jeton-admin-du-test-de-24-car';
const RESIDENCE = 'axonberg';
const OTHER = 'la-brume';
const DAY = 24 * 3600_000;

interface Entry {
  episode: string;
  tracks: { start: number; artist: string; title: string; release?: string }[];
}
interface Invalid extends ApiError {
  problems: string[];
}
interface Recorded {
  episode: string;
  duration: number;
  slot: { source: 'programme' | 'duree'; from: string; to: string; title?: string } | null;
  rows: { start: number; artist: string; title: string }[];
  dropped: number;
}

let app: FastifyInstance;
let base: string;

let contentDir: string;

/** A server on `dir` (a new CONTENT_DIR by default). */
async function start(dir?: string): Promise<void> {
  // The demo radio's rotation a day long: what it played falls at midnight UTC, outside the
  // evening's shows, so the rows recorded in a show's slot are the test's own.
  const config = testConfig({ adminToken: TOKEN, ...(dir === undefined ? {} : { contentDir: dir }) });
  contentDir = config.contentDir;
  app = await buildApi({ config: { ...config, demo: { ...config.demo, rotationMs: DAY } } });
  base = await listen(app);
}

beforeEach(async () => {
  await start();
});

afterEach(async () => {
  await app.close();
});

const { send, volunteer } = editorClient(() => ({ app, base }), TOKEN);

/** The newest episode of a residence, as the archive gives it. */
async function episodeOf(residence: string): Promise<Episode> {
  const page = (await (await send(`/episodes?residence=${residence}`)).json()) as { items: Episode[] };
  const [newest] = page.items;
  if (newest === undefined) throw new Error(`aucune émission pour ${residence}`);
  return newest;
}

const lists = async () => (await (await send('/content/tracklists')).json()) as Entry[];
const listOf = async (slug: string) => (await lists()).find((entry) => entry.episode === slug);

const rows = (count: number, step = 1) =>
  Array.from({ length: count }, (_, i) => ({ start: i * step, artist: `Artiste ${String(i)}`, title: 'Titre' }));

describe('a tracklist’s writes', () => {
  it('lets a resident save their own episode’s tracklist, served at once, and refuses another residence’s', async () => {
    const resident = await volunteer('residence', 'resident-axonberg', RESIDENCE);
    const own = await episodeOf(RESIDENCE);
    const tracks = [
      { start: 0, artist: 'Axonberg', title: 'Synapse 7', release: '/album/synapses-ep' },
      { start: 12, artist: 'Basic Channel', title: 'Phylyps Trak' },
    ];
    const saved = await send(`/content/tracklists/${own.slug}`, {
      method: 'PUT',
      as: resident,
      body: { entry: { episode: own.slug, tracks } },
    });
    expect(saved.status).toBe(200);
    const { version } = (await saved.json()) as { version: { id: string; by: string } };
    expect(version.by).toBe('resident-axonberg');
    expect(await listOf(own.slug)).toEqual({ episode: own.slug, tracks });
    // The form opens on it, with the version it is in.
    const opened = (await (await send(`/content/tracklists/${own.slug}/current`, { as: resident })).json()) as {
      version: string;
      entry: Entry | null;
    };
    expect(opened).toEqual({
      version: version.id,
      duration: Math.floor(own.duration),
      entry: { episode: own.slug, tracks },
    });

    const other = await episodeOf(OTHER);
    const before = await lists();
    const refused = await send(`/content/tracklists/${other.slug}`, {
      method: 'PUT',
      as: resident,
      body: { entry: { episode: other.slug, tracks } },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as ApiError).message).toBe('Ce compte ne peut pas modifier ce contenu.');
    // Nor its prefill, nor its removal, nor the whole kind, nor its history.
    expect((await send(`/content/tracklists/${other.slug}/recorded`, { as: resident })).status).toBe(403);
    expect((await send(`/content/tracklists/${other.slug}/current`, { as: resident })).status).toBe(403);
    expect((await send(`/content/tracklists/${own.slug}`, { method: 'DELETE', as: resident })).status).toBe(200);
    expect((await send(`/content/tracklists/${other.slug}`, { method: 'DELETE', as: resident })).status).toBe(403);
    expect((await send('/content/tracklists', { method: 'PUT', as: resident, body: { data: [] } })).status).toBe(403);
    expect((await send('/content/tracklists/history', { as: resident })).status).toBe(403);
    expect((await lists()).filter((entry) => entry.episode !== own.slug)).toEqual(
      before.filter((e) => e.episode !== own.slug),
    );
  });

  it('refuses an unknown episode (404), another address than the entry’s, the teams, the signed out, a write without XSRF', async () => {
    const episode = await episodeOf(RESIDENCE);
    const entry = { episode: episode.slug, tracks: rows(2) };
    const before = await lists();
    const unknown = await send('/content/tracklists/pas-une-emission', {
      method: 'PUT',
      body: { entry: { ...entry, episode: 'pas-une-emission' } },
    });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as ApiError).message).toBe(
      'Émission inconnue : aucune émission du site n’a cette adresse.',
    );
    expect((await send('/content/tracklists/<script>/recorded')).status).toBe(404);

    const moved = await send(`/content/tracklists/${episode.slug}`, {
      method: 'PUT',
      body: { entry: { ...entry, episode: 'une-autre' } },
    });
    expect(moved.status).toBe(400);
    expect(((await moved.json()) as ApiError).message).toBe(`L’émission de la liste doit rester « ${episode.slug} ».`);

    const label = await volunteer('label', 'equipe-label');
    expect(
      (await send(`/content/tracklists/${episode.slug}`, { method: 'PUT', as: label, body: { entry } })).status,
    ).toBe(403);
    const signedOut = await send(`/content/tracklists/${episode.slug}`, { method: 'PUT', as: XSRF, body: { entry } });
    expect(signedOut.status).toBe(401);
    expect(((await signedOut.json()) as ApiError).message).toBe('Connectez-vous pour modifier le contenu.');
    const noXsrf = await send(`/content/tracklists/${episode.slug}`, {
      method: 'PUT',
      as: { authorization: `Bearer ${TOKEN}` },
      body: { entry },
    });
    expect(noXsrf.status).toBe(403);
    expect(await lists()).toEqual(before);
  });

  it('refuses markup, 10,000 rows, 100 KB rows and times past the episode’s end, in French, and saves nothing', async () => {
    const episode = await episodeOf(RESIDENCE);
    const seconds = Math.floor(episode.duration);
    expect(seconds).toBeGreaterThan(10);
    const before = await lists();
    const put = async (tracks: unknown) => {
      const res = await send(`/content/tracklists/${episode.slug}`, {
        method: 'PUT',
        body: { entry: { episode: episode.slug, tracks } },
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as Invalid;
      expect(body.message).toBe('Le contenu a des erreurs : rien n’a été enregistré.');
      return body.problems;
    };

    expect(await put([{ start: 0, artist: '<script>alert(1)</script>', title: 'x' }])).toEqual([
      'tracklists: champ /tracks/0/artist : sans balise ni caractère de contrôle',
    ]);
    expect(await put(rows(10_000))).toEqual(['tracklists: champ /tracks : trop long (attendu : <=200)']);
    expect(await put([{ start: 0, artist: 'a'.repeat(100_000), title: 'x' }])).toEqual([
      'tracklists: champ /tracks/0/artist : trop long (attendu : <=200)',
    ]);
    expect(
      await put([
        { start: 0, artist: 'A', title: 'x' },
        { start: seconds - 1, artist: 'B', title: 'x' },
        { start: seconds, artist: 'C', title: 'x' },
        { start: 3600, artist: 'D', title: 'x' },
      ]),
    ).toEqual([
      `tracklists: champ /tracks/2/start : après la fin de l’émission (${String(seconds)} s)`,
      `tracklists: champ /tracks/3/start : après la fin de l’émission (${String(seconds)} s)`,
    ]);
    expect(
      await put([
        { start: 10, artist: 'A', title: 'x' },
        { start: 5, artist: 'B', title: 'x' },
      ]),
    ).toEqual(['tracklists: champ /tracks : les heures de début doivent croître d’une ligne à la suivante']);
    expect(await put([])).toEqual(['tracklists: champ /tracks : trop court (attendu : >=1)']);
    expect(await lists()).toEqual(before);
  });

  it('lets an admin remove a list; a list that is not there is a 404', async () => {
    const episode = await episodeOf(OTHER);
    const entry = { episode: episode.slug, tracks: rows(3, 5) };
    expect((await send(`/content/tracklists/${episode.slug}`, { method: 'PUT', body: { entry } })).status).toBe(200);
    expect(await listOf(episode.slug)).toEqual(entry);
    const removed = await send(`/content/tracklists/${episode.slug}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(await listOf(episode.slug)).toBeUndefined();
    const again = await send(`/content/tracklists/${episode.slug}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(((await again.json()) as ApiError).message).toBe('Cette émission n’a pas de liste de titres.');
  });

  it('tells a resident whose episode’s list changed meanwhile, showing that list alone', async () => {
    const resident = await volunteer('residence', 'resident-axonberg', RESIDENCE);
    const episode = await episodeOf(RESIDENCE);
    const basedOn = ((await (await send('/content/tracklists/history')).json()) as { current: string }).current;
    const theirs = { episode: episode.slug, tracks: rows(2, 7) };
    expect((await send(`/content/tracklists/${episode.slug}`, { method: 'PUT', body: { entry: theirs } })).status).toBe(
      200,
    );
    const conflict = await send(`/content/tracklists/${episode.slug}`, {
      method: 'PUT',
      as: resident,
      body: { basedOn, entry: { episode: episode.slug, tracks: rows(3, 2) } },
    });
    expect(conflict.status).toBe(409);
    const body = (await conflict.json()) as ApiError & { current: { by: string; data: Entry[] } };
    expect(body.message).toMatch(/^Modifié entre-temps par un autre éditeur/);
    expect(body.current.data).toEqual([theirs]);
    expect(await listOf(episode.slug)).toEqual(theirs);
  });
});

describe('the prefill from what the radio recorded', () => {
  // The app built twice, and the programme asked for a week at a time: about 5 s alone, past jest's
  // 15 s once beside a whole build on a loaded machine.
  it('gives what played during the residence’s show before the episode, shifted to the replay’s start', async () => {
    // The newest episode whose residence has a show in the programme in the week before it (what
    // the radio played is kept 14 days: the archive's newest episodes).
    const page = (await (await send('/episodes?page=1')).json()) as { items: Episode[] };
    let found: { episode: Episode; show: { start: string; end: string; title: string } } | undefined;
    for (const episode of page.items) {
      const published = Date.parse(episode.pubDate ?? '');
      const [residence] = episode.residences;
      if (residence === undefined || !Number.isFinite(published)) continue;
      const window = `from=${new Date(published - 7 * DAY).toISOString()}&to=${new Date(published).toISOString()}`;
      const schedule = (await (await send(`/schedule?residence=${residence}&${window}`)).json()) as {
        events: { start: string; end: string; title: string }[];
      };
      // The show: the residence's latest in the programme that started before the publication.
      const show = schedule.events.filter((event) => Date.parse(event.start) < published).at(-1);
      if (show !== undefined) {
        found = { episode, show };
        break;
      }
    }
    if (found === undefined) throw new Error('aucune émission récente avec son créneau au programme');
    const { episode, show } = found;
    const seconds = Math.floor(episode.duration);
    const from = Date.parse(show.start);
    const at = (offset: number) => new Date(from + offset * 1000).toISOString();
    // What the radio played, as the recorder keeps it (its file in CONTENT_DIR, read at start): a
    // track before the show, then during it, one past the replay's length, one an hour in.
    await app.close();
    const file = join(contentDir, 'played.json');
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { rows: object[] };
    const played = [
      { at: new Date(from - 5000).toISOString(), artist: 'Avant', title: 'Le direct' },
      { at: at(0), artist: 'Axonberg', title: 'Synapse 7' },
      { at: at(12), artist: 'Basic Channel', title: 'Phylyps Trak' },
      { at: at(seconds - 1), artist: 'Deepchord', title: 'Vantage <Isle>' },
      { at: at(seconds + 1), artist: 'Après', title: 'La fin' },
      { at: at(3600), artist: 'Encore', title: 'Plus tard' },
    ];
    writeFileSync(file, JSON.stringify({ rows: [...kept.rows, ...played] }));
    await start(contentDir);
    const resident = await volunteer('residence', 'resident-de-l-emission', episode.residences[0]);

    const res = await send(`/content/tracklists/${episode.slug}/recorded`, { as: resident });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Recorded;
    expect(body.slot).toEqual({ source: 'programme', from: show.start, to: show.end, title: show.title });
    expect(body.rows).toEqual([
      { start: 0, artist: 'Axonberg', title: 'Synapse 7' },
      { start: 12, artist: 'Basic Channel', title: 'Phylyps Trak' },
      { start: seconds - 1, artist: 'Deepchord', title: 'Vantage Isle' },
    ]);
    // « Après » (past the replay's length) and « Encore » (an hour in) are left out.
    expect(body.dropped).toBe(2);

    // The rows are a list the site takes as they are.
    const saved = await send(`/content/tracklists/${episode.slug}`, {
      method: 'PUT',
      as: resident,
      body: { entry: { episode: episode.slug, tracks: body.rows } },
    });
    expect(saved.status).toBe(200);
  }, 60_000);

  it('takes the window of the episode’s length ending at its publication when no show of its residence is in the programme, and says when nothing was recorded', async () => {
    // A residence with no show in the demo's programme in the week before its episode: the
    // programme's residences are the ones the demo's calendar names; find an episode without.
    const page = (await (await send('/episodes?page=1')).json()) as { items: Episode[] };
    let found: { episode: Episode; answer: Recorded } | undefined;
    for (const episode of page.items) {
      const answer = (await (await send(`/content/tracklists/${episode.slug}/recorded`)).json()) as Recorded;
      if (answer.slot?.source === 'duree') {
        found = { episode, answer };
        break;
      }
    }
    if (found === undefined) throw new Error('toutes les émissions ont leur créneau au programme');
    const { episode, answer } = found;
    const published = Date.parse(episode.pubDate ?? '');
    expect(answer.slot).toEqual({
      source: 'duree',
      from: new Date(published - Math.floor(episode.duration) * 1000).toISOString(),
      to: new Date(published).toISOString(),
    });
    expect(answer.rows).toEqual([]);
  });
});
