import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { CHOICES_FILE } from './choices';
import { MAX_RECORD_BYTES, mp3Name, playlistName, recordName, recordSchema, type ArchiveRecord } from './record';

/**
 * The archives on disk (docs/archive.md, « Bounds »): the records of LIVE_ARCHIVE_DIR read back
 * (each checked; a record that is not one is left aside with a warning), and the bounds kept: an
 * archive goes once its slot ended more than the days kept ago, and past the bytes kept the oldest
 * unpublished go first, then the oldest. Every instance reads the same folder; only the archiver
 * (the recorder's lease holder) removes.
 */

export interface StoreLog {
  warn: (message: string) => void;
}

/** Every archive's record in `dir`, oldest slot first. */
export async function readRecords(dir: string, log?: StoreLog): Promise<ArchiveRecord[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const records: ArchiveRecord[] = [];
  // The residences' choices live in the same folder (choices.ts): not a record.
  for (const name of names.filter((entry) => entry.endsWith('.json') && entry !== CHOICES_FILE)) {
    try {
      const path = join(dir, name);
      if ((await stat(path)).size > MAX_RECORD_BYTES) throw new Error('trop grand');
      const read = v.safeParse(recordSchema, JSON.parse(await readFile(path, 'utf8')) as unknown);
      if (!read.success) throw new Error(read.issues[0].message);
      if (recordName(read.output.id) !== name) throw new Error('nom et identifiant différents');
      records.push(read.output);
    } catch (error) {
      // Removed meanwhile: nothing to say.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      log?.warn(`archives : ${name} ignoré (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return records.sort((a, b) => Date.parse(a.slot.start) - Date.parse(b.slot.start));
}

/** Removes an archive: its record first (no longer listed), then its files. */
export async function removeArchive(dir: string, id: string): Promise<void> {
  await rm(join(dir, recordName(id)), { force: true });
  await rm(join(dir, playlistName(id)), { force: true });
  await rm(join(dir, mp3Name(id)), { force: true });
}

export interface Bounds {
  /** LIVE_ARCHIVE_DAYS: an archive goes this long after its slot ended. */
  keepMs: number;
  /** LIVE_ARCHIVE_MAX_MB: the bytes every archive may take together. */
  maxBytes: number;
}

/**
 * What must go for the bounds to hold with `incoming` more bytes: those past their days, then, over
 * the bytes, the oldest unpublished, then the oldest. Null when even all of them gone would not
 * make room (an archive bigger than the bound itself).
 */
export function overBounds(
  records: readonly ArchiveRecord[],
  bounds: Bounds,
  now: number,
  incoming = 0,
): ArchiveRecord[] | null {
  if (incoming > bounds.maxBytes) return null;
  const expired = records.filter((record) => Date.parse(record.slot.end) < now - bounds.keepMs);
  const kept = records.filter((record) => !expired.includes(record));
  let bytes = kept.reduce((sum, record) => sum + record.bytes, 0) + incoming;
  const byAge = (a: ArchiveRecord, b: ArchiveRecord) => Date.parse(a.slot.start) - Date.parse(b.slot.start);
  const order = [
    ...kept.filter((record) => !record.published).sort(byAge),
    ...kept.filter((record) => record.published).sort(byAge),
  ];
  const gone = [...expired];
  for (const record of order) {
    if (bytes <= bounds.maxBytes) break;
    gone.push(record);
    bytes -= record.bytes;
  }
  return gone;
}

/** Keeps the bounds on disk (with room made for `incoming` bytes); the archives removed. */
export async function keepBounds(
  dir: string,
  bounds: Bounds,
  now: number,
  incoming = 0,
  log?: StoreLog,
): Promise<{ removed: string[]; room: boolean }> {
  const records = await readRecords(dir, log);
  const gone = overBounds(records, bounds, now, incoming);
  const removing = gone ?? overBounds(records, bounds, now, 0) ?? [];
  for (const record of removing) await removeArchive(dir, record.id);
  return { removed: removing.map((record) => record.id), room: gone !== null };
}
