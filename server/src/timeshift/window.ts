import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { mediaPlaylist, type WindowSegment } from './playlist';
import { writeWhole } from '../files/whole';

/**
 * One rendition's window on disk (docs/timeshift.md, « The window »): its segments `<sequence>.mp3`,
 * their index `index.json`, and the playlists made from it, `index.m3u8` and its delta
 * `delta.m3u8`. Every file is written under a temporary name then renamed, so a reader (nginx,
 * another instance) sees a whole file or none. The index is read back when a recorder starts (a
 * restart, a failover): checked, and a segment whose file is gone is dropped; a broken index
 * leaves an empty window and the folder cleaned. Bounded by time (the hours kept) and by bytes.
 */

export const INDEX_FILE = 'index.json';
export const PLAYLIST_FILE = 'index.m3u8';
export const DELTA_FILE = 'delta.m3u8';
const SEGMENT_NAME = /^(\d{1,15})\.mp3$/;
/** At most this many segments in an index read back: 48 hours of 2-second segments. */
const MAX_SEGMENTS = 86_400;
const MAX_INDEX_BYTES = 16 * 1024 * 1024;
/**
 * How far ahead of the clock a segment read back from the index may start: twice the recorder's own
 * bound on its frames' clock (recorder.ts, MAX_AHEAD_MS, 30 s: a server's burst). A later one would
 * hold every new segment back until then.
 */
const INDEX_AHEAD_MS = 60_000;

const segmentSchema = v.strictObject({
  sequence: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  start: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  duration: v.pipe(v.number(), v.minValue(0.001), v.maxValue(60)),
  bytes: v.pipe(v.number(), v.safeInteger(), v.minValue(1), v.maxValue(64 * 1024 * 1024)),
  epoch: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
});
const indexSchema = v.strictObject({
  version: v.literal(1),
  segments: v.pipe(v.array(segmentSchema), v.maxLength(MAX_SEGMENTS)),
});

export interface WindowLog {
  warn: (message: string) => void;
}

export interface WindowOptions {
  /** The rendition's folder. */
  dir: string;
  segmentSeconds: number;
  /** How long a segment is kept after it ended, in ms (LIVE_TIMESHIFT_HOURS). */
  keepMs: number;
  /** The most bytes of segments kept: past it, the oldest go. */
  maxBytes: number;
  now: () => number;
  log: WindowLog;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class RenditionWindow {
  private list: WindowSegment[] = [];
  /** The next segment starts a new epoch (a gap before it: a new connection, a lost segment). */
  private gap = true;
  private turn: Promise<void> = Promise.resolve();

  private constructor(private readonly options: WindowOptions) {}

  /** The window kept in `options.dir`, read back from its index (or empty), pruned to its bounds. */
  static async open(options: WindowOptions): Promise<RenditionWindow> {
    const window = new RenditionWindow(options);
    await mkdir(options.dir, { recursive: true });
    await window.readBack();
    await window.settle(window.prune());
    return window;
  }

  segments(): readonly WindowSegment[] {
    return this.list;
  }

  last(): WindowSegment | undefined {
    return this.list.at(-1);
  }

  /** The next segment follows a gap: the stream was lost, or a segment could not be written. */
  markGap(): void {
    this.gap = true;
  }

  /**
   * Adds a segment: its file, then the index and the playlists. A segment not after the last one
   * (a clock that went back, the same slot after a failover) is dropped. A write that fails (a full
   * disk) drops the segment, is logged, and the next one follows a gap. Returns whether it was kept.
   */
  add(data: Buffer, start: number, duration: number, sequence: number): Promise<boolean> {
    return this.inTurn(() => this.adding(data, start, duration, sequence));
  }

  /**
   * One change of the window at a time (a segment added, what aged out dropped): each writes the
   * index and the playlists from the list it leaves, so two at once could rename an older one last.
   */
  private inTurn<T>(change: () => Promise<T>): Promise<T> {
    const done = this.turn.then(change);
    this.turn = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  }

  private async adding(data: Buffer, start: number, duration: number, sequence: number): Promise<boolean> {
    const last = this.last();
    if (last !== undefined && sequence <= last.sequence) return false;
    const epoch = last === undefined ? 0 : this.gap ? last.epoch + 1 : last.epoch;
    const segment: WindowSegment = { sequence, start, duration, bytes: data.length, epoch };
    try {
      await writeWhole(join(this.options.dir, `${String(sequence)}.mp3`), data);
    } catch (error) {
      this.options.log.warn(`direct différé : segment ${String(sequence)} perdu (${reason(error)})`);
      this.gap = true;
      return false;
    }
    this.list.push(segment);
    this.gap = false;
    await this.settle(this.prune());
    return true;
  }

  private async readBack(): Promise<void> {
    const { dir, log, segmentSeconds, now } = this.options;
    const segmentMs = segmentSeconds * 1000;
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      names = [];
    }
    let kept: WindowSegment[] = [];
    try {
      if ((await stat(join(dir, INDEX_FILE))).size > MAX_INDEX_BYTES) throw new Error('index trop grand');
      const text = await readFile(join(dir, INDEX_FILE), 'utf8');
      const read = v.safeParse(indexSchema, JSON.parse(text));
      if (!read.success) throw new Error(read.issues[0].message);
      // Each name is its start's slot on this grid (another segment length gives other names, and
      // the playlist lists every slot between two segments), and none starts later than the clock allows.
      const odd = read.output.segments.find(
        (segment) =>
          segment.sequence !== Math.floor(segment.start / segmentMs) || segment.start > now() + INDEX_AHEAD_MS,
      );
      if (odd !== undefined) throw new Error(`segment ${String(odd.sequence)} hors de la grille ou de l’heure`);
      const files = new Set(names);
      kept = read.output.segments.filter((segment) => files.has(`${String(segment.sequence)}.mp3`));
      // In order, each after the one before: anything else is not an index this recorder wrote.
      kept.sort((a, b) => a.sequence - b.sequence);
      kept = kept.filter((segment, index) => index === 0 || segment.sequence !== kept[index - 1]?.sequence);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        log.warn(`direct différé : index de ${dir} ignoré (${reason(error)}), fenêtre reprise à vide`);
      }
      kept = [];
    }
    this.list = kept;
    // Files the index does not name (a crash between a segment and its index, a temporary file) go.
    const named = new Set(kept.map((segment) => `${String(segment.sequence)}.mp3`));
    await Promise.all(
      names
        .filter((name) => (SEGMENT_NAME.test(name) && !named.has(name)) || name.endsWith('.tmp'))
        .map((name) => rm(join(dir, name), { force: true })),
    );
  }

  /**
   * Drops what aged out while no segment came (a source down for hours): the hours kept hold
   * whether or not the live goes on. Whether anything went.
   */
  expire(): Promise<boolean> {
    return this.inTurn(async () => {
      const gone = this.prune();
      if (gone.length === 0) return false;
      await this.settle(gone);
      return true;
    });
  }

  /** The playlists stop naming the segments pruned first; their files go after. */
  private async settle(gone: readonly WindowSegment[]): Promise<void> {
    await this.writeIndex();
    await Promise.all(
      gone.map((segment) => rm(join(this.options.dir, `${String(segment.sequence)}.mp3`), { force: true })),
    );
  }

  /** Drops from the list what is past the hours kept or over the bytes kept; returns them. */
  private prune(): WindowSegment[] {
    const { keepMs, maxBytes, now } = this.options;
    const oldest = now() - keepMs;
    let bytes = this.list.reduce((sum, segment) => sum + segment.bytes, 0);
    let drop = 0;
    while (drop < this.list.length) {
      const segment = this.list[drop];
      if (segment === undefined) break;
      const expired = segment.start + segment.duration * 1000 < oldest;
      if (!expired && bytes <= maxBytes) break;
      bytes -= segment.bytes;
      drop += 1;
    }
    const gone = this.list.slice(0, drop);
    this.list = this.list.slice(drop);
    return gone;
  }

  private async writeIndex(): Promise<void> {
    const { dir, segmentSeconds, log } = this.options;
    try {
      await writeWhole(join(dir, INDEX_FILE), JSON.stringify({ version: 1, segments: this.list }));
      if (this.list.length === 0) {
        await rm(join(dir, PLAYLIST_FILE), { force: true });
        await rm(join(dir, DELTA_FILE), { force: true });
        return;
      }
      await writeWhole(join(dir, PLAYLIST_FILE), mediaPlaylist(this.list, segmentSeconds));
      await writeWhole(join(dir, DELTA_FILE), mediaPlaylist(this.list, segmentSeconds, { delta: true }));
    } catch (error) {
      log.warn(`direct différé : playlist de ${dir} non écrite (${reason(error)})`);
    }
  }
}
