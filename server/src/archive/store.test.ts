import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeChoices } from './choices';
import { RECORD_VERSION, type ArchiveRecord } from './record';
import { keepBounds, overBounds, readRecords } from './store';

const DAY = 24 * 3600_000;
const NOW = Date.UTC(2026, 10, 28, 12);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'archives-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** An archive `daysAgo` old of `mb` MB, written with its files. */
function archive(residence: string, daysAgo: number, mb: number, published = true): ArchiveRecord {
  const start = NOW - daysAgo * DAY;
  const id = `${residence}-2026-01-01-20h00`;
  const record: ArchiveRecord = {
    version: RECORD_VERSION,
    id,
    residence,
    title: 'Titre',
    artist: 'Artiste',
    slot: { start: new Date(start).toISOString(), end: new Date(start + 7200_000).toISOString() },
    audio: { start: new Date(start).toISOString(), end: new Date(start + 7200_000).toISOString() },
    seconds: 7200,
    frames: 100,
    bytes: mb * 1e6,
    gaps: [],
    truncated: null,
    chapters: [],
    published,
    createdAt: new Date(start + 7200_000).toISOString(),
  };
  writeFileSync(join(dir, `${id}.json`), JSON.stringify(record));
  writeFileSync(join(dir, `${id}.mp3`), 'mp3');
  writeFileSync(join(dir, `${id}.m3u8`), '#EXTM3U');
  return record;
}

const ids = (records: readonly ArchiveRecord[] | null) => records?.map((record) => record.residence);
const bounds = { keepMs: 90 * DAY, maxBytes: 100e6 };

describe('the archives’ bounds', () => {
  it('lets an archive go once its slot ended more than the days kept ago', () => {
    const records = [archive('vieille', 91, 1), archive('recente', 89, 1)];
    expect(ids(overBounds(records, bounds, NOW))).toEqual(['vieille']);
  });

  it('over the bytes, takes the oldest unpublished first, then the oldest', () => {
    const records = [archive('a', 10, 30), archive('b', 9, 30, false), archive('c', 8, 30), archive('d', 7, 30, false)];
    // 120 MB for 100: one goes, the oldest unpublished.
    expect(ids(overBounds(records, bounds, NOW))).toEqual(['b']);
    // With 50 MB coming: both unpublished, then the oldest published.
    expect(ids(overBounds(records, bounds, NOW, 50e6))).toEqual(['b', 'd', 'a']);
    // An archive bigger than the bound: no room whatever goes.
    expect(overBounds(records, bounds, NOW, 101e6)).toBeNull();
  });

  it('removes what must go from the disk, record and files, and says whether there is room', async () => {
    archive('a', 100, 10);
    archive('b', 9, 60, false);
    archive('c', 8, 60);
    expect(await keepBounds(dir, bounds, NOW, 10e6)).toEqual({
      removed: ['a-2026-01-01-20h00', 'b-2026-01-01-20h00'],
      room: true,
    });
    expect(readdirSync(dir).sort()).toEqual([
      'c-2026-01-01-20h00.json',
      'c-2026-01-01-20h00.m3u8',
      'c-2026-01-01-20h00.mp3',
    ]);
    expect(await keepBounds(dir, bounds, NOW, 200e6)).toEqual({ removed: [], room: false });
    expect(readdirSync(dir)).toHaveLength(3);
  });

  it('reads every record back, oldest first, and leaves aside with a warning one that is not a record', async () => {
    archive('b', 2, 1);
    archive('a', 3, 1);
    writeFileSync(join(dir, 'x-2026-01-01-20h00.json'), '{"version":1,"id":"<script>"}');
    writeFileSync(join(dir, 'pas-du-json.json'), 'nope');
    const warnings: string[] = [];
    const records = await readRecords(dir, { warn: (message) => warnings.push(message) });
    expect(ids(records)).toEqual(['a', 'b']);
    expect(warnings.sort()).toEqual([
      expect.stringMatching(/^archives : pas-du-json\.json ignoré \(/) as unknown,
      expect.stringMatching(/^archives : x-2026-01-01-20h00\.json ignoré \(/) as unknown,
    ]);
    expect(await readRecords(join(dir, 'absent'))).toEqual([]);
  });

  it('does not take the residences’ choices, kept beside the records, for a record: no warning', async () => {
    archive('a', 3, 1);
    await writeChoices(dir, { a: { keep: true, publish: 'now' } });
    const warnings: string[] = [];
    expect(ids(await readRecords(dir, { warn: (message) => warnings.push(message) }))).toEqual(['a']);
    expect(warnings).toEqual([]);
  });
});
