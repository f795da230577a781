import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import type { FastifyInstance } from 'fastify';
import { timeshiftAnswerSchema } from '@collectif/shared/schemas';
import { buildApi, listen, manualClock, testConfig } from '../api/testing/fixtures';
import { WINDOW_FILE } from './recorder';
import { PLAYED_FILE } from '../api/plugins/played';
import { TIMESHIFT_PLAYED_MAX } from './routes';

/**
 * GET /api/timeshift (docs/timeshift.md, « What played when »): the window the recorder wrote in
 * window.json, and what the radio played in it, over HTTP on the loopback. The demo radio's rotation
 * (a track every three minutes, on the test's clock) is what played.
 */

const NOW = Date.UTC(2026, 2, 4, 21, 40);
const ROTATION_MS = 180_000;
const HOUR = 3_600_000;

const folders: string[] = [];
const apps: FastifyInstance[] = [];

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

interface Answer {
  hours: number;
  start: string | null;
  end: string | null;
  played: { at: string; artist: string; title: string }[];
}

type Row = Answer['played'][number];

/**
 * A server whose timeline folder holds `window` as window.json (nothing when null), and whose record
 * of what played (played.json, as the now-playing channel writes it) holds `rows`; its address.
 */
async function server(window: string | null, { hours = 4, rows = [] as Row[] } = {}): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'direct-'));
  folders.push(dir);
  if (window !== null) writeFileSync(join(dir, WINDOW_FILE), window);
  const config = testConfig({ timeshift: { hours, dir, segmentSeconds: 10 } });
  config.demo.rotationMs = ROTATION_MS;
  folders.push(config.contentDir);
  writeFileSync(join(config.contentDir, PLAYED_FILE), JSON.stringify({ rows }));
  const app = await buildApi({ config, now: manualClock(NOW).now });
  apps.push(app);
  return listen(app);
}

/** The demo's rotation: a track starts at each multiple of its period. */
const turnsIn = (from: number, to: number) =>
  Array.from(
    { length: Math.floor(to / ROTATION_MS) - Math.ceil(from / ROTATION_MS) + 1 },
    (_unused, index) => (Math.ceil(from / ROTATION_MS) + index) * ROTATION_MS,
  );

async function answer(base: string): Promise<{ body: Answer; cache: string | null }> {
  // A listener's browser: it has the site's cookie (a first answer that sets it is private, docs/api.md).
  const first = await fetch(`${base}/api/timeshift`);
  const cookie = first.headers.getSetCookie().map((each) => each.split(';')[0] ?? '');
  const response = await fetch(`${base}/api/timeshift`, { headers: { cookie: cookie.join('; ') } });
  expect(response.status).toBe(200);
  const body: unknown = await response.json();
  // The shape every part reads (shared/src/schemas/answers.ts).
  expect(v.is(timeshiftAnswerSchema, body)).toBe(true);
  return { body: body as Answer, cache: response.headers.get('cache-control') };
}

const windowOf = (start: number, end: number) =>
  JSON.stringify({ start: new Date(start).toISOString(), end: new Date(end).toISOString(), segmentSeconds: 10 });

describe('GET /api/timeshift', () => {
  it('gives the window of window.json and what played in it, with the track already playing at its start', async () => {
    const start = NOW - 2 * HOUR + 60_000;
    const end = NOW - 5_000;
    const { body, cache } = await answer(await server(windowOf(start, end)));
    expect(body.hours).toBe(4);
    expect(body.start).toBe(new Date(start).toISOString());
    expect(body.end).toBe(new Date(end).toISOString());
    // The track already playing when the window starts, then every one that started in it.
    const before = Math.floor((start - 1) / ROTATION_MS) * ROTATION_MS;
    expect(body.played.map((row) => Date.parse(row.at))).toEqual([before, ...turnsIn(start, end)]);
    expect(body.played.length).toBeGreaterThan(30);
    for (const row of body.played) {
      expect(row.artist).not.toBe('');
      expect(row.title).not.toBe('');
    }
    // Public, a few seconds: every listener behind the edge asks the same thing.
    expect(cache).toBe('public, max-age=5');
  });

  it('names what the radio recorded as played (the now-playing channel), bounded to the window', async () => {
    const start = NOW - HOUR;
    const end = NOW;
    const base = await server(windowOf(start, end), {
      rows: [
        { at: new Date(start - 2 * HOUR).toISOString(), artist: 'Avant', title: 'Bien avant la fenêtre' },
        { at: new Date(start + 90_000).toISOString(), artist: 'Fréquence Témoin', title: 'Titre enregistré' },
        { at: new Date(end + 30_000).toISOString(), artist: 'Après', title: 'Après la fenêtre' },
      ],
    });
    const { body } = await answer(base);
    expect(body.played).toContainEqual({
      at: new Date(start + 90_000).toISOString(),
      artist: 'Fréquence Témoin',
      title: 'Titre enregistré',
    });
    expect(body.played.map((row) => row.artist)).not.toContain('Avant');
    expect(body.played.map((row) => row.artist)).not.toContain('Après');
  });

  it(`answers at most ${String(TIMESHIFT_PLAYED_MAX)} rows, the newest`, async () => {
    const start = NOW - 4 * HOUR;
    // A track every ten seconds for four hours: 1,440 rows.
    const rows = Array.from({ length: 1440 }, (_unused, index) => ({
      at: new Date(start + index * 10_000 + 1).toISOString(),
      artist: 'Boucle',
      title: `Morceau ${String(index)}`,
    }));
    const { body } = await answer(await server(windowOf(start, NOW), { rows }));
    expect(body.played).toHaveLength(TIMESHIFT_PLAYED_MAX);
    expect(body.played.at(-1)?.title).toBe('Morceau 1439');
  });

  it('gives no window and nothing played while nothing is recorded', async () => {
    expect((await answer(await server(null))).body).toEqual({ hours: 4, start: null, end: null, played: [] });
  });

  it('gives no window when the timeline is off, whatever the folder holds', async () => {
    expect((await answer(await server(windowOf(NOW - HOUR, NOW), { hours: 0 }))).body).toEqual({
      hours: 0,
      start: null,
      end: null,
      played: [],
    });
  });

  it.each([
    ['not JSON', '{"start":"2026-03-04T20:40:00.000Z",'],
    ['an array', '[]'],
    ['without its end', JSON.stringify({ start: new Date(NOW - HOUR).toISOString() })],
    ['with dates that are not ISO', JSON.stringify({ start: 'hier soir', end: 'maintenant' })],
    ['with a number for a date', JSON.stringify({ start: NOW - HOUR, end: NOW })],
    ['ending before it starts', windowOf(NOW, NOW - HOUR)],
    [
      'with a date of a thousand characters',
      JSON.stringify({ start: `2026-03-04T20:40:00${'0'.repeat(1000)}Z`, end: new Date(NOW).toISOString() }),
    ],
    [
      'of a megabyte',
      `{"start":"${new Date(NOW - HOUR).toISOString()}","end":"${new Date(NOW).toISOString()}","x":"${'x'.repeat(1024 * 1024)}"}`,
    ],
  ])('ignores a window.json %s: no window, nothing played', async (_kind, window) => {
    expect((await answer(await server(window))).body).toEqual({ hours: 4, start: null, end: null, played: [] });
  });
});
