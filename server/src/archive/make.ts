import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { readFrameHeader } from '../timeshift/mp3';
import { INDEX_FILE } from '../timeshift/window';
import { writeWhole } from '../files/whole';
import { showTag, tagText, MAX_CHAPTERS, type Id3Chapter } from './id3';
import {
  RECORD_VERSION,
  mp3Name,
  playlistName,
  recordName,
  type ArchiveChapter,
  type ArchiveGap,
  type ArchiveRecord,
} from './record';

/**
 * A live show kept (docs/archive.md): the recorder's frames of the slot, read from the timeline's
 * window as it is on disk (the recorder is never asked or waited for: a segment pruned while it is
 * read is a gap), written as one MP3 (the frames as recorded, the segments' ID3 tags left out, one
 * ID3v2.4 tag of the show at its head) and a VOD playlist of the same frames (byte ranges of the
 * MP3), then the record. Every file is written whole (a temporary name, then renamed); the record
 * last.
 */

/** Two frames further apart than this (or closer) are either side of a gap in the live. */
export const GAP_MS = 250;
/** The VOD playlist's segments: this long, in whole frames. */
export const ARCHIVE_SEGMENT_S = 10;
/** What the tag is reserved beyond its first estimate. */
const TAG_SLACK = 256;
/** Frames are written to disk in runs of about this many bytes. */
const WRITE_CHUNK = 1024 * 1024;

const indexSchema = v.object({
  segments: v.pipe(
    v.array(
      v.object({
        sequence: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
        start: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
        duration: v.pipe(v.number(), v.minValue(0), v.maxValue(60)),
        epoch: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
        bytes: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
      }),
    ),
    v.maxLength(200_000),
  ),
});

export interface PlayedTrack {
  /** When it started, in ms. */
  at: number;
  artist: string;
  title: string;
}

export interface ArchiveRequest {
  id: string;
  residence: string;
  /** The programme's slot, in ms. */
  start: number;
  end: number;
  title: string;
  artist: string;
  /** The show's name (`TALB`). */
  album?: string;
  /** The tracks played: the one playing at the slot's start, then those that started in it. */
  tracks: readonly PlayedTrack[];
  published: boolean;
}

export interface ArchiveContext {
  /** The normal rendition's folder of the timeline (LIVE_TIMESHIFT_DIR/<id>). */
  windowDir: string;
  /** LIVE_ARCHIVE_DIR. */
  dir: string;
  /** How long the timeline keeps a segment (LIVE_TIMESHIFT_HOURS), in ms. */
  keepMs: number;
  now: () => number;
  /** Bytes left free on the archives' disk for the timeline and the rest: below, an archive is refused. */
  reserveBytes: number;
  /** The free bytes of the archives' disk (statfs by default; tests give theirs). */
  freeBytes?: (dir: string) => Promise<number>;
}

export type ArchiveOutcome =
  { kind: 'written'; record: ArchiveRecord } | { kind: 'empty'; reason: string } | { kind: 'refused'; reason: string };

interface Run {
  /** The run's first frame's instant, and where it is in the archive, in ms. */
  wall: number;
  at: number;
  ms: number;
}

interface VodSegment {
  offset: number;
  bytes: number;
  ms: number;
}

const iso = (ms: number) => new Date(Math.round(ms)).toISOString();
const seconds = (ms: number) => Math.round(ms) / 1000;

async function diskFree(dir: string): Promise<number> {
  const info = await statfs(dir);
  return info.bavail * info.bsize;
}

/** The segments of the window that meet [start, end), in order; none when the index cannot be read. */
async function segmentsOf(windowDir: string, start: number, end: number) {
  let text: string;
  try {
    text = await readFile(join(windowDir, INDEX_FILE), 'utf8');
  } catch {
    return { all: [], meeting: [] };
  }
  const read = v.safeParse(indexSchema, JSON.parse(text) as unknown);
  if (!read.success) return { all: [], meeting: [] };
  const all = [...read.output.segments].sort((a, b) => a.sequence - b.sequence);
  return {
    all,
    meeting: all.filter((segment) => segment.start < end && segment.start + segment.duration * 1000 > start),
  };
}

/** A chapter's place in the archive: a wall-clock instant in a gap goes to where the audio resumes. */
function placeOf(runs: readonly Run[], wall: number, total: number): number {
  for (const run of runs) {
    if (wall < run.wall) return run.at;
    if (wall < run.wall + run.ms) return run.at + (wall - run.wall);
  }
  return total;
}

function chaptersOf(request: ArchiveRequest, runs: readonly Run[], total: number): ArchiveChapter[] {
  const chapters: ArchiveChapter[] = [];
  let last = -1;
  for (const track of request.tracks) {
    const at = placeOf(runs, Math.max(track.at, request.start), total);
    // A chapter of less than a second at the end, or two at one place (the second wins: it played).
    if (at >= total - 1000) continue;
    const chapter = { start: seconds(at), artist: tagText(track.artist), title: tagText(track.title) };
    if (last >= 0 && Math.abs(at - last) < 1) chapters.pop();
    chapters.push(chapter);
    last = at;
  }
  return chapters.slice(0, MAX_CHAPTERS);
}

const chapterTitle = (chapter: { artist: string; title: string }) => `${chapter.artist} — ${chapter.title}`;

function id3Chapters(chapters: readonly ArchiveChapter[], total: number): Id3Chapter[] {
  return chapters.map((chapter, index) => ({
    startMs: chapter.start * 1000,
    endMs: (chapters[index + 1]?.start ?? total / 1000) * 1000,
    title: chapterTitle(chapter),
  }));
}

/** The VOD playlist of the archive: byte ranges of its MP3, whole frames, ended. */
export function vodPlaylist(file: string, segments: readonly VodSegment[]): string {
  const target = Math.max(1, ...segments.map((segment) => Math.ceil(segment.ms / 1000)));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:4',
    `#EXT-X-TARGETDURATION:${String(target)}`,
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-INDEPENDENT-SEGMENTS',
  ];
  for (const segment of segments) {
    lines.push(
      `#EXTINF:${(segment.ms / 1000).toFixed(3)},`,
      `#EXT-X-BYTERANGE:${String(segment.bytes)}@${String(segment.offset)}`,
      file,
    );
  }
  lines.push('#EXT-X-ENDLIST', '');
  return lines.join('\n');
}

/**
 * Makes the archive of one slot. Never throws for what the live or the disk did: no frames is
 * `empty`, a disk too full (before or while writing) is `refused`, and nothing is left of a refused
 * archive. The timeline's folder is only read.
 */
export async function makeArchive(request: ArchiveRequest, context: ArchiveContext): Promise<ArchiveOutcome> {
  const { windowDir, dir, keepMs, now } = context;
  const { start, end } = request;
  const { all, meeting } = await segmentsOf(windowDir, start, end);
  if (meeting.length === 0) return { kind: 'empty', reason: 'aucune trame du direct pendant le créneau' };
  const estimate = meeting.reduce((sum, segment) => sum + segment.bytes, 0);
  try {
    const free = await (context.freeBytes ?? diskFree)(dir);
    if (free - estimate < context.reserveBytes) {
      return {
        kind: 'refused',
        reason: `disque plein : ${String(Math.ceil(estimate / 1e6))} Mo à écrire, ${String(Math.floor(free / 1e6))} Mo libres`,
      };
    }
  } catch (error) {
    return { kind: 'refused', reason: `disque illisible (${error instanceof Error ? error.message : String(error)})` };
  }

  // The tag's place, from every track the slot may take as a chapter: the chapters kept are fewer
  // or as many, so the final tag fits it, padded.
  const candidates: ArchiveChapter[] = request.tracks
    .slice(0, MAX_CHAPTERS)
    .map((track) => ({ start: 0, artist: tagText(track.artist), title: tagText(track.title) }));
  const tagOf = (chapters: readonly ArchiveChapter[], total: number, padTo = 0) =>
    showTag(
      {
        title: request.title,
        artist: request.artist,
        ...(request.album === undefined ? {} : { album: request.album }),
        date: iso(start).slice(0, 16),
        lengthMs: total,
        chapters: id3Chapters(chapters, total),
      },
      padTo,
    );
  const headBytes = tagOf(candidates, end - start).length + TAG_SLACK;

  const temporary = join(dir, `${mp3Name(request.id)}.${randomBytes(6).toString('hex')}.tmp`);
  const runs: Run[] = [];
  const gaps: ArchiveGap[] = [];
  const vod: VodSegment[] = [];
  let total = 0;
  let frames = 0;
  let offset = headBytes;
  let first: number | null = null;
  let expected: number | null = null;
  let handle: Awaited<ReturnType<typeof open>> | null = null;
  try {
    handle = await open(temporary, 'wx');
    await handle.write(Buffer.alloc(headBytes), 0, headBytes, 0);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    // Positional writes (the head is written at 0 last): each run at its own offset.
    let written = headBytes;
    const flush = async () => {
      if (pendingBytes === 0 || handle === null) return;
      const data = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await handle.write(data, 0, data.length, written);
      written += data.length;
    };
    for (const segment of meeting) {
      let data: Buffer;
      try {
        data = await readFile(join(windowDir, `${String(segment.sequence)}.mp3`));
      } catch {
        // Pruned while read, or never whole: its seconds are a gap like any other.
        continue;
      }
      let at = data.length >= 10 && data.subarray(0, 3).toString('latin1') === 'ID3' ? tagLength(data) : 0;
      let instant = segment.start;
      for (let header = readFrameHeader(data, at); header !== null; header = readFrameHeader(data, at)) {
        if (at + header.size > data.length) break;
        const ms = (header.samplesPerFrame / header.sampleRate) * 1000;
        const centre = instant + ms / 2;
        if (centre >= start && centre < end) {
          const skew = expected === null ? 0 : instant - expected;
          // A frame that would play before the last one ended: another recording of the same moment.
          if (skew < -GAP_MS) {
            at += header.size;
            instant += ms;
            continue;
          }
          const run = runs.at(-1);
          if (run === undefined || skew > GAP_MS) {
            if (run !== undefined && expected !== null) {
              gaps.push({
                at: seconds(total),
                from: iso(expected),
                to: iso(instant),
                seconds: seconds(instant - expected),
              });
            }
            runs.push({ wall: instant, at: total, ms: 0 });
          }
          const current = runs.at(-1);
          if (current !== undefined) current.ms += ms;
          first ??= instant;
          const bytes = data.subarray(at, at + header.size);
          pending.push(bytes);
          pendingBytes += bytes.length;
          const last = vod.at(-1);
          if (last === undefined || last.ms + ms > ARCHIVE_SEGMENT_S * 1000 + 1) {
            vod.push({ offset, bytes: bytes.length, ms });
          } else {
            last.bytes += bytes.length;
            last.ms += ms;
          }
          offset += bytes.length;
          total += ms;
          frames += 1;
          expected = instant + ms;
          if (pendingBytes >= WRITE_CHUNK) await flush();
        }
        at += header.size;
        instant += ms;
      }
    }
    await flush();
    if (frames === 0 || first === null || expected === null) {
      await handle.close();
      handle = null;
      await rm(temporary, { force: true });
      return { kind: 'empty', reason: 'aucune trame du direct pendant le créneau' };
    }
    const chapters = chaptersOf(request, runs, total);
    const head = tagOf(chapters, total, headBytes);
    await handle.write(head, 0, head.length, 0);
    await handle.sync();
    await handle.close();
    handle = null;
    const windowStart = all[0]?.start ?? first;
    const truncated =
      start < now() - keepMs && windowStart > start && first > start + GAP_MS
        ? { from: iso(first), missing: seconds(first - start) }
        : null;
    const record: ArchiveRecord = {
      version: RECORD_VERSION,
      id: request.id,
      residence: request.residence,
      title: tagText(request.title),
      artist: tagText(request.artist),
      slot: { start: iso(start), end: iso(end) },
      audio: { start: iso(first), end: iso(expected) },
      seconds: seconds(total),
      frames,
      bytes: offset,
      gaps,
      truncated,
      chapters,
      published: request.published,
      createdAt: iso(now()),
    };
    await writeWhole(join(dir, playlistName(request.id)), vodPlaylist(mp3Name(request.id), vod));
    await rename(temporary, join(dir, mp3Name(request.id)));
    await writeWhole(join(dir, recordName(request.id)), JSON.stringify(record));
    return { kind: 'written', record };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temporary, { force: true });
    // A record without its files, or files without their record, are not left behind.
    const made = await stat(join(dir, recordName(request.id))).catch(() => null);
    if (made === null) {
      await rm(join(dir, playlistName(request.id)), { force: true });
      await rm(join(dir, mp3Name(request.id)), { force: true });
    }
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOSPC' ? 'disque plein' : error instanceof Error ? error.message : String(error);
    return { kind: 'refused', reason: why };
  }
}

/** The length of the ID3v2 tag at the head of `data`, header included. */
function tagLength(data: Buffer): number {
  const size =
    (((data[6] ?? 0) & 0x7f) << 21) |
    (((data[7] ?? 0) & 0x7f) << 14) |
    (((data[8] ?? 0) & 0x7f) << 7) |
    ((data[9] ?? 0) & 0x7f);
  return Math.min(data.length, 10 + size);
}
