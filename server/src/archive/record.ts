import * as v from 'valibot';

/**
 * An archive's record (docs/archive.md, « The record »): `<id>.json` beside `<id>.mp3` and
 * `<id>.m3u8` in LIVE_ARCHIVE_DIR, written last, so that a record read names files that are whole.
 */

/** `<residence>-<yyyy>-<mm>-<dd>-<hh>h<mm>`, the slot's start in Paris time. */
export const ARCHIVE_ID = /^[a-z0-9][a-z0-9-]{0,79}-\d{4}-\d{2}-\d{2}-\d{2}h\d{2}$/i;
export const RECORD_VERSION = 1;
const MAX_RECORD_BYTES = 256 * 1024;
export { MAX_RECORD_BYTES };

const instant = v.pipe(v.string(), v.maxLength(40), v.isoTimestamp());
const shortText = v.pipe(v.string(), v.maxLength(400));

export const gapSchema = v.strictObject({
  /** Where in the archive the audio resumes after the gap, in seconds. */
  at: v.pipe(v.number(), v.minValue(0)),
  /** The wall-clock instants the live was missing. */
  from: instant,
  to: instant,
  seconds: v.pipe(v.number(), v.minValue(0)),
});

export const chapterSchema = v.strictObject({
  /** Seconds from the archive's head. */
  start: v.pipe(v.number(), v.minValue(0)),
  artist: shortText,
  title: shortText,
});

export const recordSchema = v.strictObject({
  version: v.literal(RECORD_VERSION),
  id: v.pipe(v.string(), v.regex(ARCHIVE_ID)),
  residence: v.pipe(v.string(), v.maxLength(60)),
  title: shortText,
  artist: shortText,
  /** The programme's slot. */
  slot: v.strictObject({ start: instant, end: instant }),
  /** The audio kept: its first frame's instant and its last's end. */
  audio: v.strictObject({ start: instant, end: instant }),
  seconds: v.pipe(v.number(), v.minValue(0)),
  frames: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
  /** The MP3's size in bytes, its ID3 head included (a feed's enclosure length). */
  bytes: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
  gaps: v.pipe(v.array(gapSchema), v.maxLength(10_000)),
  /** The slot's start was already out of the timeline's window: kept from `from`, `missing` seconds lost. */
  truncated: v.nullable(v.strictObject({ from: instant, missing: v.pipe(v.number(), v.minValue(0)) })),
  chapters: v.pipe(v.array(chapterSchema), v.maxLength(255)),
  /** The residents' own words, written in the editor: plain text. */
  text: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  /** Listed for listeners (true), or waiting for a volunteer's look (false). */
  published: v.boolean(),
  createdAt: instant,
});

export type ArchiveRecord = v.InferOutput<typeof recordSchema>;
export type ArchiveGap = v.InferOutput<typeof gapSchema>;
export type ArchiveChapter = v.InferOutput<typeof chapterSchema>;

export const mp3Name = (id: string) => `${id}.mp3`;
export const playlistName = (id: string) => `${id}.m3u8`;
export const recordName = (id: string) => `${id}.json`;
/** Left by a deletion in the editor: the slot is not archived again while the window still has it. */
export const deletedName = (id: string) => `${id}.deleted`;

/** The archive's id: its residence and its slot's start in Paris time (`axonberg-2026-11-24-20h00`). */
export function archiveId(residence: string, start: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('fr-FR', {
      timeZone: 'Europe/Paris',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(start))
      .map((part) => [part.type, part.value]),
  ) as Record<string, string>;
  return `${residence.toLowerCase()}-${parts.year ?? ''}-${parts.month ?? ''}-${parts.day ?? ''}-${parts.hour ?? ''}h${parts.minute ?? ''}`;
}
