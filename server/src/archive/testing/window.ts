import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAKE_FRAME_SIZE } from '../../api/testing/fixtures';
import { packedAudioTag } from '../../timeshift/packed';
import { INDEX_FILE } from '../../timeshift/window';

/** The fake frames' playing time: 576 samples at 22.05 kHz (server/src/api/testing/fixtures.ts, fakeMp3). */
export const FRAME_MS = (576 / 22050) * 1000;

/** A frame of the fake 64 kb/s mount whose body is `mark` (its number in the live, mod 251): recognisable. */
export function markedFrame(mark: number): Buffer {
  const frame = Buffer.alloc(FAKE_FRAME_SIZE, mark % 251);
  frame.set([0xff, 0xf3, 0x80, 0xc4], 0);
  return frame;
}

export interface LiveRun {
  /** The connection's first frame's instant, and its last instant (exclusive), in ms. */
  from: number;
  to: number;
}

export interface WrittenWindow {
  /** Every frame kept in a segment: its instant and its mark, in order. */
  frames: { at: number; mark: number }[];
  segments: { sequence: number; start: number; duration: number; bytes: number; epoch: number }[];
}

/**
 * A rendition's window folder as the recorder writes it (docs/timeshift.md, « Segments », « The
 * grid and the names »): each run of the live (a connection) cut into segments on the grid of
 * `segmentMs`, the first slot of a run skipped unless the run starts at its beginning, each segment
 * a packed-audio tag then whole frames, and its index; a new run is a new epoch.
 */
export function writeWindow(dir: string, runs: readonly LiveRun[], segmentMs = 10_000): WrittenWindow {
  mkdirSync(dir, { recursive: true });
  const written: WrittenWindow = { frames: [], segments: [] };
  let mark = 0;
  runs.forEach((run, epoch) => {
    const groups = new Map<number, { start: number; frames: Buffer[]; marks: { at: number; mark: number }[] }>();
    for (let at = run.from; at < run.to; at += FRAME_MS) {
      mark += 1;
      const sequence = Math.floor(at / segmentMs);
      let group = groups.get(sequence);
      if (group === undefined) {
        if (groups.size === 0 && at - sequence * segmentMs >= FRAME_MS) continue;
        group = { start: at, frames: [], marks: [] };
        groups.set(sequence, group);
      }
      group.frames.push(markedFrame(mark));
      group.marks.push({ at, mark: mark % 251 });
    }
    for (const [sequence, group] of groups) {
      const data = Buffer.concat([packedAudioTag(group.start), ...group.frames]);
      writeFileSync(join(dir, `${String(sequence)}.mp3`), data);
      written.segments.push({
        sequence,
        start: Math.round(group.start),
        duration: (group.frames.length * FRAME_MS) / 1000,
        bytes: data.length,
        epoch,
      });
      written.frames.push(...group.marks);
    }
  });
  writeFileSync(join(dir, INDEX_FILE), JSON.stringify({ version: 1, segments: written.segments }));
  return written;
}
