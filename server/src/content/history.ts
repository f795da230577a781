import { open, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { CONTENT_KINDS, type ContentKind } from './kinds';
import { versionSchema, type ContentRecord, type ContentVersion } from './store';

/**
 * A kind's history read in pages, and its old versions pruned (docs/content.md, « The history, in
 * pages » and « Pruning »), beside the store (store.ts) and its folder's layout:
 * `<dir>/<kind>/versions/<id>.json`, one immutable file per version, named by its id (its time to
 * the millisecond in UTC, then six hex letters), so that one `readdir` orders the whole history
 * without opening a file. A page opens only its own versions, and of each reads the first few
 * kilobytes (who saved it and when come before the content), off the event loop's way: the files
 * are read asynchronously, and no version's content is parsed to list it.
 */

/** A version's id as the store names it (store.ts, `newId`). */
const ID = /^\d{8}T\d{9}Z-[0-9a-f]{6}$/;

export const isVersionId = (id: string): boolean => ID.test(id);

/** The most versions a page of the history holds, and how many when the request says nothing. */
export const HISTORY_PAGE_MAX = 50;
export const HISTORY_PAGE_DEFAULT = 20;

/**
 * The most versions one request of a resident's history opens whole (to compare their residence
 * between versions): a page may then hold fewer than asked, with the cursor of the next.
 */
export const ENTRY_HISTORY_SCAN = 100;

/**
 * Versions that stay whatever their age, so that the last changes can always be undone (the
 * editor shows the ten newest).
 */
export const UNDO_KEPT = 10;

/** How much of a version's file is read to list it: its fields before its content. */
const HEAD_BYTES = 4096;

/** A page of a history: its versions, newest first, and the cursor of the next page (null: the last). */
export interface HistoryPage {
  versions: ContentRecord[];
  next: string | null;
}

const versionsDir = (dir: string, kind: ContentKind) => join(dir, kind, 'versions');
const fileOf = (dir: string, kind: ContentKind, id: string) => join(versionsDir(dir, kind), `${id}.json`);

const recordSchema = v.omit(versionSchema, ['data']);

/** The ids of a kind's versions, newest first: one `readdir`, no file opened. */
export async function versionIds(dir: string, kind: ContentKind): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(versionsDir(dir, kind));
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.json') && ID.test(name.slice(0, -5)))
    .map((name) => name.slice(0, -5))
    .sort()
    .reverse();
}

/** When a version was saved, from its id alone (ms since the epoch). */
export function savedAtOf(id: string): number {
  const [, year, month, day, hours, minutes, seconds, ms] =
    /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z/.exec(id)?.map(Number) ?? [];
  return Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, hours ?? 0, minutes ?? 0, seconds ?? 0, ms ?? 0);
}

/**
 * A version's record (who, when, what it restores) from the head of its file: the store writes the
 * content last, so the text before `"data"` is the record, parsed alone. A file of another layout is
 * read whole. null for a file gone (pruned meanwhile) or unreadable.
 */
async function recordOf(dir: string, kind: ContentKind, id: string): Promise<ContentRecord | null> {
  let head: string;
  try {
    const file = await open(fileOf(dir, kind, id), 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
      head = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await file.close();
    }
  } catch {
    return null;
  }
  const end = head.indexOf('\n  "data":');
  if (end !== -1) {
    try {
      const read = v.safeParse(recordSchema, JSON.parse(`${head.slice(0, end).replace(/,\s*$/, '')}\n}`));
      if (read.success && read.output.id === id) return read.output;
    } catch {
      // Read whole below.
    }
  }
  const whole = await versionOf(dir, kind, id);
  if (whole === null) return null;
  const { data: _data, ...record } = whole;
  return record;
}

/** A version read whole, asynchronously; null when gone or unreadable. */
async function versionOf(dir: string, kind: ContentKind, id: string): Promise<ContentVersion | null> {
  try {
    const read = v.safeParse(versionSchema, JSON.parse(await readFile(fileOf(dir, kind, id), 'utf8')));
    return read.success && read.output.id === id ? read.output : null;
  } catch {
    return null;
  }
}

/** The ids older than `before` (all of them without it). */
function olderThan(ids: string[], before: string | undefined): string[] {
  return before === undefined ? ids : ids.filter((id) => id < before);
}

/**
 * A page of a kind's history, newest first: at most `limit` versions older than `before` (the
 * previous page's `next`), and the cursor of the next page.
 */
export async function historyPage(
  dir: string,
  kind: ContentKind,
  { before, limit = HISTORY_PAGE_DEFAULT }: { before?: string; limit?: number },
): Promise<HistoryPage> {
  const ids = olderThan(await versionIds(dir, kind), before);
  const shown = ids.slice(0, Math.min(limit, HISTORY_PAGE_MAX));
  const records = await Promise.all(shown.map((id) => recordOf(dir, kind, id)));
  const last = shown.at(-1);
  return {
    versions: records.filter((record): record is ContentRecord => record !== null),
    next: ids.length > shown.length && last !== undefined ? last : null,
  };
}

/**
 * One entry (a residence) of each version, as JSON, or null where the version lacks it: versions
 * never change, so what was read once is kept (the last 5,000 read).
 */
const entries = new Map<string, string | null>();
const ENTRIES_KEPT = 5000;

async function entryIn(dir: string, kind: ContentKind, id: string, entry: string): Promise<string | null | undefined> {
  const key = `${dir}\n${kind}\n${id}\n${entry}`;
  const known = entries.get(key);
  if (known !== undefined) return known;
  const version = await versionOf(dir, kind, id);
  // A file gone or unreadable says nothing about the entry.
  if (version === null) return undefined;
  const field = CONTENT_KINDS[kind].key;
  const found: unknown =
    field === undefined || !Array.isArray(version.data)
      ? undefined
      : version.data.find((item: unknown) => (item as Record<string, unknown>)[field] === entry);
  const text = found === undefined ? null : JSON.stringify(found);
  entries.set(key, text);
  if (entries.size > ENTRIES_KEPT) {
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  return text;
}

/**
 * A page of the versions that changed one entry (a resident's residence), newest first: those
 * whose entry differs from the version before (added, changed or removed). Each request opens at
 * most ENTRY_HISTORY_SCAN versions whole, so a page may hold fewer than `limit`, with the cursor
 * to go on from.
 */
export async function entryHistoryPage(
  dir: string,
  kind: ContentKind,
  entry: string,
  { before, limit = HISTORY_PAGE_DEFAULT }: { before?: string; limit?: number },
): Promise<HistoryPage> {
  const ids = olderThan(await versionIds(dir, kind), before);
  const wanted = Math.min(limit, HISTORY_PAGE_MAX);
  const changed: string[] = [];
  let scanned = 0;
  let opened = 0;
  let newer = ids[0] === undefined ? undefined : await entryIn(dir, kind, ids[0], entry);
  while (scanned < ids.length && changed.length < wanted && opened < ENTRY_HISTORY_SCAN) {
    const id = ids[scanned] ?? '';
    const older = ids[scanned + 1];
    const previous = older === undefined ? null : await entryIn(dir, kind, older, entry);
    opened += 1;
    if (newer !== undefined && previous !== undefined && newer !== previous) changed.push(id);
    newer = previous;
    scanned += 1;
  }
  const records = await Promise.all(changed.map((id) => recordOf(dir, kind, id)));
  const last = ids[scanned - 1];
  return {
    versions: records.filter((record): record is ContentRecord => record !== null),
    next: scanned < ids.length && last !== undefined ? last : null,
  };
}

export interface PruneRule {
  /** The versions kept whatever their age (CONTENT_VERSIONS_KEPT). */
  kept: number;
  /** Past UNDO_KEPT, a version older than this is deleted (CONTENT_VERSIONS_DAYS). */
  maxAgeMs: number;
  now?: number;
}

/**
 * Deletes a kind's versions past the `kept` newest, and those older than `maxAgeMs` past the
 * UNDO_KEPT newest; never `current`, nor the version it restores while that one is among the
 * `kept` newest. The ids deleted, oldest first. A file that cannot be deleted stays, and is tried
 * again at the next pruning.
 */
export async function pruneVersions(
  dir: string,
  kind: ContentKind,
  current: Pick<ContentRecord, 'id' | 'restoredFrom'>,
  { kept, maxAgeMs, now = Date.now() }: PruneRule,
): Promise<string[]> {
  const ids = await versionIds(dir, kind);
  const spared = new Set([current.id]);
  if (current.restoredFrom !== undefined && ids.indexOf(current.restoredFrom) < kept) {
    spared.add(current.restoredFrom);
  }
  const doomed = ids.filter(
    (id, rank) => !spared.has(id) && rank >= UNDO_KEPT && (rank >= kept || now - savedAtOf(id) > maxAgeMs),
  );
  const deleted: string[] = [];
  for (const id of doomed.reverse()) {
    try {
      await rm(fileOf(dir, kind, id));
      deleted.push(id);
    } catch {
      // Tried again at the next pruning.
    }
  }
  return deleted;
}
