import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseMp3 } from './mp3';
import { MAX_GARBAGE_BYTES } from './frames';
import type { SharedLeases } from '../instances/shared-state';
import { readPackedTimestamp, timestamp90k } from './packed';
import {
  LEASE_NAME,
  MULTIVARIANT_FILE,
  WINDOW_FILE,
  startRecorder,
  type RecordedRendition,
  type Recorder,
  type RecorderOptions,
} from './recorder';
import { demoMp3 } from './testing/demo-mp3';
import { startIcecast, type IcecastServer } from './testing/icecast';
import { startSource, type IcecastSource } from './testing/icecast-source';
import { readMediaPlaylist, readMultivariantPlaylist, type ReadMediaPlaylist, type ReadSegment } from './testing/m3u8';

// The recorder against a real Icecast (Debian's icecast2) fed by source clients in real time: 2 s
// segments and windows of seconds, so that the file takes well under a minute.
jest.setTimeout(60_000);

const SEGMENT_S = 2;
const SEGMENT_MS = SEGMENT_S * 1000;
/** 10.8 s: five segments and a bit. */
const HOURS = 0.003;
const KEEP_MS = HOURS * 3600 * 1000;
/** Timers of seconds rather than tens of seconds (RecorderOptions.timers). */
const TIMERS = { retryBaseMs: 200, retryMaxMs: 500, idleTimeoutMs: 1500, leaseMs: 3000, leaseCheckMs: 200 };

const demo = demoMp3();
const demoFrames = parseMp3(demo);
const FRAME_MS = demoFrames.frameMs;
const sentFrames = new Set(
  demoFrames.frames.map(({ offset, size }) => demo.subarray(offset, offset + size).toString('base64')),
);
/** Where each frame of a demo file is in its loop: the moment of the demo it plays. */
function placesOf(file: string): Map<string, number> {
  const bytes = demoMp3(file);
  return new Map(
    parseMp3(bytes).frames.map(({ offset, size }, index) => [
      bytes.subarray(offset, offset + size).toString('base64'),
      index,
    ]),
  );
}

let icecast: IcecastServer;
const sources: IcecastSource[] = [];
const recorders: Recorder[] = [];
const folders: string[] = [];
const servers: Server[] = [];

/** The demo's two mounts, on one grid of frames, fed from the file's start: Icecast's buffer full by the last test. */
let pair: { normale: IcecastSource; econome: IcecastSource } | null = null;

beforeAll(async () => {
  icecast = await startIcecast();
  const [normale, econome] = await Promise.all([
    startSource(icecast, '/paire.mp3'),
    startSource(icecast, '/paire-econome.mp3', { mp3: demoMp3('live-econome.mp3') }),
  ]);
  sources.push(normale, econome);
  pair = { normale, econome };
});

afterAll(async () => {
  await Promise.all(recorders.map((recorder) => recorder.close()));
  await Promise.all(sources.map((source) => source.close()));
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await icecast.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'direct-'));
  folders.push(made);
  return made;
}

async function source(mount: string, options: Parameters<typeof startSource>[2] = {}): Promise<IcecastSource> {
  const started = await startSource(icecast, mount, options);
  sources.push(started);
  return started;
}

interface Log {
  warnings: string[];
  infos: string[];
}

/** A rendition read from Icecast (or any address). */
const rendition = (id: string, url: string, bitrate = 128): RecordedRendition => ({
  id,
  label: id,
  bitrate,
  url: () => url,
});

async function record(
  dir: string,
  renditions: RecordedRendition[],
  options: Partial<RecorderOptions> = {},
): Promise<{ recorder: Recorder; log: Log }> {
  const log: Log = { warnings: [], infos: [] };
  const recorder = await startRecorder({
    dir,
    segmentSeconds: SEGMENT_S,
    hours: HOURS,
    renditions,
    leases: null,
    log: {
      info: (message) => log.infos.push(message),
      warn: (message) => log.warnings.push(message),
    },
    timers: TIMERS,
    ...options,
  });
  recorders.push(recorder);
  return { recorder, log };
}

async function close(recorder: Recorder): Promise<void> {
  await recorder.close();
  recorders.splice(recorders.indexOf(recorder), 1);
}

/** A rendition's media playlist as the web server would send it, or null before it is written. */
function playlistOf(dir: string, id = 'normale'): ReadMediaPlaylist | null {
  const path = join(dir, id, 'index.m3u8');
  return existsSync(path) ? readMediaPlaylist(readFileSync(path, 'utf8')) : null;
}

const recorded = (list: ReadMediaPlaylist | null): ReadSegment[] => list?.segments.filter((each) => !each.gap) ?? [];

/** Polls until `check` gives a value (a bound for a failure, not a timing goal). */
async function until<T>(what: string, check: () => T | null | undefined | false, timeoutMs = 25_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`jamais venu : ${what}`);
    await delay(100);
  }
}

/** The frames of a segment file after its packed-audio tag. */
function framesOf(file: Buffer): Buffer[] {
  const parsed = parseMp3(file);
  return parsed.frames.map(({ offset, size }) => file.subarray(offset, offset + size));
}

/**
 * An HTTP server on the loopback that answers every request with `answer` (a stream that is not
 * Icecast's: a page, a frame header then silence).
 */
async function loopback(answer: (response: ServerResponse) => void): Promise<string> {
  const server = createServer((_request, response) => {
    answer(response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/flux.mp3`;
}

/**
 * The hostile streams, the lease's instances and the clock's two renditions record side by side
 * with the tests of the main one: each waits on a live's real time, and jest runs a file's tests
 * one after the other. They start with the file; their tests wait for them to end.
 */
function beside(run: () => Promise<void>): Promise<void> {
  const running = run();
  // Awaited by its test, which fails with what failed.
  running.catch(() => undefined);
  return running;
}

let hostileRun: Promise<void>;
let leaseRun: Promise<void>;
let clockRun: Promise<void>;

beforeAll(() => {
  hostileRun = beside(hostileStreams);
  leaseRun = beside(leaseInstances);
  clockRun = beside(clockOfThePair);
});

/** Each hostile stream refused or bounded, logged, beside a live MP3 that records. */
async function hostileStreams(): Promise<void> {
  const dir = folder();
  await source('/direct.mp3');
  for (const content of ['not-mp3', 'garbage', 'lying-header', 'unended-frame'] as const) {
    await source(`/${content}.mp3`, { content });
  }
  // A page where a stream should be; a frame header, then nothing, the connection held open.
  const page = await loopback((response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<p>Ceci n’est pas un flux.</p>');
  });
  const idle = await loopback((response) => {
    response.writeHead(200, { 'content-type': 'audio/mpeg' });
    response.write(demo.subarray(0, 4));
  });
  // A stream that sends the recorder elsewhere on the loopback (where /metrics answers): not followed.
  let followed = false;
  const elsewhere = await loopback((response) => {
    followed = true;
    response.writeHead(200, { 'content-type': 'audio/mpeg' });
    response.end(demo);
  });
  const redirect = await loopback((response) => {
    response.writeHead(302, { location: elsewhere });
    response.end();
  });
  const { log } = await record(dir, [
    rendition('normale', icecast.url('/direct.mp3')),
    ...['not-mp3', 'garbage', 'lying-header', 'unended-frame'].map((content) =>
      rendition(content, icecast.url(`/${content}.mp3`)),
    ),
    rendition('page', page),
    rendition('silence', idle),
    rendition('ailleurs', redirect),
  ]);
  const said = (id: string, pattern: RegExp) =>
    log.warnings.some((line) => line.startsWith(`direct différé (${id}) : `) && pattern.test(line));
  const refusals: [string, RegExp][] = [
    ['not-mp3', /flux perdu \(flux refusé : \d+ octets sans trame MP3\)/],
    ['garbage', /flux perdu \(flux refusé : \d+ octets sans trame MP3\)/],
    ['lying-header', /flux perdu \(flux refusé : \d+ octets sans trame MP3\)/],
    ['unended-frame', /flux perdu \(flux refusé : \d+ octets sans trame MP3\)/],
    ['page', /le flux n’est pas du MP3 \(text\/html; charset=utf-8\)/],
    ['silence', /flux perdu \((silence trop long|aucune trame MP3 depuis 1\.5 s)\)/],
    ['ailleurs', /le flux répond 302/],
  ];
  await until('chaque refus dans le journal', () => refusals.every(([id, pattern]) => said(id, pattern)));
  expect(followed).toBe(false);
  // Refused again at each attempt, never kept: no segment, no playlist.
  for (const [id] of refusals) {
    expect(readdirSync(join(dir, id)).filter((name) => name.endsWith('.mp3'))).toEqual([]);
    expect(playlistOf(dir, id)).toBeNull();
  }
  // The live MP3 beside them records as ever.
  const list = await until('le direct enregistré', () => {
    const read = playlistOf(dir);
    return recorded(read).length >= 2 ? read : null;
  });
  expect(recorded(list).every((segment) => Math.abs(segment.duration - SEGMENT_S) < FRAME_MS / 1000)).toBe(true);
  expect(log.warnings.filter((line) => line.startsWith('direct différé (normale)'))).toEqual([]);
}

/** Three instances, one lease. */
async function leaseInstances(): Promise<void> {
  const dir = folder();
  const leases = memoryLeases();
  const renditions = [rendition('normale', icecast.url('/paire.mp3'))];
  const first = await record(dir, renditions, { leases });
  const second = await record(dir, renditions, { leases });
  expect(first.recorder.recording()).toBe(true);
  expect(second.recorder.recording()).toBe(false);
  expect(leases.holder()).not.toBeNull();

  const byFirst = await until('deux segments du premier', () => {
    const read = playlistOf(dir);
    return recorded(read).length >= 2 ? recorded(read) : null;
  });
  // Several checks of the lease later, still the first alone.
  await delay(4 * TIMERS.leaseCheckMs);
  expect(second.recorder.recording()).toBe(false);

  await close(first.recorder);
  await until('le second qui enregistre', () => second.recorder.recording());
  const lastOfFirst = recorded(playlistOf(dir)).at(-1)?.sequence ?? 0;
  const list = await until('un segment du second', () => {
    const read = playlistOf(dir);
    return recorded(read).some((segment) => segment.sequence > lastOfFirst) ? read : null;
  });
  // The same window and names, on after a discontinuity.
  const names = recorded(list).map((segment) => segment.uri);
  expect(names).toEqual(expect.arrayContaining(byFirst.map((segment) => segment.uri)));
  const taken = recorded(list).find((segment) => segment.sequence > lastOfFirst);
  expect(taken?.discontinuity).toBe(true);

  // A third instance waits. The second stops renewing in time (a process frozen): its lease runs
  // out and another instance takes it; the second, finding it lost, stops.
  const third = await record(dir, renditions, { leases });
  expect(third.recorder.recording()).toBe(false);
  leases.steal();
  await until('le second qui s’arrête', () => !second.recorder.recording());
  expect(second.log.warnings).toContain('direct différé : bail perdu, une autre instance enregistre');
  expect(third.recorder.recording()).toBe(false);
  // That other instance gone, one of the two waiting takes the lease, one only.
  const lastOfSecond = recorded(playlistOf(dir)).at(-1)?.sequence ?? 0;
  leases.expire();
  await until('une instance qui enregistre', () => second.recorder.recording() || third.recorder.recording());
  await delay(4 * TIMERS.leaseCheckMs);
  expect([second.recorder.recording(), third.recorder.recording()].filter(Boolean)).toHaveLength(1);
  await until('un segment de la suivante', () =>
    recorded(playlistOf(dir)).some((segment) => segment.sequence > lastOfSecond && segment.discontinuity),
  );
  expect(first.recorder.recording()).toBe(false);
}

/** The demo's two mounts recorded once Icecast's buffer is full. */
async function clockOfThePair(): Promise<void> {
  if (pair === null) throw new Error('pas de sources');
  // A listener connecting to a running mount gets Icecast's buffer at once (64 KiB: 4 s at
  // 128 kb/s, 11 s at 48): seconds of the past, which are not dated in the future.
  await delay(Math.max(0, 12_500 - pair.econome.framesSent * FRAME_MS));
  const dir = folder();
  expect(pair.econome.framesSent * FRAME_MS).toBeGreaterThan(12_000);
  await record(dir, [
    rendition('normale', icecast.url('/paire.mp3')),
    rendition('econome', icecast.url('/paire-econome.mp3'), 48),
  ]);
  const ends = new Map<string, { end: number; seen: number }>();
  await until('trois segments de chaque', () => {
    for (const id of ['normale', 'econome']) {
      const list = playlistOf(dir, id);
      let at = 0;
      for (const segment of list?.segments ?? []) {
        at = segment.programDateTime ?? at;
        const key = `${id}/${segment.uri}`;
        if (!segment.gap && !ends.has(key)) ends.set(key, { end: at + segment.duration * 1000, seen: Date.now() });
        at += segment.duration * 1000;
      }
    }
    return ['normale', 'econome'].every((id) => recorded(playlistOf(dir, id)).length >= 3);
  });
  // No segment is listed before its end has come (give or take the source's ticks).
  expect([...ends].filter(([, { end, seen }]) => end - seen > 300).map(([key]) => key)).toEqual([]);
  // A name both renditions have starts at the same moment of the demo in each (the player
  // switches between them by name), to within a few frames of their sources' start.
  const normale = placesOf('live.mp3');
  const econome = placesOf('live-econome.mp3');
  const common = recorded(playlistOf(dir, 'normale'))
    .map((segment) => segment.uri)
    .filter((uri) => existsSync(join(dir, 'econome', uri)));
  expect(common.length).toBeGreaterThan(0);
  for (const uri of common) {
    const [a] = framesOf(readFileSync(join(dir, 'normale', uri)));
    const [b] = framesOf(readFileSync(join(dir, 'econome', uri)));
    const placeA = normale.get(a?.toString('base64') ?? '') ?? Number.NaN;
    const placeB = econome.get(b?.toString('base64') ?? '') ?? Number.NaN;
    const apart = Math.abs(placeA - placeB) % demoFrames.frames.length;
    expect([uri, Math.min(apart, demoFrames.frames.length - apart) <= 12]).toEqual([uri, true]);
  }
}

describe('the recorder on a real Icecast', () => {
  let dir: string;
  let live: IcecastSource;
  let main: { recorder: Recorder; log: Log };

  beforeAll(async () => {
    dir = folder();
    live = await source('/normale.mp3');
    main = await record(dir, [rendition('normale', icecast.url('/normale.mp3'))]);
  });

  it('grows a playlist of segments of the right length, named and dated by the wall clock', async () => {
    expect(main.recorder.recording()).toBe(true);
    const list = await until('trois segments', () => {
      const read = playlistOf(dir);
      return recorded(read).length >= 3 ? read : null;
    });
    expect(readMultivariantPlaylist(readFileSync(join(dir, MULTIVARIANT_FILE), 'utf8'))).toEqual([
      { bandwidth: 128_000, codecs: 'mp4a.40.34', name: 'normale', uri: 'normale/index.m3u8' },
    ]);
    expect(list.targetDuration).toBe(SEGMENT_S);
    const [first] = list.segments;
    if (first === undefined) throw new Error('aucun segment');
    // Dated on the first; each named by its slot: sequence × 2 s is when it starts, to a frame.
    expect(first.programDateTime).not.toBeNull();
    const start = first.programDateTime ?? 0;
    expect(start - first.sequence * SEGMENT_MS).toBeGreaterThanOrEqual(0);
    expect(start - first.sequence * SEGMENT_MS).toBeLessThan(FRAME_MS);
    // And the wall clock's time: within the seconds of Icecast's buffer of now.
    expect(Math.abs(start - Date.now())).toBeLessThan(15_000);
    // Each segment's start to the millisecond, as the window's index keeps it.
    const index = JSON.parse(readFileSync(join(dir, 'normale', 'index.json'), 'utf8')) as {
      segments: { sequence: number; start: number }[];
    };
    const starts = new Map(index.segments.map((segment) => [segment.sequence, segment.start]));
    let at = start;
    let previous: { stamp: bigint; frames: number } | null = null;
    for (const segment of list.segments) {
      expect(segment.gap).toBe(false);
      expect(segment.uri).toBe(`${String(segment.sequence)}.mp3`);
      // Whole frames filling the slot: 2 s to within a frame.
      expect(Math.abs(segment.duration - SEGMENT_S)).toBeLessThan(FRAME_MS / 1000);
      expect(at - segment.sequence * SEGMENT_MS).toBeGreaterThan(-1);
      expect(at - segment.sequence * SEGMENT_MS).toBeLessThan(FRAME_MS);
      const file = readFileSync(join(dir, 'normale', segment.uri));
      // Packed audio: the demo's frames, byte for byte, after a tag dated as the playlist dates the
      // segment (to the millisecond it writes), each the previous one's plus its frames' time.
      const frames = framesOf(file);
      expect(frames.length * FRAME_MS).toBeCloseTo(segment.duration * 1000, 0);
      expect(frames.every((frame) => sentFrames.has(frame.toString('base64')))).toBe(true);
      const stamp = readPackedTimestamp(file) ?? -1n;
      expect(Math.abs(Number(stamp - timestamp90k(starts.get(segment.sequence) ?? 0)))).toBeLessThanOrEqual(45);
      expect(Math.abs((starts.get(segment.sequence) ?? 0) - at)).toBeLessThan(list.segments.length);
      if (previous !== null) {
        expect(Math.abs(Number(stamp - previous.stamp) - previous.frames * FRAME_MS * 90)).toBeLessThanOrEqual(1);
      }
      previous = { stamp, frames: frames.length };
      at += segment.duration * 1000;
    }
    // window.json: the normal rendition's window, for the player's timeline.
    const window = JSON.parse(readFileSync(join(dir, WINDOW_FILE), 'utf8')) as Record<string, unknown>;
    expect(window).toEqual({
      start: expect.any(String) as string,
      end: expect.any(String) as string,
      segmentSeconds: SEGMENT_S,
    });
    expect(Date.parse(String(window.start))).toBe(start);
    expect(main.log.warnings).toEqual([]);
  });

  it('keeps the window to its hours: the oldest segments leave the playlist, then the disk', async () => {
    const firstSeen = playlistOf(dir)?.mediaSequence ?? 0;
    const list = await until('une fenêtre qui glisse', () => {
      const read = playlistOf(dir);
      return read !== null && read.mediaSequence > firstSeen + 1 ? read : null;
    });
    const segments = recorded(list);
    const first = segments[0];
    const last = segments.at(-1);
    if (first === undefined || last === undefined) throw new Error('aucun segment');
    const span = last.sequence * SEGMENT_MS + last.duration * 1000 - first.sequence * SEGMENT_MS;
    expect(span).toBeLessThanOrEqual(KEEP_MS + 2 * SEGMENT_MS);
    expect(segments.length).toBeLessThanOrEqual(Math.ceil(KEEP_MS / SEGMENT_MS) + 2);
    // On disk: the files the playlist names (give or take the one being added), nothing else.
    const files = readdirSync(join(dir, 'normale')).filter((name) => name.endsWith('.mp3'));
    expect(files.length).toBeLessThanOrEqual(segments.length + 1);
    expect(files).not.toContain(`${String(firstSeen)}.mp3`);
  });

  it('shows a source that stops and comes back as a discontinuity, logged, on the same grid', async () => {
    const before = recorded(playlistOf(dir));
    const lastBefore = before.at(-1)?.sequence ?? 0;
    // Away a second and a half; a connection's first seconds start no segment: a slot at least is missed.
    const stopped = Date.now();
    await live.stop();
    await until('la fin du flux dans le journal', () =>
      main.log.warnings.some((line) => /direct différé \(normale\) : (le flux s’est terminé|flux perdu)/.test(line)),
    );
    await delay(Math.max(0, stopped + 1500 - Date.now()));
    await live.start();
    const list = await until('un segment après la coupure', () => {
      const read = playlistOf(dir);
      return recorded(read).some((segment) => segment.discontinuity && segment.sequence > lastBefore) ? read : null;
    });
    const resumed = list.segments.find((segment) => segment.discontinuity && segment.sequence > lastBefore);
    if (resumed === undefined) throw new Error('pas de discontinuité');
    // Dated again after the gap, on the grid; a new discontinuity sequence.
    expect(resumed.programDateTime).not.toBeNull();
    expect((resumed.programDateTime ?? 0) - resumed.sequence * SEGMENT_MS).toBeLessThan(FRAME_MS);
    const previous = recorded(list)
      .filter((segment) => segment.sequence < resumed.sequence)
      .at(-1);
    expect(resumed.epoch).toBe((previous?.epoch ?? 0) + 1);
    // The slots missed are gaps, not sound: no file for them.
    const missed = list.segments.filter((segment) => segment.gap);
    expect(missed.length).toBeGreaterThan(0);
    for (const gap of missed) expect(existsSync(join(dir, 'normale', gap.uri))).toBe(false);
    // While the mount was away, Icecast answered 404 and the recorder tried again.
    expect(main.log.warnings.some((line) => line.includes('le flux répond 404'))).toBe(true);
  });

  it('keeps its window through a restart on the same folder, and goes on after a discontinuity', async () => {
    await close(main.recorder);
    const before = playlistOf(dir);
    const names = recorded(before).map((segment) => segment.uri);
    expect(names.length).toBeGreaterThan(1);
    main = await record(dir, [rendition('normale', icecast.url('/normale.mp3'))]);
    // Read back from disk at once: the same segments (but those that aged out meanwhile).
    const again = recorded(playlistOf(dir)).map((segment) => segment.uri);
    expect(again.length).toBeGreaterThan(0);
    expect(names.slice(names.length - again.length)).toEqual(again);
    const lastBefore = before?.segments.at(-1)?.sequence ?? 0;
    const list = await until('un segment après le redémarrage', () => {
      const read = playlistOf(dir);
      return (read?.segments.at(-1)?.sequence ?? 0) > lastBefore ? read : null;
    });
    const resumed = list.segments.find((segment) => segment.sequence > lastBefore && !segment.gap);
    expect(resumed?.discontinuity).toBe(true);
    expect(resumed?.programDateTime).not.toBeNull();
  });
});

/** Leases as Redis keeps them (instances/shared-state.ts), in memory: one holder, until it expires. */
function memoryLeases(): SharedLeases & { holder(): string | null; steal(): void; expire(): void } {
  const held = new Map<string, { token: string; until: number }>();
  const current = (name: string) => {
    const lease = held.get(name);
    return lease !== undefined && lease.until > Date.now() ? lease : undefined;
  };
  return {
    take: (name, token, ms) => {
      if (current(name) !== undefined) return Promise.resolve(false);
      held.set(name, { token, until: Date.now() + ms });
      return Promise.resolve(true);
    },
    renew: (name, token, ms) => {
      const lease = current(name);
      if (lease?.token !== token) return Promise.resolve(false);
      lease.until = Date.now() + ms;
      return Promise.resolve(true);
    },
    release: (name, token) => {
      if (current(name)?.token === token) held.delete(name);
      return Promise.resolve();
    },
    holder: () => current(LEASE_NAME)?.token ?? null,
    // As when the holder stops renewing (a process frozen): the lease runs out, another takes it.
    steal: () => {
      held.set(LEASE_NAME, { token: 'une autre instance', until: Date.now() + 60_000 });
    },
    expire: () => {
      held.delete(LEASE_NAME);
    },
  };
}

describe('hostile streams', () => {
  it('refuses or bounds each, logs it, and the live MP3 still records beside them', () => hostileRun);
});

describe('one recorder for all instances, under a lease', () => {
  it('records in one instance only; another takes over when it closes, and when its lease runs out', () => leaseRun);
});

describe('the clock of the segments', () => {
  it('dates the audio when it came, not seconds ahead: the same name holds the same moment in each rendition', () =>
    clockRun);
});

/**
 * A source down longer than the hours kept: its window empties by itself, without a segment to
 * prune it (a licence's hours hold while the live is off the air).
 */
async function expiryWhileDown(): Promise<void> {
  const dir = folder();
  const down = await source('/coupee.mp3');
  const { log } = await record(dir, [rendition('normale', icecast.url('/coupee.mp3'))]);
  await until('deux segments', () => recorded(playlistOf(dir)).length >= 2);
  await down.stop();
  await until('la fin du flux dans le journal', () => log.warnings.some((line) => line.includes('(normale)')));
  await until(
    'la fenêtre vidée',
    () => !existsSync(join(dir, 'normale', 'index.m3u8')) && !existsSync(join(dir, WINDOW_FILE)),
    KEEP_MS + 15_000,
  );
  expect(readdirSync(join(dir, 'normale')).filter((name) => name.endsWith('.mp3'))).toEqual([]);
}

/** Bytes that never make a frame, too slowly to reach MAX_GARBAGE_BYTES: dropped by time. */
async function trickle(): Promise<void> {
  const dir = folder();
  let sent = 0;
  const url = await loopback((response) => {
    response.writeHead(200, { 'content-type': 'audio/mpeg' });
    const timer = setInterval(() => {
      response.write(Buffer.alloc(100, 0x41));
      sent += 100;
    }, 100);
    response.on('close', () => {
      clearInterval(timer);
    });
  });
  const { log } = await record(dir, [rendition('lent', url)]);
  await until('le flux lent abandonné', () =>
    log.warnings.includes('direct différé (lent) : flux perdu (aucune trame MP3 depuis 1.5 s)'),
  );
  expect(sent).toBeLessThan(MAX_GARBAGE_BYTES);
  expect(playlistOf(dir, 'lent')).toBeNull();
}

let downRun: Promise<void>;
let trickleRun: Promise<void>;
beforeAll(() => {
  downRun = beside(expiryWhileDown);
  trickleRun = beside(trickle);
});

describe('bounds that hold without a frame', () => {
  it('empties the window of a source down longer than the hours kept', () => downRun);
  it('drops a stream that sends bytes but no frame for 1.5 s, before its bytes reach the garbage bound', () =>
    trickleRun);
});
