import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { workspaceRoot } from '../settings/config';
import {
  MP3_CODECS,
  SKIP_TARGETS,
  mediaPlaylist,
  multivariantPlaylist,
  targetDuration,
  type WindowSegment,
} from './playlist';
import { readMediaPlaylist, readMultivariantPlaylist, type ReadSegment } from './testing/m3u8';

const SEGMENT_MS = 2000;
const EDGE = Date.UTC(2026, 2, 4, 21, 40);

/**
 * Segments on the grid of `segmentMs`, oldest first: `count` in a row ending at `end`, each of
 * `duration` seconds (a frame's length off the grid's), on the discontinuity sequence `epoch`.
 */
function run(count: number, end: number, epoch: number, { segmentMs = SEGMENT_MS, duration = 2.011 } = {}) {
  const last = Math.floor(end / segmentMs) - 1;
  return Array.from({ length: count }, (_unused, index): WindowSegment => {
    const sequence = last - count + 1 + index;
    return { sequence, start: sequence * segmentMs + 7, duration, bytes: 32_000, epoch };
  });
}

/** Ten segments, a gap of 30 s (the stream dropped), ten more: two epochs. */
const gapped: WindowSegment[] = [...run(10, EDGE - 50_000, 4), ...run(10, EDGE, 5)];
/** The slots of the grid missing between them. */
const missing = Array.from({ length: 15 }, (_unused, index) => (gapped[9]?.sequence ?? 0) + 1 + index);

describe('the media playlist of a window', () => {
  it('lists every segment with its sequence, length and name, on a sliding window', () => {
    const read = readMediaPlaylist(mediaPlaylist(gapped, 2));
    expect(read.mediaSequence).toBe(gapped[0]?.sequence);
    const recorded = read.segments.filter((segment) => !segment.gap);
    expect(recorded.map((segment) => segment.uri)).toEqual(gapped.map((segment) => `${String(segment.sequence)}.mp3`));
    expect(recorded.map((segment) => segment.duration)).toEqual(gapped.map(() => 2.011));
    // A live window: no playlist type, no end.
    expect(read.closing).toEqual([]);
    // Delta updates need version 9.
    expect(read.version).toBe(9);
  });

  it('lists the slots of a gap as EXT-X-GAP: each segment’s media sequence number is its name', () => {
    const read = readMediaPlaylist(mediaPlaylist(gapped, 2));
    // HLS numbers a segment by its place: MEDIA-SEQUENCE, then one more each.
    for (const segment of read.segments) expect(segment.uri).toBe(`${String(segment.sequence)}.mp3`);
    expect(read.segments.filter((segment) => segment.gap).map((segment) => segment.sequence)).toEqual(missing);
    // A slot of the grid long, with no media.
    expect(read.segments.filter((segment) => segment.gap).every((segment) => segment.duration === 2)).toBe(true);
  });

  it('keeps each segment’s media sequence number when the segments before a gap leave the window', () => {
    const numbers = (window: readonly WindowSegment[]) =>
      new Map(readMediaPlaylist(mediaPlaylist(window, 2)).segments.map((segment) => [segment.uri, segment.sequence]));
    const before = numbers(gapped);
    const after = numbers(gapped.slice(10));
    expect(after.size).toBe(10);
    for (const [uri, sequence] of after) expect(before.get(uri)).toBe(sequence);
  });

  it('numbers the gaps: DISCONTINUITY-SEQUENCE of the first, a DISCONTINUITY where the epoch changes', () => {
    const read = readMediaPlaylist(mediaPlaylist(gapped, 2));
    expect(read.discontinuitySequence).toBe(4);
    expect(read.segments.filter((segment) => segment.discontinuity).map((segment) => segment.sequence)).toEqual([
      gapped[10]?.sequence,
    ]);
    const recorded = read.segments.filter((segment) => !segment.gap);
    expect(recorded.map((segment) => segment.epoch)).toEqual(gapped.map((segment) => segment.epoch));
  });

  it('dates the first segment and the first after each gap: the player counts the others', () => {
    const read = readMediaPlaylist(mediaPlaylist(gapped, 2));
    const dated = read.segments.filter((segment) => segment.programDateTime !== null);
    expect(dated.map((segment) => [segment.sequence, segment.programDateTime])).toEqual([
      [gapped[0]?.sequence, gapped[0]?.start],
      [gapped[10]?.sequence, gapped[10]?.start],
    ]);
    // The date is the grid's: sequence × segment length, to the millisecond written.
    expect(mediaPlaylist(gapped, 2)).toContain(
      `#EXT-X-PROGRAM-DATE-TIME:${new Date(gapped[0]?.start ?? 0).toISOString()}`,
    );
  });

  it('targets the longest segment rounded, never under the segment setting', () => {
    expect(readMediaPlaylist(mediaPlaylist(gapped, 2)).targetDuration).toBe(2);
    const long = [...run(3, EDGE, 0, { duration: 2.4 }), ...run(1, EDGE + 2000, 0, { duration: 2.6 })];
    expect(readMediaPlaylist(mediaPlaylist(long, 2)).targetDuration).toBe(3);
    expect(targetDuration(long, 2)).toBe(3);
    // Shorter segments (a drop cut the last one): the setting's length still.
    expect(readMediaPlaylist(mediaPlaylist(run(3, EDGE, 0, { duration: 0.7 }), 2)).targetDuration).toBe(2);
    const tens = run(4, EDGE, 0, { segmentMs: 10_000, duration: 10.004 });
    expect(readMediaPlaylist(mediaPlaylist(tens, 10)).targetDuration).toBe(10);
  });

  it(`lets players skip what is more than ${String(SKIP_TARGETS)} target durations behind the edge`, () => {
    expect(readMediaPlaylist(mediaPlaylist(gapped, 2)).canSkipUntil).toBe(12);
    const long = run(3, EDGE, 0, { duration: 2.6 });
    expect(readMediaPlaylist(mediaPlaylist(long, 2)).canSkipUntil).toBe(18);
    expect(readMediaPlaylist(mediaPlaylist(run(3, EDGE, 0, { segmentMs: 10_000 }), 10)).canSkipUntil).toBe(60);
  });

  it('refuses a window without a segment', () => {
    expect(() => mediaPlaylist([], 2)).toThrow('playlist sans segment');
  });
});

describe('the delta update (EXT-X-SKIP), what a player fetches again and again', () => {
  /** Four hours of 10-second segments, a gap an hour ago. */
  const hours = [
    ...run(1080, EDGE - 3600_000 - 30_000, 0, { segmentMs: 10_000, duration: 10.005 }),
    ...run(360, EDGE, 1, { segmentMs: 10_000, duration: 10.005 }),
  ];

  it('skips the segments more than CAN-SKIP-UNTIL behind the edge, and says how many', () => {
    const full = readMediaPlaylist(mediaPlaylist(hours, 10));
    const delta = readMediaPlaylist(mediaPlaylist(hours, 10, { delta: true }));
    expect(delta.skipped).toBeGreaterThan(0);
    // The same header: the sequence of the whole window, and of its gaps.
    expect(delta.mediaSequence).toBe(full.mediaSequence);
    expect(delta.discontinuitySequence).toBe(full.discontinuitySequence);
    expect(delta.canSkipUntil).toBe(60);
    // MEDIA-SEQUENCE + SKIPPED-SEGMENTS is the first segment listed.
    expect(delta.segments[0]?.sequence).toBe(delta.mediaSequence + delta.skipped);
    expect(delta.segments[0]?.uri).toBe(`${String(delta.mediaSequence + delta.skipped)}.mp3`);
    // What is listed is the full playlist's end, the same lines; the first listed is dated again,
    // so that the player places it (its discontinuity sequence the player knows from the skipped
    // segments it has: hls.js carries it over when it merges the update).
    const lines = ({ sequence, uri, duration, discontinuity }: ReadSegment) => ({
      sequence,
      uri,
      duration,
      discontinuity,
    });
    expect(delta.segments.map(lines)).toEqual(full.segments.slice(delta.skipped).map(lines));
    const firstListed = hours.find((segment) => segment.sequence === delta.segments[0]?.sequence);
    expect(delta.segments[0]?.programDateTime).toBe(firstListed?.start);
    expect(delta.segments.slice(1).every((segment) => segment.programDateTime === null)).toBe(true);
    // Enough to cover CAN-SKIP-UNTIL from the edge, and no more than one segment over it.
    const listed = delta.segments.reduce((sum, segment) => sum + segment.duration, 0);
    expect(listed).toBeGreaterThan(60);
    expect(listed - (delta.segments[0]?.duration ?? 0)).toBeLessThanOrEqual(60);
  });

  it('is a few lines where the full playlist has thousands', () => {
    const full = mediaPlaylist(hours, 10);
    const delta = mediaPlaylist(hours, 10, { delta: true });
    expect(full.split('\n').length).toBeGreaterThan(2 * 1440);
    expect(delta.split('\n').length).toBeLessThan(30);
    expect(delta.length * 50).toBeLessThan(full.length);
  });

  it('marks a gap that falls among the segments listed, and the one right at the skip', () => {
    // A gap 40 s before the edge: inside what the delta lists.
    const recent = [
      ...run(100, EDGE - 40_000 - 20_000, 2, { segmentMs: 10_000 }),
      ...run(4, EDGE, 3, { segmentMs: 10_000 }),
    ];
    const delta = readMediaPlaylist(mediaPlaylist(recent, 10, { delta: true }));
    const after = delta.segments.find((segment) => segment.discontinuity);
    expect(after?.sequence).toBe(recent[100]?.sequence);
    expect(after?.programDateTime).toBe(recent[100]?.start);
    expect(after?.epoch).toBe(3);
    expect(delta.segments[0]?.epoch).toBe(2);
  });

  it('skips nothing while the window is shorter than CAN-SKIP-UNTIL', () => {
    const short = run(5, EDGE, 0);
    expect(mediaPlaylist(short, 2, { delta: true })).toBe(mediaPlaylist(short, 2));
    expect(readMediaPlaylist(mediaPlaylist(short, 2, { delta: true })).skipped).toBe(0);
  });
});

describe('the multivariant playlist', () => {
  const variants = [
    { id: 'normale', label: 'Normale', bitrate: 128 },
    { id: 'econome', label: 'Économe « léger »', bitrate: 48 },
    { id: 'piege', label: 'Un "nom"\r\n#EXT-X-ENDLIST', bitrate: 96.5 },
  ];

  it('names one variant per rendition, in order: bandwidth, MP3’s codec, the French label', () => {
    const read = readMultivariantPlaylist(multivariantPlaylist(variants));
    expect(read).toEqual([
      { bandwidth: 128_000, codecs: MP3_CODECS, name: 'Normale', uri: 'normale/index.m3u8' },
      { bandwidth: 48_000, codecs: MP3_CODECS, name: 'Économe « léger »', uri: 'econome/index.m3u8' },
      // Quotes and line breaks taken out: a label cannot end the attribute nor add a line.
      { bandwidth: 96_500, codecs: MP3_CODECS, name: 'Un nom#EXT-X-ENDLIST', uri: 'piege/index.m3u8' },
    ]);
    expect(MP3_CODECS).toBe('mp4a.40.34');
    expect(multivariantPlaylist(variants).split('\n').slice(0, 2)).toEqual(['#EXTM3U', '#EXT-X-INDEPENDENT-SEGMENTS']);
  });
});

/**
 * The player's own parser: hls.js/light (mf-player's dependency), in a Node process of its own
 * (it ships ES modules, which jest's module system does not load here), given the playlists.
 */
const HLS_READER = `
import { M3U8Parser } from 'hls.js/light';
const { full, delta } = JSON.parse(process.env.PLAYLISTS);
const read = (text) => {
  const details = M3U8Parser.parseLevelPlaylist(text, 'https://radio.example.org/direct/normale/index.m3u8', 0, 'main', 0, null);
  const fragments = details.fragments.filter((fragment) => fragment !== null);
  return {
    live: details.live,
    startSN: details.startSN,
    endSN: details.endSN,
    skipped: details.skippedSegments,
    canSkipUntil: details.canSkipUntil,
    target: details.targetduration,
    fragments: fragments.map((fragment) => ({ sn: fragment.sn, cc: fragment.cc, gap: fragment.gap === true, date: fragment.programDateTime, url: fragment.url })),
  };
};
process.stdout.write(JSON.stringify({ full: read(full), delta: read(delta) }));
`;

interface HlsRead {
  live: boolean;
  startSN: number;
  endSN: number;
  skipped: number;
  canSkipUntil: number;
  target: number;
  fragments: { sn: number; cc: number; gap: boolean; date: number; url: string }[];
}

describe('the playlists as hls.js reads them', () => {
  it('places every segment on the wall clock, numbers it by its name, counts the gaps, reads the delta’s skip', async () => {
    // Forty segments, 20 s without (ten slots), twenty more.
    const window = [...run(40, EDGE - 60_000, 6), ...run(20, EDGE, 7)];
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', HLS_READER], {
      cwd: join(workspaceRoot, 'mf-player'),
      env: {
        ...process.env,
        PLAYLISTS: JSON.stringify({ full: mediaPlaylist(window, 2), delta: mediaPlaylist(window, 2, { delta: true }) }),
      },
    });
    const { full, delta } = JSON.parse(stdout) as { full: HlsRead; delta: HlsRead };
    expect(full).toMatchObject({ live: true, skipped: 0, target: 2, canSkipUntil: 12 });
    expect(full.startSN).toBe(window[0]?.sequence);
    expect(full.endSN).toBe(window.at(-1)?.sequence);
    const bySequence = new Map(window.map((segment) => [segment.sequence, segment]));
    // Each segment at its own start: dated on the first and after the gap, counted by the lengths
    // listed in between; the gap's slots not to be fetched.
    let previous: { date: number; duration: number } | null = null;
    for (const fragment of full.fragments) {
      const segment = bySequence.get(fragment.sn);
      expect(fragment.url).toBe(`https://radio.example.org/direct/normale/${String(fragment.sn)}.mp3`);
      expect(fragment.gap).toBe(segment === undefined);
      expect(fragment.cc).toBe(segment?.epoch ?? 6);
      const expected: number =
        previous === null || segment === window[40] ? (segment?.start ?? 0) : previous.date + previous.duration * 1000;
      expect(fragment.date).toBeCloseTo(expected, 0);
      previous = { date: expected, duration: segment?.duration ?? 2 };
    }
    expect(full.fragments.filter((fragment) => fragment.gap)).toHaveLength(10);
    const skipped = delta.skipped;
    expect(skipped).toBeGreaterThan(0);
    expect(delta.startSN).toBe(window[0]?.sequence);
    expect(delta.fragments.map((fragment) => fragment.sn)).toEqual(
      full.fragments.slice(skipped).map((fragment) => fragment.sn),
    );
    expect(delta.fragments[0]?.date).toBe(bySequence.get(delta.fragments[0]?.sn ?? 0)?.start);
  });
});

describe('what a listener’s playlists cost (docs/timeshift.md, « Playlists »)', () => {
  /** 4 hours of 10-second segments of the demo's frames (576 samples at 22.05 kHz), one epoch, ending at EDGE. */
  function fourHours(): WindowSegment[] {
    const frameMs = (576 / 22_050) * 1000;
    const count = 1440;
    const last = Math.floor(EDGE / 10_000) - 1;
    const segments: WindowSegment[] = [];
    let at = (last - count + 1) * 10_000;
    for (let sequence = last - count + 1; sequence <= last; sequence += 1) {
      const start = at;
      let frames = 0;
      while (at < (sequence + 1) * 10_000) {
        at += frameMs;
        frames += 1;
      }
      segments.push({
        sequence,
        start: Math.round(start),
        duration: (frames * frameMs) / 1000,
        bytes: 160_000,
        epoch: 0,
      });
    }
    return segments;
  }

  it('is the table the doc gives: measured again here', () => {
    const window = fourHours();
    const sizes = (text: string) => {
      const bytes = Buffer.from(text);
      return [
        bytes.length,
        // nginx's gzip at its default level; the server's brotli (app.ts) under npm start.
        gzipSync(bytes, { level: 1 }).length,
        brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }).length,
      ];
    };
    const full = sizes(mediaPlaylist(window, 10));
    const delta = sizes(mediaPlaylist(window, 10, { delta: true }));
    const measured = {
      'the whole playlist, once, when it starts': full,
      'a delta update': delta,
      'a minute behind the edge: 6 delta updates': delta.map((each) => each * 6),
      'the first minute: the whole playlist, then 5 delta updates': full.map(
        (each, index) => each + (delta[index] ?? 0) * 5,
      ),
      'a minute without delta updates: the whole playlist 6 times': full.map((each) => each * 6),
    };
    const doc = readFileSync(join(workspaceRoot, 'docs', 'timeshift.md'), 'utf8');
    const written = Object.fromEntries(
      Object.keys(measured).map((row) => {
        const line = doc.split('\n').find((each) => each.startsWith(`| ${row} |`)) ?? '';
        return [
          row,
          line
            .split('|')
            .slice(2, 5)
            .map((cell) => Number(cell.trim().replace(/,/g, ''))),
        ];
      }),
    );
    expect(written).toEqual(measured);
    expect(readMediaPlaylist(mediaPlaylist(window, 10)).segments).toHaveLength(1440);
  });
});
