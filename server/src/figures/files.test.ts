import { mkdtempSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { figuresFiles } from './files';
import { minuteOfDay, nextParisMidnight, parisDay, parisDayStart } from './paris';
import { textCell } from './report';

// The figures on disk (docs/figures.md, « What is kept »): 25 months and no more, a damaged or
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
