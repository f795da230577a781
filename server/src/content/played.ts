import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as v from 'valibot';
import { nowPlayingSchema } from '@collectif/shared/schemas';
import type { SharedPlayed } from '../instances/shared-state';
// A name longer than a tracklist's own bound is cut.
import { TRACK_TEXT_MAX } from '@collectif/shared/content-schemas';
import { writeWhole } from '../files/whole';

/**
 * What the radio played (docs/content.md, « What the radio played »): each track the now-playing
 * channel named, at the instant it started, so that an episode's tracklist can be prefilled from
 * its show's slot. Kept with the site's content, bounded (14 days, 5,000 rows, the oldest dropped),
 * in a file of CONTENT_DIR written whole (a temporary name, then renamed) at most once a minute
 * and at close, and, with REDIS_URL, in a sorted set every instance adds to and a starting
 * instance reads (each row signed with SITE_SECRET for its place, checked with its schema).
 */

/** One track played: when it started (a UTC instant, ISO 8601), its artist and its title. */
export interface PlayedRow {
  at: string;
  artist: string;
  title: string;
}

/** Kept this long (14 days), and this many rows at most (the newest). */
export const PLAYED_KEPT_MS = 14 * 24 * 3600 * 1000;
export const PLAYED_MAX = 5000;
/**
 * The same artist and title seen again within this long of its last sighting is the same play:
 * the now-playing is read every few seconds, and a track's exact start comes later, in the next
 * answers' « Titres précédents ».
 */
export const SAME_PLAY_MS = 30 * 60 * 1000;
/** The file is written at most this often (and at close). */
export const PLAYED_WRITE_MS = 60_000;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const text = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(TRACK_TEXT_MAX),
  v.check((name) => !CONTROL.test(name)),
);
/** A row read back from the file or from Redis: bounded texts, a valid instant. */
export const playedRowSchema = v.strictObject({
  at: v.pipe(
    v.string(),
    v.maxLength(40),
    v.isoTimestamp(),
    v.check((at) => Number.isFinite(Date.parse(at))),
  ),
  artist: text,
  title: text,
});
const fileSchema = v.object({ rows: v.pipe(v.array(v.unknown()), v.maxLength(PLAYED_MAX * 4)) });

/** A name as it is kept: control characters as spaces, spaces single, trimmed, cut. */
export function playedText(name: string): string {
  return (
    name
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, TRACK_TEXT_MAX)
      .trim()
  );
}

export interface PlayedLog {
  warn: (message: string) => void;
}

export interface PlayedOptions {
  /** The file, in CONTENT_DIR. */
  file: string;
  /** Redis's side (REDIS_URL), or null: this instance alone. */
  shared?: SharedPlayed | null;
  now?: () => number;
  log?: PlayedLog;
  keptMs?: number;
  max?: number;
  samePlayMs?: number;
  writeMs?: number;
}

export interface PlayedRecorder {
  /** A now-playing value (its JSON, or the value) seen at `at` (ms): its current track, and its « Titres précédents » at their instants. */
  observe(value: unknown, at?: number): void;
  /** Rows known to have been played (the demo's rotation), taken like recorded ones, kept in this instance only. */
  know(rows: readonly PlayedRow[]): void;
  /** The rows that started within [from, to), oldest first. */
  between(from: number, to: number): PlayedRow[];
  /** Every row kept, oldest first. */
  rows(): PlayedRow[];
  /** Writes the file now if anything changed since it was last written. */
  flush(): Promise<void>;
  /** Stops the timer and writes the file. */
  close(): Promise<void>;
}

interface Kept {
  at: number;
  artist: string;
  title: string;
  /** The last instant this play was seen (in memory only): a track read for an hour is one play. */
  seen: number;
}

const UNKNOWN = 'Inconnu';

/**
 * The recorder of what the radio played: reads the file and what Redis holds (rows of the kept
 * window, each checked), then takes the values the now-playing channel gives.
 */
export async function createPlayedRecorder({
  file,
  shared = null,
  now = Date.now,
  log = { warn: () => undefined },
  keptMs = PLAYED_KEPT_MS,
  max = PLAYED_MAX,
  samePlayMs = SAME_PLAY_MS,
  writeMs = PLAYED_WRITE_MS,
}: PlayedOptions): Promise<PlayedRecorder> {
  /** Oldest first. */
  let kept: Kept[] = [];
  let dirty = false;
  let pending: { at: number; text: string }[] = [];
  let pushing: Promise<void> | undefined;
  let writing: Promise<void> = Promise.resolve();

  const rowOf = (row: Kept): PlayedRow => ({
    at: new Date(row.at).toISOString(),
    artist: row.artist,
    title: row.title,
  });

  /** Sends the rows added or moved since the last push to Redis, in one batch. */
  function push(row: Kept): void {
    if (shared === null) return;
    pending.push({ at: row.at, text: JSON.stringify(rowOf(row)) });
    pushing ??= Promise.resolve().then(async () => {
      const batch = pending;
      pending = [];
      pushing = undefined;
      try {
        await shared.add(batch, { since: now() - keptMs, max: max * 4 });
      } catch {
        // Redis is away (said by shared-state.ts): the row is in this instance's file.
      }
    });
  }

  /** The oldest rows past the window or the count dropped. */
  function bound(): void {
    const since = now() - keptMs;
    let start = 0;
    while (start < kept.length && (kept[start]?.at ?? 0) < since) start += 1;
    start = Math.max(start, kept.length - max);
    if (start > 0) {
      kept = kept.slice(start);
      dirty = true;
    }
  }

  /**
   * Takes one play: the same artist and title seen within SAME_PLAY_MS of a kept play is that play
   * (its start moved earlier when this one is); otherwise a new row. Whether it changed anything.
   */
  function take(at: number, artist: string, title: string, { share = true } = {}): boolean {
    const since = now() - keptMs;
    if (!Number.isFinite(at) || at < since || at > now() + 60_000) return false;
    const a = playedText(artist);
    const t = playedText(title);
    if (a === '' || t === '' || (a === UNKNOWN && t === UNKNOWN)) return false;
    const same = kept.find(
      (row) => row.artist === a && row.title === t && at >= row.at - samePlayMs && at <= row.seen + samePlayMs,
    );
    if (same !== undefined) {
      same.seen = Math.max(same.seen, at);
      if (at >= same.at) return false;
      same.at = at;
      kept.sort((x, y) => x.at - y.at);
      dirty = true;
      if (share) push(same);
      return true;
    }
    const row: Kept = { at, artist: a, title: t, seen: at };
    let index = kept.length;
    while (index > 0 && (kept[index - 1]?.at ?? 0) > at) index -= 1;
    kept.splice(index, 0, row);
    dirty = true;
    bound();
    if (share) push(row);
    return true;
  }

  /** A row from the file or from Redis, if its schema holds. */
  function takeRead(value: unknown, share: boolean): boolean {
    const read = v.safeParse(playedRowSchema, value);
    if (!read.success) return false;
    take(Date.parse(read.output.at), read.output.artist, read.output.title, { share });
    return true;
  }

  // The file: each row checked, a malformed one left out (a file that cannot be read is no file).
  try {
    const parsed = v.safeParse(fileSchema, JSON.parse(await readFile(file, 'utf8')));
    if (parsed.success) {
      let refused = 0;
      for (const row of parsed.output.rows) if (!takeRead(row, false)) refused += 1;
      if (refused > 0) log.warn(`titres joués : ${String(refused)} ligne(s) du fichier ignorée(s) (forme invalide)`);
    } else {
      log.warn('titres joués : fichier illisible, ignoré');
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.warn('titres joués : fichier illisible, ignoré');
  }
  // Redis: what the other instances recorded while this one was away.
  if (shared !== null) {
    try {
      const { rows, forged } = await shared.since(now() - keptMs);
      let refused = forged;
      for (const row of rows) {
        let value: unknown;
        try {
          value = JSON.parse(row);
        } catch {
          value = undefined;
        }
        if (!takeRead(value, false)) refused += 1;
      }
      if (refused > 0) {
        log.warn(
          `titres joués : ${String(refused)} valeur(s) de Redis ignorée(s) : signature absente ou fausse (SITE_SECRET), ou forme invalide`,
        );
      }
    } catch {
      // Redis is away: this instance's file.
    }
  }
  dirty = false;

  async function write(): Promise<void> {
    if (!dirty) return;
    dirty = false;
    const body = JSON.stringify({ rows: kept.map(rowOf) });
    try {
      await mkdir(dirname(file), { recursive: true });
      await writeWhole(file, body);
    } catch (error) {
      dirty = true;
      log.warn(`titres joués : le fichier ne peut pas être écrit (${(error as Error).message})`);
    }
  }
  const flush = (): Promise<void> => {
    writing = writing.then(write);
    return writing;
  };

  const timer = setInterval(() => {
    void flush();
  }, writeMs);
  timer.unref();

  return {
    observe(value, at = now()) {
      let data = value;
      if (typeof value === 'string') {
        try {
          data = JSON.parse(value);
        } catch {
          return;
        }
      }
      const read = v.safeParse(nowPlayingSchema, data);
      if (!read.success) return;
      for (const earlier of read.output.history ?? []) {
        take(Date.parse(earlier.playedAt), earlier.artist, earlier.title);
      }
      take(at, read.output.artist, read.output.title);
    },
    know(rows) {
      for (const row of rows) take(Date.parse(row.at), row.artist, row.title, { share: false });
    },
    between(from, to) {
      return kept.filter((row) => row.at >= from && row.at < to).map(rowOf);
    },
    rows: () => kept.map(rowOf),
    flush,
    async close() {
      clearInterval(timer);
      await pushing;
      await flush();
    },
  };
}
