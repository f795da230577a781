import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMp3, readFrameHeader } from '../timeshift/mp3';
import { readId3 } from './id3';
import { makeArchive, type ArchiveContext, type ArchiveRequest } from './make';
import { recordSchema, type ArchiveRecord } from './record';
import { FRAME_MS, markedFrame, writeWindow } from './testing/window';
import * as v from 'valibot';

const MIN = 60_000;
/** A Tuesday, 20:00 in Paris. */
const SLOT = Date.UTC(2026, 10, 24, 19);

let root: string;
let windowDir: string;
let dir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'archive-'));
  windowDir = join(root, 'direct', 'normale');
  dir = join(root, 'archives');
  mkdirSync(dir);
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function context(overrides: Partial<ArchiveContext> = {}): ArchiveContext {
  return {
    windowDir,
    dir,
    keepMs: 4 * 3600_000,
    now: () => SLOT + 10 * MIN,
    reserveBytes: 0,
    freeBytes: () => Promise.resolve(1e12),
    ...overrides,
  };
}

function request(overrides: Partial<ArchiveRequest> = {}): ArchiveRequest {
  return {
    id: 'axonberg-2026-11-24-20h00',
    residence: 'axonberg',
    start: SLOT,
    end: SLOT + 5 * MIN,
    title: 'Synapses du 24 novembre',
    artist: 'Axonberg',
    album: 'Synapses',
    tracks: [],
    published: true,
    ...overrides,
  };
}

/** The archive written, its record checked against its schema. */
async function written(
  req = request(),
  ctx = context(),
): Promise<{ record: ArchiveRecord; mp3: Buffer; m3u8: string }> {
  const outcome = await makeArchive(req, ctx);
  if (outcome.kind !== 'written') throw new Error(`${outcome.kind}: ${outcome.reason}`);
  const record = v.parse(recordSchema, JSON.parse(readFileSync(join(dir, `${req.id}.json`), 'utf8')));
  expect(record).toEqual(outcome.record);
  return {
    record,
    mp3: readFileSync(join(dir, `${req.id}.mp3`)),
    m3u8: readFileSync(join(dir, `${req.id}.m3u8`), 'utf8'),
  };
}

/** The MP3 read frame by frame after its tag: every byte a frame, each frame's mark in order. */
function framesOf(mp3: Buffer): number[] {
  const tag = readId3(mp3);
  if (tag === null) throw new Error('pas d’étiquette');
  const marks: number[] = [];
  let at = tag.size;
  while (at < mp3.length) {
    const header = readFrameHeader(mp3, at);
    if (header === null) throw new Error(`octet ${String(at)} : pas une trame`);
    const mark = mp3[at + 4] ?? 0;
    if (!mp3.subarray(at, at + header.size).equals(markedFrame(mark)))
      throw new Error(`octet ${String(at)} : trame changée`);
    marks.push(mark);
    at += header.size;
  }
  expect(at).toBe(mp3.length);
  return marks;
}

describe('makeArchive: a slot’s frames become one MP3', () => {
  it('keeps the frames of the slot as recorded, one ID3v2.4 tag at the head, within a frame a minute of the slot', async () => {
    const live = writeWindow(windowDir, [{ from: SLOT - 2 * MIN, to: SLOT + 7 * MIN }]);
    const { record, mp3 } = await written();
    const marks = framesOf(mp3);
    const expected = live.frames.filter(
      (frame) => frame.at + FRAME_MS / 2 >= SLOT && frame.at + FRAME_MS / 2 < SLOT + 5 * MIN,
    );
    expect(marks).toEqual(expected.map((frame) => frame.mark));
    expect(record.frames).toBe(marks.length);
    expect(record.bytes).toBe(mp3.length);
    // Within one frame per minute of the slot's five minutes.
    expect(Math.abs(record.seconds - 300) * 1000).toBeLessThanOrEqual(5 * FRAME_MS);
    expect(Math.abs(parseMp3(mp3).seconds - 300) * 1000).toBeLessThanOrEqual(5 * FRAME_MS);
    expect(record.gaps).toEqual([]);
    expect(record.truncated).toBeNull();
    expect(Math.abs(Date.parse(record.audio.start) - SLOT)).toBeLessThan(FRAME_MS);
    expect(readdirSync(dir).sort()).toEqual([
      'axonberg-2026-11-24-20h00.json',
      'axonberg-2026-11-24-20h00.m3u8',
      'axonberg-2026-11-24-20h00.mp3',
    ]);
  });

  it('leaves a gap in the live out and says where (the source dropped for 30 s)', async () => {
    writeWindow(windowDir, [
      { from: SLOT - 2 * MIN, to: SLOT + 2 * MIN },
      { from: SLOT + 2.5 * MIN, to: SLOT + 7 * MIN },
    ]);
    const { record, mp3 } = await written();
    framesOf(mp3);
    expect(record.gaps).toHaveLength(1);
    const [gap] = record.gaps;
    expect(gap?.at).toBeCloseTo(120, 1);
    expect(Math.abs(Date.parse(gap?.from ?? '') - (SLOT + 2 * MIN))).toBeLessThan(FRAME_MS);
    expect(Math.abs(Date.parse(gap?.to ?? '') - (SLOT + 2.5 * MIN))).toBeLessThan(FRAME_MS);
    expect(gap?.seconds).toBeCloseTo(30, 1);
    expect(Math.abs(record.seconds - 270) * 1000).toBeLessThanOrEqual(5 * FRAME_MS);
  });

  it('writes the show’s tag: title, artist, album, date, length, and the tracks as chapters', async () => {
    writeWindow(windowDir, [
      { from: SLOT - 2 * MIN, to: SLOT + 2 * MIN },
      { from: SLOT + 2.5 * MIN, to: SLOT + 7 * MIN },
    ]);
    const tracks = [
      { at: SLOT - MIN, artist: 'Déjà là', title: 'Avant le début' },
      { at: SLOT + MIN, artist: 'Lumière Noire', title: 'Première' },
      // Started while the source was down: its chapter starts where the audio resumes.
      { at: SLOT + 2.2 * MIN, artist: 'Kiko', title: 'Dans le trou' },
      { at: SLOT + 4 * MIN, artist: 'Axonberg', title: 'Fin' },
      // After the slot's end: no chapter.
      { at: SLOT + 6 * MIN, artist: 'Plus tard', title: 'Hors créneau' },
    ];
    const { record, mp3 } = await written(request({ tracks }));
    expect(record.chapters.map((chapter) => [Math.round(chapter.start), chapter.title])).toEqual([
      [0, 'Avant le début'],
      [60, 'Première'],
      [120, 'Dans le trou'],
      [210, 'Fin'],
    ]);
    const tag = readId3(mp3);
    expect(tag?.texts).toEqual({
      TIT2: 'Synapses du 24 novembre',
      TPE1: 'Axonberg',
      TALB: 'Synapses',
      TDRC: '2026-11-24T19:00',
      TLEN: String(Math.round(record.seconds * 1000)),
    });
    expect(tag?.toc).toEqual(['ch0', 'ch1', 'ch2', 'ch3']);
    expect(
      tag?.chapters.map((chapter) => [
        chapter.title,
        Math.round(chapter.startMs / 1000),
        Math.round(chapter.endMs / 1000),
      ]),
    ).toEqual([
      ['Déjà là — Avant le début', 0, 60],
      ['Lumière Noire — Première', 60, 120],
      ['Kiko — Dans le trou', 120, 210],
      ['Axonberg — Fin', 210, Math.round(record.seconds)],
    ]);
  });

  it('keeps a hostile title as text: control characters out, cut, in the tag and the record', async () => {
    writeWindow(windowDir, [{ from: SLOT, to: SLOT + 5 * MIN }]);
    const title = `<script>alert(1)</script>\u0000\u0007 ${'é'.repeat(1000)}`;
    const { record, mp3 } = await written(request({ title, tracks: [{ at: SLOT, artist: 'A\nB', title: '"><img>' }] }));
    const tag = readId3(mp3);
    expect(tag?.texts.TIT2).toBe(record.title);
    expect(record.title.startsWith('<script>alert(1)</script> éé')).toBe(true);
    expect(Array.from(record.title)).toHaveLength(300);
    expect(tag?.chapters[0]?.title).toBe('A B — "><img>');
  });

  it('writes a VOD playlist of the same frames: byte ranges of the MP3 after its tag, ended', async () => {
    writeWindow(windowDir, [{ from: SLOT - MIN, to: SLOT + 6 * MIN }]);
    const { record, mp3, m3u8 } = await written();
    const lines = m3u8.trim().split('\n');
    expect(lines.slice(0, 6)).toEqual([
      '#EXTM3U',
      '#EXT-X-VERSION:4',
      '#EXT-X-TARGETDURATION:10',
      '#EXT-X-PLAYLIST-TYPE:VOD',
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-INDEPENDENT-SEGMENTS',
    ]);
    expect(lines.at(-1)).toBe('#EXT-X-ENDLIST');
    const ranges = [...m3u8.matchAll(/#EXTINF:([\d.]+),\n#EXT-X-BYTERANGE:(\d+)@(\d+)\n(.+)\n/g)].map((match) => ({
      seconds: Number(match[1]),
      length: Number(match[2]),
      offset: Number(match[3]),
      uri: match[4],
    }));
    // Whole frames of at most ten seconds: each but the last is within a frame of ten.
    expect(ranges.slice(0, -1).every((range) => range.seconds > 10 - FRAME_MS / 1000)).toBe(true);
    let at = readId3(mp3)?.size ?? 0;
    for (const range of ranges) {
      expect(range).toMatchObject({ offset: at, uri: 'axonberg-2026-11-24-20h00.mp3' });
      expect(readFrameHeader(mp3, range.offset)).not.toBeNull();
      expect(range.seconds).toBeLessThanOrEqual(10.001);
      at += range.length;
    }
    expect(at).toBe(mp3.length);
    expect(ranges.reduce((sum, range) => sum + range.seconds, 0)).toBeCloseTo(record.seconds, 1);
  });

  it('makes no archive of a slot without frames, and leaves nothing', async () => {
    writeWindow(windowDir, [{ from: SLOT - 30 * MIN, to: SLOT - 5 * MIN }]);
    expect(await makeArchive(request(), context())).toEqual({
      kind: 'empty',
      reason: 'aucune trame du direct pendant le créneau',
    });
    expect(await makeArchive(request(), context({ windowDir: join(root, 'nulle-part') }))).toMatchObject({
      kind: 'empty',
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps what the window still has of a show longer than it, and says so', async () => {
    // A three-hour slot, the window two hours: it starts an hour into the slot.
    const end = SLOT + 180 * MIN;
    writeWindow(windowDir, [{ from: SLOT + 60 * MIN, to: end + MIN }]);
    const { record } = await written(request({ end }), context({ keepMs: 2 * 3600_000, now: () => end + 30_000 }));
    expect(record.truncated?.missing).toBeCloseTo(3600, 0);
    expect(Math.abs(Date.parse(record.truncated?.from ?? '') - (SLOT + 60 * MIN))).toBeLessThan(FRAME_MS);
    expect(record.gaps).toEqual([]);
    expect(Math.abs(record.seconds - 7200)).toBeLessThan(1);
  });

  it('says nothing is missing when the live only started late within the window', async () => {
    writeWindow(windowDir, [{ from: SLOT + MIN, to: SLOT + 6 * MIN }]);
    const { record } = await written();
    expect(record.truncated).toBeNull();
    expect(Math.abs(record.seconds - 240)).toBeLessThan(1);
  });

  it('takes a segment pruned while the archive is read as a gap', async () => {
    const live = writeWindow(windowDir, [{ from: SLOT - MIN, to: SLOT + 6 * MIN }]);
    const gone = live.segments.find((segment) => segment.start >= SLOT + 2 * MIN);
    unlinkSync(join(windowDir, `${String(gone?.sequence)}.mp3`));
    const { record, mp3 } = await written();
    framesOf(mp3);
    expect(record.gaps).toHaveLength(1);
    expect(record.gaps[0]?.seconds).toBeCloseTo(10, 0);
  });

  it('refuses the archive when the disk lacks room, before writing, and leaves nothing', async () => {
    writeWindow(windowDir, [{ from: SLOT, to: SLOT + 5 * MIN }]);
    const outcome = await makeArchive(
      request(),
      context({ reserveBytes: 64 * 1024 * 1024, freeBytes: () => Promise.resolve(65 * 1024 * 1024) }),
    );
    expect(outcome).toEqual({ kind: 'refused', reason: 'disque plein : 3 Mo à écrire, 68 Mo libres' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses it when writing fails (a folder that is not one), and leaves the timeline as it was', async () => {
    writeWindow(windowDir, [{ from: SLOT, to: SLOT + 5 * MIN }]);
    const before = readdirSync(windowDir).sort();
    const outcome = await makeArchive(request(), context({ dir: join(root, 'absent') }));
    expect(outcome).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/ENOENT/) as unknown });
    expect(readdirSync(windowDir).sort()).toEqual(before);
  });
});
