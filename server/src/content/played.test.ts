import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlayedRecorder, type PlayedRecorder } from './played';
import { until } from '@collectif/shared/testing';
import type { SharedPlayed } from '../instances/shared-state';
import { NowPlayingHub } from '../api/http/sse';

// What the radio played (docs/content.md, « What the radio played »): recorded from now-playing
// values, one row per play, bounded, kept across a restart in its file, and read back checked.

const T0 = Date.UTC(2026, 10, 24, 18);
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

let time = T0;
const now = () => time;
const recorders: PlayedRecorder[] = [];

function fileIn(): string {
  return join(mkdtempSync(join(tmpdir(), 'joues-')), 'played.json');
}

async function recorder(file: string, options: Partial<Parameters<typeof createPlayedRecorder>[0]> = {}) {
  const made = await createPlayedRecorder({ file, now, ...options });
  recorders.push(made);
  return made;
}

// The clock a little after the instants observed (an instant later than now + 1 min is refused).
beforeEach(() => {
  time = T0 + 3 * 3600_000;
});

afterEach(async () => {
  await Promise.all(recorders.splice(0).map((made) => made.close()));
});

describe('the recorder of what the radio played', () => {
  it('records the current track when seen and the earlier ones at their exact instants, each play once', async () => {
    const played = await recorder(fileIn());
    played.observe(JSON.stringify({ artist: 'Verglas', title: 'Froid Sec' }), T0);
    // Read again and again while it plays: one row.
    played.observe({ artist: 'Verglas', title: 'Froid Sec' }, T0 + 5000);
    played.observe({ artist: 'Verglas', title: 'Froid Sec' }, T0 + 10_000);
    // The next answer: a new track, and the one before with its exact start, earlier than it was seen.
    played.observe(
      {
        artist: 'La Brume',
        title: 'Matin sur la Garonne',
        history: [
          { artist: 'Verglas', title: 'Froid Sec', playedAt: iso(T0 - 40_000) },
          { artist: 'Axonberg', title: 'Synapse 7', playedAt: iso(T0 - 4 * MIN) },
        ],
      },
      T0 + 3 * MIN,
    );
    // The same answer heard again, from another instance's event.
    played.observe(
      JSON.stringify({
        artist: 'La Brume',
        title: 'Matin sur la Garonne',
        history: [{ artist: 'Verglas', title: 'Froid Sec', playedAt: iso(T0 - 40_000) }],
      }),
      T0 + 3 * MIN + 800,
    );
    expect(played.rows()).toEqual([
      { at: iso(T0 - 4 * MIN), artist: 'Axonberg', title: 'Synapse 7' },
      { at: iso(T0 - 40_000), artist: 'Verglas', title: 'Froid Sec' },
      { at: iso(T0 + 3 * MIN), artist: 'La Brume', title: 'Matin sur la Garonne' },
    ]);
    expect(played.between(T0 - MIN, T0 + 3 * MIN)).toEqual([
      { at: iso(T0 - 40_000), artist: 'Verglas', title: 'Froid Sec' },
    ]);
  });

  it('takes a track played for an hour as one play, and the same track an hour after it ended as another', async () => {
    const played = await recorder(fileIn());
    for (let minute = 0; minute <= 60; minute += 1)
      played.observe({ artist: 'Direct', title: 'Live' }, T0 + minute * MIN);
    played.observe({ artist: 'Autre', title: 'Titre' }, T0 + 61 * MIN);
    played.observe({ artist: 'Direct', title: 'Live' }, T0 + 120 * MIN);
    expect(played.rows().map((row) => [row.at, row.title])).toEqual([
      [iso(T0), 'Live'],
      [iso(T0 + 61 * MIN), 'Titre'],
      [iso(T0 + 120 * MIN), 'Live'],
    ]);
  });

  it('leaves out what cannot be a play, and keeps names bounded without control characters', async () => {
    const played = await recorder(fileIn());
    played.observe('pas du JSON', T0);
    played.observe({ artist: 42, title: 'x' }, T0);
    played.observe({ artist: 'Inconnu', title: 'Inconnu' }, T0);
    played.observe({ artist: '   ', title: 'Sans artiste' }, T0);
    played.observe(
      { artist: 'x', title: 'y', history: [{ artist: 'Futur', title: 'Plus tard', playedAt: iso(T0 + 4 * 3600_000) }] },
      T0,
    );
    played.observe({ artist: `Ligne\u0000\nCassée ${'a'.repeat(500)}`, title: 'Long' }, T0 + MIN);
    const rows = played.rows();
    expect(rows.map((row) => row.title)).toEqual(['y', 'Long']);
    expect(rows[1]?.artist).toMatch(/^Ligne Cassée a+$/);
    expect(rows[1]?.artist).toHaveLength(200);
  });

  it('keeps 14 days and its count of rows, the oldest dropped', async () => {
    const played = await recorder(fileIn(), { max: 3 });
    for (let i = 0; i < 5; i += 1) played.observe({ artist: `Artiste ${String(i)}`, title: 'T' }, T0 + i * MIN);
    expect(played.rows().map((row) => row.artist)).toEqual(['Artiste 2', 'Artiste 3', 'Artiste 4']);
    time = T0 + 14 * 24 * 3600_000 + 3 * MIN + 1;
    played.observe({ artist: 'Artiste 5', title: 'T' }, time);
    expect(played.rows().map((row) => row.artist)).toEqual(['Artiste 4', 'Artiste 5']);
  });

  it('is kept across a restart in its file, written whole, and reads a damaged file’s good rows only', async () => {
    const file = fileIn();
    const first = await recorder(file, { writeMs: 3_600_000 });
    first.observe({ artist: 'Verglas', title: 'Froid Sec' }, T0);
    first.observe({ artist: 'La Brume', title: 'Matin' }, T0 + MIN);
    await first.close();
    // No temporary file left beside it.
    expect(readdirSync(join(file, '..'))).toEqual(['played.json']);
    const again = await recorder(file);
    expect(again.rows()).toEqual([
      { at: iso(T0), artist: 'Verglas', title: 'Froid Sec' },
      { at: iso(T0 + MIN), artist: 'La Brume', title: 'Matin' },
    ]);
    await again.close();

    const saved = JSON.parse(readFileSync(file, 'utf8')) as { rows: unknown[] };
    writeFileSync(
      file,
      JSON.stringify({
        rows: [
          ...saved.rows,
          { at: 'hier', artist: 'Date', title: 'Fausse' },
          { at: iso(T0 + 2 * MIN), artist: 'x'.repeat(5000), title: 'Trop long' },
          { at: iso(T0 + 3 * MIN), artist: 'Champ', title: 'En trop', extra: true },
        ],
      }),
    );
    const warnings: string[] = [];
    const read = await recorder(file, { log: { warn: (message) => warnings.push(message) } });
    expect(read.rows().map((row) => row.artist)).toEqual(['Verglas', 'La Brume']);
    expect(warnings).toEqual(['titres joués : 3 ligne(s) du fichier ignorée(s) (forme invalide)']);

    writeFileSync(file, '{ pas du json');
    const broken = await recorder(file, { log: { warn: (message) => warnings.push(message) } });
    expect(broken.rows()).toEqual([]);
    expect(warnings.at(-1)).toBe('titres joués : fichier illisible, ignoré');
  });

  it('writes the file at most once a minute', async () => {
    const file = fileIn();
    const played = await recorder(file, { writeMs: 60_000 });
    played.observe({ artist: 'Verglas', title: 'Froid Sec' }, T0);
    await played.flush();
    const written = readFileSync(file, 'utf8');
    played.observe({ artist: 'La Brume', title: 'Matin' }, T0 + MIN);
    // Not written until the next minute's turn (or close).
    expect(readFileSync(file, 'utf8')).toBe(written);
    await played.close();
    expect(readFileSync(file, 'utf8')).toContain('La Brume');
  });

  it('gives each new or moved row to the instances, and takes theirs at start, a forged one ignored', async () => {
    const added: { at: number; text: string }[] = [];
    const shared: SharedPlayed = {
      add: (rows) => {
        added.push(...rows);
        return Promise.resolve();
      },
      since: () =>
        Promise.resolve({
          rows: [
            JSON.stringify({ at: iso(T0 - MIN), artist: 'Autre instance', title: 'Titre' }),
            JSON.stringify({ at: iso(T0 - 2 * MIN), artist: '<script>', title: 'x'.repeat(300) }),
            'pas du JSON',
          ],
          forged: 1,
        }),
    };
    const warnings: string[] = [];
    const played = await recorder(fileIn(), { shared, log: { warn: (message) => warnings.push(message) } });
    expect(played.rows()).toEqual([{ at: iso(T0 - MIN), artist: 'Autre instance', title: 'Titre' }]);
    expect(warnings).toEqual([
      'titres joués : 3 valeur(s) de Redis ignorée(s) : signature absente ou fausse (SITE_SECRET), ou forme invalide',
    ]);
    played.observe({ artist: 'Verglas', title: 'Froid Sec' }, T0 + 10_000);
    played.observe(
      { artist: 'Suivant', title: 'T', history: [{ artist: 'Verglas', title: 'Froid Sec', playedAt: iso(T0) }] },
      T0 + 3 * MIN,
    );
    await played.close();
    expect(added.map((row) => [row.at, JSON.parse(row.text) as unknown])).toEqual([
      [T0 + 10_000, { at: iso(T0 + 10_000), artist: 'Verglas', title: 'Froid Sec' }],
      [T0, { at: iso(T0), artist: 'Verglas', title: 'Froid Sec' }],
      [T0 + 3 * MIN, { at: iso(T0 + 3 * MIN), artist: 'Suivant', title: 'T' }],
    ]);
  });
});

describe('fed by the now-playing channel', () => {
  it('records what the hub reads, every poll, with nobody listening', async () => {
    const played = await recorder(fileIn());
    let playing = { artist: 'Verglas', title: 'Froid Sec' };
    const hub = new NowPlayingHub(() => Promise.resolve(playing), {
      pollMs: 10,
      pingMs: 60_000,
      maxPerClient: 1,
      fallback: { artist: 'Inconnu', title: 'Inconnu' },
      observe: (data) => {
        played.observe(data, time);
      },
    });
    try {
      await until(() => played.rows().length === 1);
      time += MIN;
      playing = { artist: 'La Brume', title: 'Matin' };
      await until(() => played.rows().length === 2);
      expect(played.rows().map((row) => row.artist)).toEqual(['Verglas', 'La Brume']);
    } finally {
      hub.close();
    }
  });
});
