import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SharedLeases } from '../instances/shared-state';
import { holdLease } from '../instances/lease';
import { FrameSplitter, NotMp3Error, type Frame } from './frames';
import { packedAudioTag } from './packed';
import { multivariantPlaylist } from './playlist';
import { RenditionWindow } from './window';
import { writeWhole } from '../files/whole';

/**
 * The recorder of the live (docs/timeshift.md): it listens to each rendition's stream as a listener
 * would (no ICY metadata asked), cuts it into segments of whole frames on a grid of the wall clock
 * and keeps them in the window of that rendition. One instance records, the one holding the lease.
 */

export const MULTIVARIANT_FILE = 'live.m3u8';
export const WINDOW_FILE = 'window.json';
/** The lease's name, how long it lasts, and how often its holder renews it (or others try it). */
export const LEASE_NAME = 'timeshift:recorder';
export const LEASE_MS = 15_000;
export const LEASE_CHECK_MS = 5_000;
/** A dropped stream is rejoined after 1 s, doubling up to 30 s: the player's own backoff. */
export const RETRY_BASE_MS = 1_000;
export const RETRY_MAX_MS = 30_000;
/**
 * Time to get the stream's headers, then the longest time without a whole frame: a stream silent,
 * or sending bytes too slowly to reach MAX_GARBAGE_BYTES, is dropped all the same.
 */
export const CONNECT_TIMEOUT_MS = 10_000;
export const IDLE_TIMEOUT_MS = 15_000;
/**
 * The frames' own clock may run this far from the wall clock. Ahead: a server's burst at connection
 * is a few seconds, a stream much faster than real time is not a live (refused). Behind: the
 * source's clock drifts, or the network held the bytes: the clock is taken again after a gap.
 */
export const MAX_AHEAD_MS = 30_000;
export const MAX_BEHIND_MS = 30_000;
/**
 * A connection's first seconds start no segment: the server's buffer (Icecast sends a new listener
 * 64 KiB at once, in pieces) has come, and the frames' clock is read from when they came.
 */
export const SETTLE_MS = 2_000;

/** The timers above: these by default, shorter in tests (RecorderOptions.timers). */
export interface RecorderTimers {
  leaseMs: number;
  leaseCheckMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
}
export const RECORDER_TIMERS: RecorderTimers = {
  leaseMs: LEASE_MS,
  leaseCheckMs: LEASE_CHECK_MS,
  retryBaseMs: RETRY_BASE_MS,
  retryMaxMs: RETRY_MAX_MS,
  connectTimeoutMs: CONNECT_TIMEOUT_MS,
  idleTimeoutMs: IDLE_TIMEOUT_MS,
};

export interface RecordedRendition {
  id: string;
  label: string;
  /** kb/s, for the multivariant playlist and the window's byte bound. */
  bitrate: number;
  /** The stream's absolute address, or null while it cannot be known (a path before the server listens). */
  url: () => string | null;
}

export interface RecorderLog {
  info: (message: string) => void;
  warn: (message: string) => void;
}

export interface RecorderOptions {
  /** LIVE_TIMESHIFT_DIR: one folder per rendition, and the multivariant playlist and window.json. */
  dir: string;
  segmentSeconds: number;
  hours: number;
  renditions: readonly RecordedRendition[];
  /** With REDIS_URL, the instances' leases: only the holder records. Null: this instance records. */
  leases: SharedLeases | null;
  now?: () => number;
  log: RecorderLog;
  fetch?: typeof fetch;
  /** Shorter timers, for tests: RECORDER_TIMERS by default. */
  timers?: Partial<RecorderTimers>;
}

type Settled = Required<Omit<RecorderOptions, 'leases' | 'timers'>> & { timers: RecorderTimers };

export function retryDelay(attempt: number, { retryBaseMs, retryMaxMs }: RecorderTimers = RECORDER_TIMERS): number {
  return Math.min(retryMaxMs, retryBaseMs * 2 ** Math.max(0, attempt - 1));
}

/** The bytes a rendition's window may hold: its hours at its bit rate, a quarter more, and a MiB. */
export function windowBytes(hours: number, bitrate: number): number {
  return Math.ceil(hours * 3600 * ((bitrate * 1000) / 8) * 1.25) + 1024 * 1024;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface Pending {
  sequence: number;
  start: number;
  ms: number;
  frames: Buffer[];
}

/** What a stream's content type may be: MPEG audio, or bytes of no declared kind. */
const AUDIO_TYPES = /^(audio\/(mpeg|mp3|x-mpeg|mpeg3)|application\/octet-stream)\s*(;|$)/i;

/** One rendition's stream, read until `signal` aborts, reconnected after each drop. */
class Recording {
  private readonly segmentMs: number;
  /** Segments kept since the start: a connection that added some resets the backoff. */
  private kept = 0;

  constructor(
    private readonly rendition: RecordedRendition,
    private readonly window: RenditionWindow,
    private readonly options: Settled,
    private readonly onSegment: () => Promise<void>,
  ) {
    this.segmentMs = options.segmentSeconds * 1000;
  }

  async run(signal: AbortSignal): Promise<void> {
    let attempt = 0;
    while (!signal.aborted) {
      const recorded = await this.listen(signal);
      attempt = recorded ? 1 : attempt + 1;
      try {
        await sleep(retryDelay(attempt, this.options.timers), undefined, { signal });
      } catch {
        return;
      }
    }
  }

  /** One connection; whether it gave at least one segment. Never throws. */
  private async listen(signal: AbortSignal): Promise<boolean> {
    const { log, now, timers } = this.options;
    const { id } = this.rendition;
    const url = this.rendition.url();
    if (url === null) return false;
    this.window.markGap();
    const connection = new AbortController();
    const abort = () => {
      connection.abort();
    };
    signal.addEventListener('abort', abort, { once: true });
    let idle = setTimeout(abort, timers.connectTimeoutMs);
    const awake = () => {
      clearTimeout(idle);
      idle = setTimeout(abort, timers.idleTimeoutMs);
    };
    const keptBefore = this.kept;
    let pending: Pending | null = null;
    try {
      // A listener's request: no Icy-MetaData, so the stream is MP3 frames alone.
      // A redirect is not followed: a hostile stream would send the recorder to the loopback, where
      // the instances' /metrics answers (docs/timeshift.md).
      const response = await this.options.fetch(url, {
        signal: connection.signal,
        headers: { 'user-agent': 'collectif-direct-differe' },
        redirect: 'manual',
      });
      if (!response.ok || response.body === null) {
        log.warn(`direct différé (${id}) : le flux répond ${String(response.status)}`);
        await response.body?.cancel();
        return false;
      }
      const type = response.headers.get('content-type') ?? '';
      if (type !== '' && !AUDIO_TYPES.test(type)) {
        log.warn(`direct différé (${id}) : le flux n’est pas du MP3 (${type.slice(0, 80)})`);
        await response.body.cancel();
        return false;
      }
      awake();
      const splitter = new FrameSplitter();
      let anchor = now();
      let counted = 0;
      let format = '';
      // Until the connection's first segment starts, the clock moves back so that no frame ends
      // after it came: a server sends a new listener seconds of the past at once (Icecast's burst),
      // which are not dated in the future (docs/timeshift.md, « The clock »). Then it stays.
      let settling = true;
      let movedBack = 0;
      const connected = now();
      for await (const chunk of response.body) {
        const frames = splitter.push(Buffer.from(chunk as Uint8Array));
        // Bytes alone do not keep the connection: frames do.
        if (frames.length > 0) awake();
        for (const frame of frames) {
          const kind = `${String(frame.sampleRate)}/${String(frame.samplesPerFrame)}`;
          const early = settling ? Math.max(0, anchor + counted + frame.ms - now()) : 0;
          anchor -= early;
          movedBack += early;
          let at = anchor + counted;
          const ahead = Math.max(at - now(), movedBack);
          if (ahead > MAX_AHEAD_MS) {
            throw new Error(`le flux va plus vite que le temps réel (${String(Math.round(ahead / 1000))} s d’avance)`);
          }
          if (at - now() < -MAX_BEHIND_MS || (format !== '' && kind !== format)) {
            // Behind the wall clock, or a new format: what follows is after a gap.
            if (pending !== null) await this.finish(pending);
            pending = null;
            this.window.markGap();
            anchor = now();
            counted = 0;
            at = anchor;
            settling = true;
            movedBack = 0;
          }
          format = kind;
          counted += frame.ms;
          // A frame that came before its time (the server's buffer) starts no segment, nor one of
          // the first seconds, while the server's buffer may still be coming.
          if (pending === null && (early > 0 || now() - connected < SETTLE_MS)) continue;
          pending = await this.place(pending, frame, at);
          if (pending !== null) settling = false;
        }
      }
      log.warn(`direct différé (${id}) : le flux s’est terminé`);
    } catch (error) {
      if (!signal.aborted) {
        const why = error instanceof NotMp3Error ? error.message : reason(error);
        const silent = `aucune trame MP3 depuis ${String(timers.idleTimeoutMs / 1000)} s`;
        log.warn(`direct différé (${id}) : flux perdu (${connection.signal.aborted ? silent : why})`);
      }
    } finally {
      clearTimeout(idle);
      signal.removeEventListener('abort', abort);
      connection.abort();
      // What was heard before the drop is kept, shorter than the others.
      if (pending !== null && pending.frames.length > 0) await this.finish(pending);
    }
    return this.kept > keptBefore;
  }

  /**
   * Puts a frame playing at `at` in its slot of the grid. The first segment of a connection starts
   * at a slot's beginning: the frames before it wait for the next slot.
   */
  private async place(pending: Pending | null, frame: Frame, at: number): Promise<Pending | null> {
    const sequence = Math.floor(at / this.segmentMs);
    if (pending === null) {
      if (at - sequence * this.segmentMs >= frame.ms) return null;
      return { sequence, start: at, ms: frame.ms, frames: [frame.bytes] };
    }
    if (sequence !== pending.sequence) {
      await this.finish(pending);
      return { sequence, start: at, ms: frame.ms, frames: [frame.bytes] };
    }
    pending.frames.push(frame.bytes);
    pending.ms += frame.ms;
    return pending;
  }

  private async finish(pending: Pending): Promise<boolean> {
    const data = Buffer.concat([packedAudioTag(pending.start), ...pending.frames]);
    const kept = await this.window.add(data, Math.round(pending.start), pending.ms / 1000, pending.sequence);
    if (kept) {
      this.kept += 1;
      await this.onSegment();
    }
    return kept;
  }
}

export interface Recorder {
  /** Whether this instance records now. */
  recording(): boolean;
  close(): Promise<void>;
}

/**
 * Starts recording (at once without leases; with them, when this instance holds the lease) and
 * writes the multivariant playlist. Resolves once started; `close` stops and gives the lease back.
 */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const settled: Settled = {
    now: Date.now,
    fetch: globalThis.fetch,
    ...options,
    timers: { ...RECORDER_TIMERS, ...options.timers },
  };
  const { dir, log, leases } = options;
  const keepMs = options.hours * 3600 * 1000;
  await mkdir(dir, { recursive: true });
  await writeWhole(join(dir, MULTIVARIANT_FILE), multivariantPlaylist(options.renditions));
  let running: { controller: AbortController; done: Promise<void> } | null = null;

  async function writeWindow(window: RenditionWindow): Promise<void> {
    const segments = window.segments();
    const first = segments[0];
    const last = segments.at(-1);
    if (first === undefined || last === undefined) {
      await rm(join(dir, WINDOW_FILE), { force: true });
      return;
    }
    const end = last.start + last.duration * 1000;
    const body = {
      start: new Date(first.start).toISOString(),
      end: new Date(Math.round(end)).toISOString(),
      segmentSeconds: options.segmentSeconds,
    };
    try {
      await writeWhole(join(dir, WINDOW_FILE), JSON.stringify(body));
    } catch (error) {
      log.warn(`direct différé : ${WINDOW_FILE} non écrit (${reason(error)})`);
    }
  }

  async function begin(): Promise<void> {
    const controller = new AbortController();
    // Each window is read back from disk now: another instance may have recorded until a moment ago.
    const windows = await Promise.all(
      options.renditions.map((rendition) =>
        RenditionWindow.open({
          dir: join(dir, rendition.id),
          segmentSeconds: options.segmentSeconds,
          keepMs,
          maxBytes: windowBytes(options.hours, rendition.bitrate),
          now: settled.now,
          log,
        }),
      ),
    );
    const [main] = windows;
    if (main !== undefined) await writeWindow(main);
    // The hours kept hold while a source is down too: what ages out goes at each slot of the grid.
    const expiry = setInterval(() => {
      void Promise.all(windows.map((window) => window.expire()))
        .then(async ([mainChanged]) => {
          if (mainChanged === true && main !== undefined) await writeWindow(main);
        })
        .catch((error: unknown) => {
          log.warn(`direct différé : fenêtre non élaguée (${reason(error)})`);
        });
    }, options.segmentSeconds * 1000);
    expiry.unref();
    controller.signal.addEventListener('abort', () => {
      clearInterval(expiry);
    });
    const done = Promise.all(
      options.renditions.map(async (rendition, index) => {
        const window = windows[index];
        if (window === undefined) return;
        const onSegment = index === 0 ? () => writeWindow(window) : () => Promise.resolve();
        await new Recording(rendition, window, settled, onSegment).run(controller.signal);
      }),
    ).then(() => undefined);
    running = { controller, done };
    log.info(`direct différé : enregistrement de ${String(options.renditions.length)} flux dans ${dir}`);
  }

  async function end(): Promise<void> {
    const current = running;
    running = null;
    if (current === null) return;
    current.controller.abort();
    await current.done;
  }

  const lease = await holdLease({
    leases,
    name: LEASE_NAME,
    ms: settled.timers.leaseMs,
    checkMs: settled.timers.leaseCheckMs,
    take: begin,
    lose: end,
    warn: (what, why) => {
      log.warn(
        what === 'lost'
          ? 'direct différé : bail perdu, une autre instance enregistre'
          : `direct différé : bail non renouvelé (${why ?? ''}), enregistrement poursuivi`,
      );
    },
  });
  return {
    recording: () => running !== null,
    close: () => lease.close(),
  };
}
