import { mkdtempSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { figuresFiles } from './files';
import { minuteOfDay, nextParisMidnight, parisDay, parisDayStart } from './paris';
import { textCell } from './report';
import { createFigures } from './figures';
import { memoryTally } from './tally';

// The bounds of the beacons (docs/figures.md, « The beacon »). The figures on disk (« What is kept »): 25 months and no more, a damaged or
// hostile file read as an empty day; the days are Paris's, 23 or 25 hours when the clocks change.

describe('the figures’ files', () => {
  it('are removed past 25 months, the rest kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chiffres-'));
    const files = figuresFiles(dir);
    for (const day of ['2024-09-30', '2024-10-01', '2025-06-15', '2026-11-25']) await files.write(day, { visitors: 7 });
    expect((await files.prune('2026-11-26')).sort()).toEqual(['2024-09-30']);
    expect(readdirSync(join(dir, '2024'))).toEqual(['2024-10-01.json']);
    expect(await files.read('2024-10-01')).toEqual({ visitors: 7 });
    expect(await files.read('2024-09-30')).toEqual({});
  });

  it('read a damaged or hostile day as empty, and leave out what is not a count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chiffres-'));
    const files = figuresFiles(dir);
    mkdirSync(join(dir, '2026'));
    writeFileSync(join(dir, '2026', '2026-11-01.json'), '{"day":"2026-11-01","fields":');
    writeFileSync(join(dir, '2026', '2026-11-02.json'), JSON.stringify({ day: '2026-11-03', fields: { visitors: 5 } }));
    writeFileSync(
      join(dir, '2026', '2026-11-04.json'),
      JSON.stringify({
        day: '2026-11-04',
        fields: { visitors: 5, '<img>': 3, 'play:x': -1, 'plays:1': 2.5, 'reach:x:25': 9 },
      }),
    );
    expect(await files.read('2026-11-01')).toEqual({});
    expect(await files.read('2026-11-02')).toEqual({});
    expect(await files.read('2026-11-04')).toEqual({ visitors: 5, 'reach:x:25': 9 });
    expect(await files.read('../../etc/passwd')).toEqual({});
  });
});

describe('the days of Paris', () => {
  it('end at midnight in Paris, summer and winter, and last 23 or 25 hours when the clocks change', () => {
    expect(new Date(nextParisMidnight(Date.UTC(2026, 10, 25, 19))).toISOString()).toBe('2026-11-25T23:00:00.000Z');
    expect(new Date(nextParisMidnight(Date.UTC(2026, 6, 14, 12))).toISOString()).toBe('2026-07-14T22:00:00.000Z');
    expect(parisDay(Date.UTC(2026, 10, 25, 23, 0, 30))).toBe('2026-11-26');
    // 29 March 2026: 23 hours; 25 October 2026: 25 hours.
    expect((parisDayStart('2026-03-30') - parisDayStart('2026-03-29')) / 3600_000).toBe(23);
    expect((parisDayStart('2026-10-26') - parisDayStart('2026-10-25')) / 3600_000).toBe(25);
    expect(minuteOfDay(Date.UTC(2026, 9, 25, 22, 59))).toBe(24 * 60 + 59);
  });
});

describe('a CSV cell', () => {
  it('is quoted when it holds a separator or a quote, and never a formula', () => {
    expect(textCell('Axonberg')).toBe('Axonberg');
    expect(textCell('Dub; et "roots"')).toBe('"Dub; et ""roots"""');
    expect(textCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(textCell('-2+3')).toBe("'-2+3");
  });
});

describe('the bounds of one address and one visitor', () => {
  const make = (clock: () => number) =>
    createFigures({
      tally: memoryTally(clock),
      files: figuresFiles(mkdtempSync(join(tmpdir(), 'chiffres-'))),
      clock,
      sources: {},
      onAir: () => Promise.resolve(null),
      episodeExists: () => Promise.resolve(true),
      showListeners: () => false,
    });
  const T0 = Date.UTC(2026, 10, 25, 7);

  it('count at most 200 visitors from one address, and 100 new deeds from one visitor, a day', async () => {
    const figures = make(() => T0);
    for (let one = 0; one < 300; one += 1) {
      await figures.beacon(
        { address: '192.0.2.1', userAgent: `Faux/${String(one)}`, objects: false },
        { kind: 'live' },
      );
    }
    const visitor = { address: '192.0.2.2', userAgent: 'Faux/1', objects: false };
    for (let second = 10; second <= 5000; second += 10) {
      await figures.beacon(visitor, { kind: 'replay', episode: 'axonberg-7', second });
    }
    const day = await figures.day('2026-11-25');
    expect(day.visitors).toBe(201);
    expect(day['listeners:site']).toBe(200);
    const moments = Object.entries(day).filter(([name]) => name.startsWith('moment:'));
    expect(moments.length).toBeLessThan(100);
    expect(day['play:axonberg-7']).toBe(1);
  });

  it('keep a listener of the live present all day, whatever the bounds', async () => {
    let now = T0;
    const figures = make(() => now);
    const listener = { address: '198.51.100.9', userAgent: 'Bureau/1', objects: false };
    for (let beacon = 0; beacon < 330; beacon += 1) {
      await figures.beacon(listener, { kind: 'live' });
      now += 120_000;
    }
    now -= 60_000;
    expect((await figures.sample())?.sources.player).toBe(1);
  });
});
