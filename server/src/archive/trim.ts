import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readFrameHeader } from '../timeshift/mp3';
import { writeWhole } from '../files/whole';
import { readId3, showTag } from './id3';
import { ARCHIVE_SEGMENT_S, vodPlaylist } from './make';
import { mp3Name, playlistName, recordName, type ArchiveRecord } from './record';

/**
 * An archive trimmed to [start, end) seconds (docs/archive.md, « The editor »): its frames whose
 * middle falls in it, as they are, behind the same tag with the chapters, the gaps and the length
 * moved; the MP3 written whole under a temporary name then renamed, its playlist and its record
 * after. The file is read a MiB at a time, never held whole.
 */

const READ_CHUNK = 1024 * 1024;

const iso = (ms: number) => new Date(Math.round(ms)).toISOString();
const seconds = (ms: number) => Math.round(ms) / 1000;

export async function trimArchive(
  dir: string,
  record: ArchiveRecord,
  start: number,
  end: number,
): Promise<ArchiveRecord> {
  const source = await open(join(dir, mp3Name(record.id)), 'r');
  const temporary = join(dir, `${mp3Name(record.id)}.${randomBytes(6).toString('hex')}.tmp`);
  let target: Awaited<ReturnType<typeof open>> | null = null;
  try {
    const first = Buffer.alloc(64 * 1024);
    const { bytesRead } = await source.read(first, 0, first.length, 0);
    const tag = readId3(first.subarray(0, bytesRead));
    if (tag === null) throw new Error('archive sans étiquette');
    target = await open(temporary, 'wx');
    let position = tag.size;
    let held = Buffer.alloc(0);
    let at = 0;
    let total = 0;
    let frames = 0;
    let written = tag.size;
    const vod: { offset: number; bytes: number; ms: number }[] = [];
    const out: Buffer[] = [];
    let outBytes = 0;
    const flush = async () => {
      if (outBytes === 0 || target === null) return;
      const data = Buffer.concat(out, outBytes);
      out.length = 0;
      outBytes = 0;
      await target.write(data, 0, data.length, written);
      written += data.length;
    };
    for (;;) {
      const chunk = Buffer.alloc(READ_CHUNK);
      const read = await source.read(chunk, 0, chunk.length, position);
      if (read.bytesRead === 0) break;
      position += read.bytesRead;
      held =
        held.length === 0
          ? chunk.subarray(0, read.bytesRead)
          : Buffer.concat([held, chunk.subarray(0, read.bytesRead)]);
      let offset = 0;
      for (let header = readFrameHeader(held, offset); header !== null; header = readFrameHeader(held, offset)) {
        if (offset + header.size > held.length) break;
        const ms = (header.samplesPerFrame / header.sampleRate) * 1000;
        const centre = at + ms / 2;
        if (centre >= start * 1000 && centre < end * 1000) {
          const bytes = Buffer.from(held.subarray(offset, offset + header.size));
          out.push(bytes);
          outBytes += bytes.length;
          const last = vod.at(-1);
          const place = written + outBytes - bytes.length;
          if (last === undefined || last.ms + ms > ARCHIVE_SEGMENT_S * 1000 + 1)
            vod.push({ offset: place, bytes: bytes.length, ms });
          else {
            last.bytes += bytes.length;
            last.ms += ms;
          }
          total += ms;
          frames += 1;
        }
        at += ms;
        offset += header.size;
      }
      held = Buffer.from(held.subarray(offset));
      if (outBytes >= READ_CHUNK) await flush();
    }
    await flush();
    if (frames === 0) throw new Error('aucune trame dans cet intervalle');
    const startMs = start * 1000;
    // The chapter playing at the new start begins at 0; those after the end go.
    const playing = record.chapters.filter((chapter) => chapter.start * 1000 <= startMs).at(-1);
    const chapters = [
      ...(playing === undefined ? [] : [{ ...playing, start: 0 }]),
      ...record.chapters
        .filter((chapter) => chapter.start * 1000 > startMs && chapter.start * 1000 < startMs + total - 1000)
        .map((chapter) => ({ ...chapter, start: seconds(chapter.start * 1000 - startMs) })),
    ];
    const head = showTag(
      {
        title: record.title,
        artist: record.artist,
        ...(tag.texts.TALB === undefined ? {} : { album: tag.texts.TALB }),
        ...(tag.texts.TDRC === undefined ? {} : { date: tag.texts.TDRC }),
        lengthMs: total,
        chapters: chapters.map((chapter, index) => ({
          startMs: chapter.start * 1000,
          endMs: (chapters[index + 1]?.start ?? total / 1000) * 1000,
          title: `${chapter.artist} — ${chapter.title}`,
        })),
      },
      tag.size,
    );
    await target.write(head, 0, head.length, 0);
    await target.sync();
    await target.close();
    target = null;
    // The wall clock of a place in the old archive: its first instant, the place, and the gaps before it.
    const wall = (ms: number) =>
      Date.parse(record.audio.start) +
      ms +
      record.gaps.filter((gap) => gap.at * 1000 <= ms).reduce((sum, gap) => sum + gap.seconds * 1000, 0);
    const trimmed: ArchiveRecord = {
      ...record,
      audio: { start: iso(wall(startMs)), end: iso(wall(startMs + total)) },
      seconds: seconds(total),
      frames,
      bytes: written,
      gaps: record.gaps
        .filter((gap) => gap.at * 1000 > startMs && gap.at * 1000 < startMs + total)
        .map((gap) => ({ ...gap, at: seconds(gap.at * 1000 - startMs) })),
      chapters,
    };
    await writeWhole(join(dir, playlistName(record.id)), vodPlaylist(mp3Name(record.id), vod));
    await rename(temporary, join(dir, mp3Name(record.id)));
    await writeWhole(join(dir, recordName(record.id)), JSON.stringify(trimmed));
    return trimmed;
  } finally {
    await source.close();
    await target?.close().catch(() => undefined);
    await rm(temporary, { force: true });
  }
}
