import { configurePlayer } from '../player/config';
import { json, startLoopbackServer, text, type LoopbackServer } from '../testing/browser';
import { TRACK_TEXT_MAX } from '@collectif/shared/limits';
import { fetchWindow, PLAYED_MAX, readTimeshift, readWindowFile } from './window';

const at = (time: string) => Date.parse(`2026-11-25T${time}Z`);
const timeshift = {
  hours: 4,
  start: '2026-11-25T15:30:00.000Z',
  end: '2026-11-25T19:29:50.000Z',
  played: [
    { at: '2026-11-25T19:02:00.000Z', artist: 'Verglas', title: 'Froid Sec' },
    { at: '2026-11-25T15:28:00.000Z', artist: 'Avant la fenêtre', title: 'Dernier titre avant' },
  ],
};
const windowFile = { start: '2026-11-25T15:30:10.000Z', end: '2026-11-25T19:30:00.000Z', segmentSeconds: 10 };

let server: LoopbackServer;

beforeAll(async () => {
  server = await startLoopbackServer({});
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.routes.clear();
  configurePlayer({ apiBase: `${server.origin}/api` });
});

const playlist = () => `${server.origin}/direct/live.m3u8`;

describe('GET /api/timeshift, read', () => {
  it('gives the window and what played, oldest first', () => {
    expect(readTimeshift(timeshift)).toEqual({
      start: at('15:30:00'),
      end: at('19:29:50'),
      played: [
        { at: at('15:28:00'), artist: 'Avant la fenêtre', title: 'Dernier titre avant' },
        { at: at('19:02:00'), artist: 'Verglas', title: 'Froid Sec' },
      ],
    });
  });

  it('a radio that keeps no hours has no window', () => {
    expect(readTimeshift({ hours: 0, start: null, end: null, played: [] })).toEqual({
      start: null,
      end: null,
      played: [],
    });
  });

  it('refuses what is not a row and bounds what it keeps', () => {
    const hostile = readTimeshift({
      start: 'demain',
      end: '2026-11-25T19:29:50.000Z'.padEnd(100, 'Z'),
      played: [
        null,
        'Verglas',
        { at: 'pas une date', artist: 'A', title: 'B' },
        { at: '2026-11-25T19:00:00Z', artist: 42, title: { html: '<b>' } },
        { at: '2026-11-25T19:01:00Z', artist: `  ${'a'.repeat(5000)}`, title: '<img src=x onerror=alert(1)>' },
        ...Array.from({ length: PLAYED_MAX + 50 }, (_, index) => ({
          at: new Date(at('19:02:00') + index * 1000).toISOString(),
          artist: 'X',
          title: 'Y',
        })),
      ],
    });
    expect(hostile.start).toBeNull();
    expect(hostile.end).toBeNull();
    expect(hostile.played).toHaveLength(PLAYED_MAX);
    expect(
      readTimeshift({ played: [{ at: '2026-11-25T19:01:00Z', artist: `  ${'a'.repeat(5000)}`, title: '<b>' }] }).played,
    ).toEqual([{ at: at('19:01:00'), artist: 'a'.repeat(TRACK_TEXT_MAX), title: '<b>' }]);
    expect(
      readTimeshift({ played: [{ at: '2026-11-25T19:00:00Z', artist: 42, title: { html: '<b>' } }] }).played,
    ).toEqual([{ at: at('19:00:00'), artist: '', title: '' }]);
    for (const answer of [null, 'texte', [], 42, { played: 'non' }]) {
      expect(readTimeshift(answer)).toEqual({ start: null, end: null, played: [] });
    }
  });
});

describe('/direct/window.json, read', () => {
  it('gives the window and its segments’ length', () => {
    expect(readWindowFile(windowFile)).toEqual({ start: at('15:30:10'), end: at('19:30:00'), segmentSeconds: 10 });
  });

  it('is nothing when it is not that', () => {
    for (const file of [
      null,
      { ...windowFile, segmentSeconds: 0 },
      { ...windowFile, segmentSeconds: 3600 },
      { ...windowFile, segmentSeconds: '10' },
      { ...windowFile, start: windowFile.end, end: windowFile.start },
      { ...windowFile, end: 'bientôt' },
    ]) {
      expect(readWindowFile(file)).toBeNull();
    }
  });
});

describe('the window, fetched', () => {
  it('takes window.json’s window and the API’s rows, and how near the edge plays', async () => {
    server.routes.set('/api/timeshift', json(timeshift));
    server.routes.set('/direct/window.json', json(windowFile));
    expect(await fetchWindow(playlist())).toEqual({
      start: at('15:30:10'),
      end: at('19:30:00'),
      closest: 30_000,
      played: readTimeshift(timeshift).played,
    });
  });

  it('without window.json, the API’s window; without the API, window.json’s and no rows', async () => {
    server.routes.set('/api/timeshift', json(timeshift));
    expect(await fetchWindow(playlist())).toEqual({
      start: at('15:30:00'),
      end: at('19:29:50'),
      played: readTimeshift(timeshift).played,
    });
    server.routes.clear();
    server.routes.set('/direct/window.json', json(windowFile));
    server.routes.set('/api/timeshift', json({ error: 'upstream', message: 'Indisponible' }, 503));
    expect(await fetchWindow(playlist())).toEqual({ start: at('15:30:10'), end: at('19:30:00'), closest: 30_000 });
  });

  it('is null when neither names a window: turned off, an error page, garbage', async () => {
    server.routes.set('/api/timeshift', json({ hours: 0, start: null, end: null, played: [] }));
    expect(await fetchWindow(playlist())).toBeNull();
    server.routes.set('/api/timeshift', text('<!doctype html><h1>502</h1>', 200, 'text/html'));
    server.routes.set('/direct/window.json', text('{"start": '));
    expect(await fetchWindow(playlist())).toBeNull();
    // An answer past a megabyte is not read.
    server.routes.set('/direct/window.json', text(JSON.stringify({ ...windowFile, pad: 'x'.repeat(1_100_000) })));
    expect(await fetchWindow(playlist())).toBeNull();
  });
});
