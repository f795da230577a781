/**
 * The ID3v2.4 tag at the head of a live archive (docs/archive.md, « The file »): the show's title,
 * artist, album, date and length, and its chapters as `CHAP` frames listed by one `CTOC` (the ID3v2
 * Chapter Frame Addendum), each chapter a track played in the slot. Texts are UTF-8 (encoding 3),
 * control characters taken out and cut; at most MAX_CHAPTERS chapters (a `CTOC` counts its entries
 * in one byte). Written by hand: a few frames of fixed shape. `readId3` reads one back (the tests,
 * and a check of what was written).
 */

/** A `CTOC` names its entries' count in one byte. */
export const MAX_CHAPTERS = 255;
/** Longest text kept in a frame, in characters. */
export const MAX_TEXT = 300;
/** Byte offsets of a chapter left unsaid (the times are enough). */
const NO_OFFSET = 0xffffffff;

export interface Id3Chapter {
  /** From the head of the audio, in ms. */
  startMs: number;
  endMs: number;
  title: string;
}

export interface ShowTag {
  title: string;
  artist: string;
  album?: string;
  /** The recording's date, ISO 8601 to the minute (`TDRC`). */
  date?: string;
  /** The audio's length in ms (`TLEN`). */
  lengthMs?: number;
  chapters: readonly Id3Chapter[];
}

/** A text as a frame carries it: no control character, single spaces, at most MAX_TEXT characters. */
export function tagText(text: string): string {
  return Array.from(
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  )
    .slice(0, MAX_TEXT)
    .join('')
    .trim();
}

/** ID3v2.4 sizes are « syncsafe »: 7 bits per byte. */
function syncsafe(size: number): Buffer {
  if (size >= 2 ** 28) throw new Error('étiquette ID3 trop grande');
  return Buffer.from([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
}

function readSyncsafe(data: Buffer, at: number): number {
  return (
    (((data[at] ?? 0) & 0x7f) << 21) |
    (((data[at + 1] ?? 0) & 0x7f) << 14) |
    (((data[at + 2] ?? 0) & 0x7f) << 7) |
    ((data[at + 3] ?? 0) & 0x7f)
  );
}

function frame(id: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(id, 'latin1'), syncsafe(body.length), Buffer.from([0, 0]), body]);
}

function textFrame(id: string, text: string): Buffer {
  return frame(id, Buffer.concat([Buffer.from([3]), Buffer.from(tagText(text), 'utf8')]));
}

function uint32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(Math.max(0, Math.min(NO_OFFSET, Math.round(value))));
  return buffer;
}

const chapterId = (index: number) => `ch${String(index)}`;

/**
 * The tag's bytes. With `padTo`, zeros follow the frames up to that many bytes in all (the
 * padding ID3v2.4 allows), so that a tag written first as a placeholder is replaced in place.
 */
export function showTag(tag: ShowTag, padTo = 0): Buffer {
  const chapters = tag.chapters.slice(0, MAX_CHAPTERS);
  const frames: Buffer[] = [textFrame('TIT2', tag.title), textFrame('TPE1', tag.artist)];
  if (tag.album !== undefined) frames.push(textFrame('TALB', tag.album));
  if (tag.date !== undefined) frames.push(textFrame('TDRC', tag.date));
  if (tag.lengthMs !== undefined) frames.push(textFrame('TLEN', String(Math.round(tag.lengthMs))));
  if (chapters.length > 0) {
    frames.push(
      frame(
        'CTOC',
        Buffer.concat([
          Buffer.from('toc\0', 'latin1'),
          // Top level, ordered.
          Buffer.from([0x03, chapters.length]),
          ...chapters.map((_chapter, index) => Buffer.from(`${chapterId(index)}\0`, 'latin1')),
        ]),
      ),
    );
    chapters.forEach((chapter, index) => {
      frames.push(
        frame(
          'CHAP',
          Buffer.concat([
            Buffer.from(`${chapterId(index)}\0`, 'latin1'),
            uint32(chapter.startMs),
            uint32(chapter.endMs),
            uint32(NO_OFFSET),
            uint32(NO_OFFSET),
            textFrame('TIT2', chapter.title),
          ]),
        ),
      );
    });
  }
  const body = Buffer.concat(frames);
  if (padTo > 0 && 10 + body.length > padTo) throw new Error('étiquette ID3 plus grande que sa place');
  const padding = padTo > 0 ? padTo - 10 - body.length : 0;
  const size = body.length + padding;
  return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0]), syncsafe(size), body, Buffer.alloc(padding)]);
}

export interface ReadTag {
  /** The whole tag's length, header included: where the audio starts. */
  size: number;
  texts: Record<string, string>;
  chapters: (Id3Chapter & { id: string })[];
  /** The `CTOC`'s entries, in order. */
  toc: string[];
}

function readText(body: Buffer): string {
  const encoding = body[0];
  const text = body.subarray(1);
  if (encoding === 3) return text.toString('utf8').replace(/\0+$/, '');
  if (encoding === 0) return text.toString('latin1').replace(/\0+$/, '');
  throw new Error(`encodage de texte ID3 non lu : ${String(encoding)}`);
}

/** The frames of a run of bytes: [id, body] in order, stopping at padding. */
function framesOf(data: Buffer): [string, Buffer][] {
  const found: [string, Buffer][] = [];
  let at = 0;
  while (at + 10 <= data.length && data[at] !== 0) {
    const id = data.subarray(at, at + 4).toString('latin1');
    const size = readSyncsafe(data, at + 4);
    if (at + 10 + size > data.length) throw new Error(`trame ID3 ${id} coupée`);
    found.push([id, data.subarray(at + 10, at + 10 + size)]);
    at += 10 + size;
  }
  return found;
}

/** Reads the ID3v2.4 tag at the head of `data`, or null when none starts it. */
export function readId3(data: Buffer): ReadTag | null {
  if (data.length < 10 || data.subarray(0, 3).toString('latin1') !== 'ID3') return null;
  if (data[3] !== 4) throw new Error(`ID3v2.${String(data[3])} : seule la version 2.4 est lue`);
  const size = 10 + readSyncsafe(data, 6);
  if (size > data.length) throw new Error('étiquette ID3 coupée');
  const tag: ReadTag = { size, texts: {}, chapters: [], toc: [] };
  for (const [id, body] of framesOf(data.subarray(10, size))) {
    if (id.startsWith('T')) tag.texts[id] = readText(body);
    else if (id === 'CTOC') {
      const end = body.indexOf(0);
      const count = body[end + 2] ?? 0;
      let at = end + 3;
      for (let index = 0; index < count; index += 1) {
        const next = body.indexOf(0, at);
        tag.toc.push(body.subarray(at, next).toString('latin1'));
        at = next + 1;
      }
    } else if (id === 'CHAP') {
      const end = body.indexOf(0);
      const sub = Object.fromEntries(framesOf(body.subarray(end + 17)));
      tag.chapters.push({
        id: body.subarray(0, end).toString('latin1'),
        startMs: body.readUInt32BE(end + 1),
        endMs: body.readUInt32BE(end + 5),
        title: sub.TIT2 === undefined ? '' : readText(sub.TIT2),
      });
    }
  }
  return tag;
}
