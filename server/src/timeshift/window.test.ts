import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manualClock } from '../api/testing/fixtures';
import { DELTA_FILE, INDEX_FILE, PLAYLIST_FILE, RenditionWindow, type WindowOptions } from './window';
import { readMediaPlaylist } from './testing/m3u8';

const SEGMENT_MS = 2000;
/** The grid's slot of the manual clock's start. */
const START = Math.floor(Date.UTC(2026, 2, 4, 21) / SEGMENT_MS);

let dir: string;
let clock: ReturnType<typeof manualClock>;
let warnings: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fenetre-'));
  clock = manualClock(START * SEGMENT_MS);
  warnings = [];
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function open(options: Partial<WindowOptions> = {}): Promise<RenditionWindow> {
  return RenditionWindow.open({
    dir,
    segmentSeconds: 2,
    keepMs: 20_000,
    maxBytes: 1024 * 1024,
    now: clock.now,
    log: {
      warn: (message) => {
        warnings.push(message);
      },
    },
    ...options,
  });
}

/** A segment's bytes: recognisable by its sequence. */
const bytesOf = (sequence: number, size = 1000) => Buffer.alloc(size, sequence % 251);

/** Adds the segment of slot `sequence` (its start on the grid, 2 s long) as the recorder does, the clock at its end. */
async function record(window: RenditionWindow, sequence: number, size = 1000): Promise<boolean> {
  clock.advance(Math.max(0, (sequence + 1) * SEGMENT_MS - clock.now()));
  return window.add(bytesOf(sequence, size), sequence * SEGMENT_MS, 2, sequence);
}

const files = () => readdirSync(dir).sort();
const segmentFiles = () => files().filter((name) => name.endsWith('.mp3'));
const playlist = () => readMediaPlaylist(readFileSync(join(dir, PLAYLIST_FILE), 'utf8'));
const listed = () => playlist().segments.map((segment) => segment.uri);

describe('RenditionWindow: a rendition’s window on disk', () => {
  it('writes each segment, its index and both playlists, whole (no temporary file left)', async () => {
    const window = await open();
    for (let sequence = START; sequence < START + 5; sequence += 1) expect(await record(window, sequence)).toBe(true);
    expect(segmentFiles()).toEqual([0, 1, 2, 3, 4].map((index) => `${String(START + index)}.mp3`));
    expect(readFileSync(join(dir, `${String(START + 3)}.mp3`)).equals(bytesOf(START + 3))).toBe(true);
    expect(files()).toEqual([...segmentFiles(), DELTA_FILE, INDEX_FILE, PLAYLIST_FILE].sort());
    expect(listed()).toEqual(segmentFiles());
    expect(playlist().mediaSequence).toBe(START);
    expect(readMediaPlaylist(readFileSync(join(dir, DELTA_FILE), 'utf8')).segments).toHaveLength(5);
    // The index names each segment with its time, length, bytes and epoch.
    expect(JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8'))).toEqual({
      version: 1,
      segments: window.segments(),
    });
    expect(window.segments()[0]).toEqual({
      sequence: START,
      start: START * SEGMENT_MS,
      duration: 2,
      bytes: 1000,
      epoch: 0,
    });
    expect(window.last()?.sequence).toBe(START + 4);
  });

  it('drops what is older than the hours kept: out of the playlist, then off the disk', async () => {
    const window = await open({ keepMs: 10_000 });
    for (let sequence = START; sequence < START + 5; sequence += 1) await record(window, sequence);
    expect(segmentFiles()).toHaveLength(5);
    // At the end of the next segment, 10 s after the end of the fifth: the four before it go, out
    // of the playlist and off the disk; the fifth, ending right at the bound, stays.
    await record(window, START + 9);
    expect(window.segments().map((segment) => segment.sequence)).toEqual([START + 4, START + 9]);
    expect(listed()).toEqual(
      [START + 4, START + 5, START + 6, START + 7, START + 8, START + 9].map((sequence) => `${String(sequence)}.mp3`),
    );
    expect(segmentFiles()).toEqual([`${String(START + 4)}.mp3`, `${String(START + 9)}.mp3`]);
    expect(warnings).toEqual([]);
  });

  it('drops the oldest when the bytes kept would pass their bound', async () => {
    const window = await open({ maxBytes: 3500 });
    for (let sequence = START; sequence < START + 6; sequence += 1) await record(window, sequence);
    // Three segments of 1,000 bytes fit in 3,500.
    expect(window.segments().map((segment) => segment.sequence)).toEqual([START + 3, START + 4, START + 5]);
    expect(segmentFiles()).toEqual(listed());
    // A larger one pushes out as many as needed.
    await record(window, START + 6, 2600);
    expect(window.segments().map((segment) => segment.sequence)).toEqual([START + 6]);
    expect(segmentFiles()).toEqual([`${String(START + 6)}.mp3`]);
  });

  it('is read back at a restart (or a failover), the next segment after a discontinuity', async () => {
    const first = await open();
    for (let sequence = START; sequence < START + 4; sequence += 1) await record(first, sequence);
    const before = first.segments();

    const again = await open();
    expect(again.segments()).toEqual(before);
    expect(listed()).toEqual(before.map((segment) => `${String(segment.sequence)}.mp3`));
    // The new recorder starts a new epoch: the playlist shows the gap.
    await record(again, START + 7);
    const read = playlist();
    expect(read.segments.filter((segment) => segment.discontinuity).map((segment) => segment.uri)).toEqual([
      `${String(START + 7)}.mp3`,
    ]);
    expect(read.segments.at(-1)?.epoch).toBe(1);
    expect(read.segments.at(-1)?.programDateTime).toBe((START + 7) * SEGMENT_MS);
    // What the first recorder kept is still served, unchanged.
    expect(readFileSync(join(dir, `${String(START)}.mp3`)).equals(bytesOf(START))).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('prunes what expired while nobody recorded, when it is opened again', async () => {
    const first = await open({ keepMs: 10_000 });
    for (let sequence = START; sequence < START + 3; sequence += 1) await record(first, sequence);
    clock.advance(60_000);
    const again = await open({ keepMs: 10_000 });
    expect(again.segments()).toEqual([]);
    expect(segmentFiles()).toEqual([]);
    // An empty window has no playlist to serve.
    expect(existsSync(join(dir, PLAYLIST_FILE))).toBe(false);
    expect(existsSync(join(dir, DELTA_FILE))).toBe(false);
  });

  it('drops a segment not after the last one (a clock gone back, the same slot after a failover)', async () => {
    const window = await open();
    await record(window, START + 5);
    expect(await window.add(Buffer.from('autre'), (START + 5) * SEGMENT_MS, 2, START + 5)).toBe(false);
    expect(await window.add(Buffer.from('plus tôt'), (START + 2) * SEGMENT_MS, 2, START + 2)).toBe(false);
    expect(window.segments().map((segment) => segment.sequence)).toEqual([START + 5]);
    // The file served under that name never changes.
    expect(readFileSync(join(dir, `${String(START + 5)}.mp3`)).equals(bytesOf(START + 5))).toBe(true);
    expect(segmentFiles()).toEqual([`${String(START + 5)}.mp3`]);
  });

  it('logs a segment it could not write, and starts a new epoch with the next one', async () => {
    const window = await open();
    await record(window, START);
    await record(window, START + 1);
    // The folder gone, a file in its place: every write fails, as on a full disk.
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'pas un dossier');
    expect(await record(window, START + 2)).toBe(false);
    expect(warnings).toEqual([
      expect.stringMatching(new RegExp(`^direct différé : segment ${String(START + 2)} perdu \\(.*ENOTDIR`)),
    ]);
    expect(window.segments().map((segment) => segment.sequence)).toEqual([START, START + 1]);

    // The disk back: the next segment is kept after a gap (a discontinuity), not passed off as continuous.
    rmSync(dir);
    mkdirSync(dir);
    expect(await record(window, START + 3)).toBe(true);
    const read = playlist();
    expect(read.segments.map((segment) => [segment.uri, segment.gap, segment.discontinuity])).toEqual([
      [`${String(START)}.mp3`, false, false],
      [`${String(START + 1)}.mp3`, false, false],
      [`${String(START + 2)}.mp3`, true, false],
      [`${String(START + 3)}.mp3`, false, true],
    ]);
    expect(window.segments().map((segment) => segment.epoch)).toEqual([0, 0, 1]);
  });

  it('logs an index and playlists it could not write, keeps the segment, and writes them with the next', async () => {
    const window = await open();
    await record(window, START);
    // A folder where the index goes: the index cannot be renamed over it, the segments still can.
    rmSync(join(dir, INDEX_FILE));
    mkdirSync(join(dir, INDEX_FILE, 'occupé'), { recursive: true });
    expect(await record(window, START + 1)).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/^direct différé : playlist de .* non écrite \(/)]);
    expect(listed()).toEqual([`${String(START)}.mp3`]);
    expect(segmentFiles()).toEqual([`${String(START)}.mp3`, `${String(START + 1)}.mp3`]);
    expect(files().filter((name) => name.endsWith('.tmp'))).toEqual([]);
    rmSync(join(dir, INDEX_FILE), { recursive: true });
    await record(window, START + 2);
    expect(listed()).toEqual(segmentFiles());
    expect(listed()).toHaveLength(3);
  });
});

describe('RenditionWindow: an index that is not what the recorder writes', () => {
  /** Writes segments' files and an index by hand. */
  function prefill(index: string, names: readonly string[] = []): void {
    for (const name of names) writeFileSync(join(dir, name), 'octets');
    writeFileSync(join(dir, INDEX_FILE), index);
  }

  const segment = (sequence: number) => ({
    sequence,
    start: sequence * SEGMENT_MS,
    duration: 2,
    bytes: 6,
    epoch: 0,
  });

  it.each([
    ['not JSON', '{"version":1,"segments":[', /index de .* ignoré \(.*JSON/],
    ['of another shape', JSON.stringify({ version: 2, segments: [] }), /index de .* ignoré/],
    [
      'with a field of another kind',
      JSON.stringify({ version: 1, segments: [{ ...segment(START), bytes: '6' }] }),
      /ignoré/,
    ],
    [
      'with a field it does not know',
      JSON.stringify({ version: 1, segments: [{ ...segment(START), path: '/etc/passwd' }] }),
      /ignoré/,
    ],
    ['with a negative sequence', JSON.stringify({ version: 1, segments: [segment(-1)] }), /ignoré/],
    [
      'with a segment of an hour',
      JSON.stringify({ version: 1, segments: [{ ...segment(START), duration: 3600 }] }),
      /ignoré/,
    ],
  ])(
    'ignores an index %s with a warning, and cleans the folder of the segments it named',
    async (_kind, index, warning) => {
      prefill(index, [`${String(START)}.mp3`, `${String(START + 1)}.mp3`]);
      const window = await open();
      expect(window.segments()).toEqual([]);
      expect(warnings).toEqual([expect.stringMatching(warning)]);
      expect(warnings[0]).toMatch(/fenêtre reprise à vide$/);
      expect(segmentFiles()).toEqual([]);
      // Then records as on an empty folder.
      expect(await record(window, START + 3)).toBe(true);
      expect(listed()).toEqual([`${String(START + 3)}.mp3`]);
    },
  );

  it('ignores an index of a million segments (over its bytes) and one of 100,000 (over its count)', async () => {
    const many = (count: number) =>
      JSON.stringify({
        version: 1,
        segments: Array.from({ length: count }, (_unused, index) => segment(START - count + index)),
      });
    prefill(many(1_000_000));
    expect(readFileSync(join(dir, INDEX_FILE)).length).toBeGreaterThan(16 * 1024 * 1024);
    expect((await open()).segments()).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/index de .* ignoré \(index trop grand\)/)]);
    warnings = [];
    prefill(many(100_000));
    expect((await open()).segments()).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/index de .* ignoré/)]);
  });

  it('drops the segments whose file is gone, and removes the files and temporary files it does not name', async () => {
    const named = [segment(START), segment(START + 1), segment(START + 2)];
    prefill(JSON.stringify({ version: 1, segments: named }), [
      `${String(START)}.mp3`,
      `${String(START + 2)}.mp3`,
      // A crash between a segment and its index: a file the index does not name.
      `${String(START + 3)}.mp3`,
      `${String(START + 2)}.mp3.0a1b2c3d4e5f.tmp`,
      'index.json.0a1b2c3d4e5f.tmp',
    ]);
    const window = await open();
    expect(window.segments().map((each) => each.sequence)).toEqual([START, START + 2]);
    expect(warnings).toEqual([]);
    expect(files()).toEqual(
      [`${String(START)}.mp3`, `${String(START + 2)}.mp3`, DELTA_FILE, INDEX_FILE, PLAYLIST_FILE].sort(),
    );
    expect(listed()).toEqual([`${String(START)}.mp3`, `${String(START + 1)}.mp3`, `${String(START + 2)}.mp3`]);
    expect(playlist().segments.map((each) => each.gap)).toEqual([false, true, false]);
  });

  it('puts the segments of an index out of order back in order, each once', async () => {
    const names = [START, START + 1, START + 2].map((sequence) => `${String(sequence)}.mp3`);
    prefill(
      JSON.stringify({
        version: 1,
        segments: [segment(START + 2), segment(START), segment(START + 1), segment(START)],
      }),
      names,
    );
    const window = await open();
    expect(window.segments().map((each) => each.sequence)).toEqual([START, START + 1, START + 2]);
    expect(listed()).toEqual(names);
  });

  it('leaves alone the files of the folder that are not segments', async () => {
    prefill('pas du JSON', ['notes.txt', `${String(START)}.mp3`]);
    await open();
    expect(files()).toEqual([INDEX_FILE, 'notes.txt']);
  });
});

describe('RenditionWindow: the bounds that hold whatever the index or the source does', () => {
  const indexOf = (segments: readonly { sequence: number; start: number }[]) =>
    JSON.stringify({
      version: 1,
      segments: segments.map((each) => ({ ...each, duration: 2, bytes: 6, epoch: 0 })),
    });

  it.each([
    // Another LIVE_TIMESHIFT_SEGMENT_S (10 s before): every slot of the new grid between its names and
    // the new ones would be listed as a gap, hundreds of millions of them.
    ['on another grid', [{ sequence: Math.floor((START * SEGMENT_MS) / 10_000), start: START * SEGMENT_MS }]],
    // A hostile pair: slots 0 and START apart, both dated now.
    [
      'with a name that is not its start’s slot',
      [
        { sequence: 0, start: START * SEGMENT_MS },
        { sequence: START, start: START * SEGMENT_MS },
      ],
    ],
    // Next year: every new segment would be refused as not after it, for a year.
    ['dated next year', [{ sequence: START + 15_768_000, start: (START + 15_768_000) * SEGMENT_MS }]],
  ])('ignores an index %s, with a warning, and records on', async (_kind, segments) => {
    for (const each of segments) writeFileSync(join(dir, `${String(each.sequence)}.mp3`), 'octets');
    writeFileSync(join(dir, INDEX_FILE), indexOf(segments));
    const window = await open();
    expect(window.segments()).toEqual([]);
    expect(warnings).toEqual([
      expect.stringMatching(/index de .* ignoré \(segment \d+ hors de la grille ou de l’heure\)/),
    ]);
    expect(segmentFiles()).toEqual([]);
    expect(await record(window, START + 1)).toBe(true);
    expect(listed()).toEqual([`${String(START + 1)}.mp3`]);
  });

  it('keeps a segment dated up to a minute ahead of the clock (a server’s burst at connection)', async () => {
    const ahead = START + 20;
    writeFileSync(join(dir, `${String(ahead)}.mp3`), 'octets');
    writeFileSync(join(dir, INDEX_FILE), indexOf([{ sequence: ahead, start: ahead * SEGMENT_MS }]));
    expect((await open()).segments().map((each) => each.sequence)).toEqual([ahead]);
    expect(warnings).toEqual([]);
  });

  it('drops, when asked, what aged out while no segment came: a source down longer than the hours kept', async () => {
    const window = await open({ keepMs: 10_000 });
    for (let sequence = START; sequence < START + 4; sequence += 1) await record(window, sequence);
    expect(await window.expire()).toBe(false);
    // 15 s after the first started: the two that ended before 5 s are past the 10 s kept.
    clock.advance(7_000);
    expect(await window.expire()).toBe(true);
    expect(listed()).toEqual([`${String(START + 2)}.mp3`, `${String(START + 3)}.mp3`]);
    expect(segmentFiles()).toEqual(listed());
    clock.advance(60_000);
    expect(await window.expire()).toBe(true);
    expect(window.segments()).toEqual([]);
    // Nothing left to serve: no playlist naming files that are gone.
    expect(files()).toEqual([INDEX_FILE]);
  });

  it('makes one change at a time: segments added while old ones expire leave the playlist as the window', async () => {
    const window = await open({ keepMs: 10_000 });
    for (let sequence = START; sequence < START + 6; sequence += 1) await record(window, sequence);
    clock.advance(20_000);
    const sequences = Array.from({ length: 8 }, (_unused, index) => START + 16 + index);
    await Promise.all([
      ...sequences.map((sequence) => window.add(bytesOf(sequence), sequence * SEGMENT_MS, 2, sequence)),
      window.expire(),
      window.expire(),
    ]);
    expect(window.segments().map((each) => each.sequence)).toEqual(sequences);
    expect(listed()).toEqual(sequences.map((sequence) => `${String(sequence)}.mp3`));
    expect(JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8'))).toEqual({
      version: 1,
      segments: window.segments(),
    });
    expect(segmentFiles()).toEqual(listed());
  });
});
