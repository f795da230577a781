import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { demoMp3 } from '../src/timeshift/testing/demo-mp3';
import { startIcecast, type IcecastServer } from '../src/timeshift/testing/icecast';
import { startSource, type IcecastSource } from '../src/timeshift/testing/icecast-source';
import { startDeployment, type Deployment, type Instance } from './harness';

// The live's timeline as deployed (docs/deploy.md, « The timeline's segments »): two instances of the
// built server sharing Redis, behind Debian's nginx running deploy/nginx.conf, recording a real
// Icecast (Debian's icecast2, fed by the tests' source client with the demo's two mounts). One
// instance records (a lease in Redis) into the folder nginx serves as /direct/; when it stops, the
// other takes over and goes on with the same names.

const SEGMENT_S = 2;
/** 72 s of window: long enough for the delta update to skip segments, short for the test. */
const HOURS = '0.02';

let icecast: IcecastServer;
let sources: IcecastSource[] = [];
let deployment: Deployment;
let origin: string;

beforeAll(async () => {
  icecast = await startIcecast({ tls: true });
  const tls = icecast.tls;
  if (tls === null) throw new Error('Icecast sans port TLS');
  sources = [
    await startSource(icecast, '/normale.mp3', { mp3: demoMp3('live.mp3') }),
    await startSource(icecast, '/econome.mp3', { mp3: demoMp3('live-econome.mp3') }),
  ];
  deployment = await startDeployment({
    instances: 2,
    env: {
      LIVE_RENDITIONS: JSON.stringify([
        { id: 'normale', label: 'Normale', url: tls.url('/normale.mp3'), bitrate: 128, codec: 'mp3' },
        { id: 'econome', label: 'Économe', url: tls.url('/econome.mp3'), bitrate: 48, codec: 'mp3' },
      ]),
      LIVE_TIMESHIFT_SEGMENT_S: String(SEGMENT_S),
      LIVE_TIMESHIFT_HOURS: HOURS,
      // Icecast's certificate, self-signed for 127.0.0.1, trusted by the instances' Node.
      NODE_EXTRA_CA_CERTS: tls.caFile,
      RENDERERS: '1',
    },
  });
  origin = deployment.origin;
}, 90_000);

afterAll(async () => {
  await deployment.close();
  await Promise.all(sources.map((source) => source.close()));
  await icecast.stop();
}, 30_000);

interface Segment {
  uri: string;
  duration: number;
  discontinuity: boolean;
  programDateTime: string | null;
}

interface Playlist {
  tags: Map<string, string>;
  segments: Segment[];
  text: string;
}

/** A media playlist's tags (`#EXT-X-NAME:value`, the first of each) and its segments. */
function parsePlaylist(text: string): Playlist {
  const tags = new Map<string, string>();
  const segments: Segment[] = [];
  let pending: Omit<Segment, 'uri'> = { duration: 0, discontinuity: false, programDateTime: null };
  for (const line of text.split('\n').map((each) => each.trim())) {
    if (line === '') continue;
    if (line.startsWith('#EXTINF:')) pending.duration = Number.parseFloat(line.slice(8));
    else if (line === '#EXT-X-DISCONTINUITY') pending.discontinuity = true;
    else if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) pending.programDateTime = line.slice(25);
    else if (line.startsWith('#')) {
      const colon = line.indexOf(':');
      const name = colon === -1 ? line.slice(1) : line.slice(1, colon);
      if (!tags.has(name)) tags.set(name, colon === -1 ? '' : line.slice(colon + 1));
    } else {
      segments.push({ uri: line, ...pending });
      pending = { duration: 0, discontinuity: false, programDateTime: null };
    }
  }
  return { tags, segments, text };
}

async function playlist(base: string, path = '/direct/normale/index.m3u8'): Promise<Playlist> {
  const response = await fetch(`${base}${path}`);
  if (!response.ok) return { tags: new Map(), segments: [], text: '' };
  return parsePlaylist(await response.text());
}

/** Waits (polling nginx) until the normal playlist satisfies `done`; the last one read. */
async function until(done: (list: Playlist) => boolean, timeoutMs = 30_000): Promise<Playlist> {
  const deadline = Date.now() + timeoutMs;
  let list = await playlist(origin);
  while (!done(list)) {
    if (Date.now() > deadline) {
      throw new Error(
        `la playlist n’est jamais venue :\n${list.text}\n${deployment.instances.map((i) => i.log.join('')).join('\n')}`,
      );
    }
    await delay(250);
    list = await playlist(origin);
  }
  return list;
}

/** A segment's sequence number, from its name (`<sequence>.mp3`). */
const sequenceOf = (segment: Segment | undefined) => Number(/^(\d+)\.mp3$/.exec(segment?.uri ?? '')?.[1] ?? Number.NaN);

/**
 * Whether an instance's process holds a connection to Icecast's TLS port (the mounts' listeners):
 * its sockets (/proc/<pid>/fd) against the machine's established TCP connections (/proc/net/tcp*).
 */
function readsIcecast(instance: Instance): boolean {
  const pid = instance.process?.pid;
  const port = icecast.tls?.port;
  if (pid === undefined || port === undefined) return false;
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const remote = fields[2]?.split(':')[1];
      if (
        remote !== undefined &&
        Number.parseInt(remote, 16) === port &&
        fields[3] === '01' &&
        fields[9] !== undefined
      ) {
        inodes.add(fields[9]);
      }
    }
  }
  return readdirSync(`/proc/${String(pid)}/fd`).some((fd) => {
    try {
      return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${String(pid)}/fd/${fd}`))?.[1] ?? '');
    } catch {
      return false;
    }
  });
}

describe('the live’s timeline behind nginx, two instances, a real Icecast', () => {
  it('is recorded by one instance, and served under the same names by nginx and by both instances', async () => {
    const list = await until((each) => each.segments.length >= 3);
    // One recorder for the deployment: one instance reads Icecast's mounts, the other does not.
    expect(deployment.instances.map(readsIcecast).filter(Boolean)).toHaveLength(1);

    const variants = await (await fetch(`${origin}/direct/live.m3u8`)).text();
    expect(variants).toMatch(
      /#EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a\.40\.34",NAME="Normale"\s+normale\/index\.m3u8/,
    );
    expect(variants).toMatch(
      /#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS="mp4a\.40\.34",NAME="Économe"\s+econome\/index\.m3u8/,
    );
    expect((await playlist(origin, '/direct/econome/index.m3u8')).segments.length).toBeGreaterThan(0);

    // Sequence numbers from the time: segment n starts at n × 2 s since the epoch.
    const [first] = list.segments;
    if (first === undefined) throw new Error('aucun segment');
    expect(Number(list.tags.get('EXT-X-MEDIA-SEQUENCE'))).toBe(sequenceOf(first));
    expect(first.programDateTime).not.toBeNull();
    expect(Math.abs(Date.parse(first.programDateTime ?? '') - sequenceOf(first) * SEGMENT_S * 1000)).toBeLessThan(
      SEGMENT_S * 1000,
    );
    for (const segment of list.segments) expect(segment.duration).toBeCloseTo(SEGMENT_S, 0);

    // The same files from nginx and from each instance.
    const bytes = async (base: string) =>
      Buffer.from(await (await fetch(`${base}/direct/normale/${first.uri}`)).arrayBuffer());
    const fromNginx = await bytes(origin);
    expect(fromNginx.subarray(0, 3).toString('latin1')).toBe('ID3');
    expect(fromNginx.includes(Buffer.from('com.apple.streaming.transportStreamTimestamp'))).toBe(true);
    for (const instance of deployment.instances) {
      expect((await bytes(`http://127.0.0.1:${String(instance.port)}`)).equals(fromNginx)).toBe(true);
      expect((await playlist(`http://127.0.0.1:${String(instance.port)}`)).segments.map((s) => s.uri)).toEqual(
        expect.arrayContaining(list.segments.map((s) => s.uri)),
      );
    }
  }, 60_000);

  it('gives segments immutable and public, playlists for a second, from any origin', async () => {
    const list = await until((each) => each.segments.length >= 1);
    const segment = await fetch(`${origin}/direct/normale/${list.segments[0]?.uri ?? ''}`);
    expect(segment.status).toBe(200);
    expect(segment.headers.get('content-type')).toBe('audio/mpeg');
    expect(segment.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(segment.headers.get('access-control-allow-origin')).toBe('*');
    expect(segment.headers.get('x-content-type-options')).toBe('nosniff');

    for (const path of ['/direct/normale/index.m3u8', '/direct/live.m3u8']) {
      const answer = await fetch(`${origin}${path}`);
      expect([path, answer.headers.get('content-type')]).toEqual([path, 'application/vnd.apple.mpegurl']);
      expect([path, answer.headers.get('cache-control')]).toEqual([path, 'public, max-age=1']);
      expect([path, answer.headers.get('access-control-allow-origin')]).toEqual([path, '*']);
    }
    const window = await fetch(`${origin}/direct/window.json`);
    expect(window.headers.get('cache-control')).toBe('public, max-age=1');
    const { start, end, segmentSeconds } = (await window.json()) as {
      start: string;
      end: string;
      segmentSeconds: number;
    };
    expect(segmentSeconds).toBe(SEGMENT_S);
    expect(Date.parse(end)).toBeGreaterThan(Date.parse(start));
  });

  it('counts the timeline’s listeners from the playlists nginx serves (its mirror) only, and refuses /metrics', async () => {
    // docs/figures.md, « What is counted »: each request for a playlist is mirrored to an instance.
    // Its listeners present are salted names: in the figures' Redis, which keeps nothing on disk.
    const redis = new Redis(deployment.figuresRedis?.url ?? '');
    const present = () => redis.zcard('collectif:figures:present:timeline');
    await until((each) => each.segments.length >= 1);
    const before = await present();
    // A listener of its own (its user agent), asking nginx only, twice.
    const headers = { 'user-agent': 'Lecteur-du-test-des-chiffres/1' };
    for (const path of ['/direct/live.m3u8', '/direct/normale/index.m3u8']) {
      expect((await fetch(`${origin}${path}`, { headers })).status).toBe(200);
    }
    let counted = await present();
    for (let tries = 0; counted === before && tries < 100; tries += 1) {
      await delay(50);
      counted = await present();
    }
    // One listener more, however often it asks.
    expect(counted).toBe(before + 1);
    // Nobody says it is listening but the mirror: through nginx, the count's address is refused,
    // and an instance refuses a peer off the loopback (server/src/api/routes/figures.test.ts).
    for (let one = 0; one < 5; one += 1) {
      const forged = await fetch(`${origin}/api/figures/timeline`, {
        headers: { 'user-agent': `Faux/${String(one)}` },
      });
      expect(forged.status).toBe(403);
    }
    expect(await present()).toBe(counted);
    redis.disconnect();
    // The admins' metrics are read on the instances' own ports, never through nginx.
    expect((await fetch(`${origin}/metrics`)).status).toBe(403);
  });

  it('answers ?_HLS_skip=YES and v2 with the delta playlist, which skips the older segments', async () => {
    // The delta skips what is older than CAN-SKIP-UNTIL behind the edge: a window longer than that.
    const full = await until((each) => {
      const skipUntil = Number(
        /CAN-SKIP-UNTIL=([\d.]+)/.exec(each.tags.get('EXT-X-SERVER-CONTROL') ?? '')?.[1] ?? Infinity,
      );
      return each.segments.length * SEGMENT_S > skipUntil + 2 * SEGMENT_S;
    }, 60_000);
    for (const value of ['YES', 'v2']) {
      const delta = await playlist(origin, `/direct/normale/index.m3u8?_HLS_skip=${value}`);
      const skipped = Number(/SKIPPED-SEGMENTS=(\d+)/.exec(delta.tags.get('EXT-X-SKIP') ?? '')?.[1] ?? 0);
      expect([value, skipped > 0]).toEqual([value, true]);
      expect(delta.segments.length).toBeLessThan(full.segments.length);
      expect(delta.text.length).toBeLessThan(full.text.length);
      // The same sequence: skipped ones and listed ones add up to the full playlist's.
      expect(Number(delta.tags.get('EXT-X-MEDIA-SEQUENCE')) + skipped).toBe(sequenceOf(delta.segments[0]));
    }
    // Any other value is the full playlist.
    expect((await playlist(origin, '/direct/normale/index.m3u8?_HLS_skip=NO')).tags.has('EXT-X-SKIP')).toBe(false);
  }, 60_000);

  it('serves nothing else from the folder: no listing, no file by another name', async () => {
    writeFileSync(join(deployment.timeshiftDir, 'normale', 'brouillon.tmp'), 'pas fini');
    for (const path of [
      '/direct/',
      '/direct/normale/',
      '/direct/normale/delta.m3u8',
      '/direct/normale/brouillon.tmp',
      '/direct/normale/12ab.mp3',
      '/direct/inconnue/index.m3u8',
    ]) {
      const answer = await fetch(`${origin}${path}`);
      expect([path, answer.status]).toEqual([path, 404]);
    }
    // Nothing beside the folder either (nginx's alias without its slash would serve `/direct../x`).
    for (const path of [
      '/direct../nginx.conf',
      '/direct/%2e%2e/nginx.conf',
      '/direct/normale/..%2f..%2f..%2fnginx.conf',
    ]) {
      const answer = await fetch(`${origin}${path}`);
      expect([path, (await answer.text()).includes('worker_connections')]).toEqual([path, false]);
    }
  });

  it('goes on when the recording instance stops: the other records, same names, after a discontinuity', async () => {
    const before = await until((each) => each.segments.length >= 2);
    const recorder = deployment.instances.find(readsIcecast);
    const other = deployment.instances.find((instance) => instance !== recorder);
    if (recorder === undefined || other === undefined) throw new Error('aucune instance n’enregistre');
    const lastBefore = sequenceOf(before.segments.at(-1));

    await deployment.stop(recorder);
    // The other one takes the lease and reads Icecast; the playlist goes on past a discontinuity.
    const after = await until(
      (each) =>
        each.segments.some((segment) => segment.discontinuity && sequenceOf(segment) > lastBefore) &&
        sequenceOf(each.segments.at(-1)) > lastBefore + 1,
      60_000,
    );
    expect(readsIcecast(other)).toBe(true);
    // Every segment listed before that is still in the window keeps its name and place.
    const names = after.segments.map((segment) => segment.uri);
    const kept = before.segments.filter((segment) => sequenceOf(segment) >= sequenceOf(after.segments[0]));
    expect(names).toEqual(expect.arrayContaining(kept.map((segment) => segment.uri)));
    // Names still from the time, increasing; the gap shows as a discontinuity, not as sound.
    const sequences = after.segments.map(sequenceOf);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    const resumed = after.segments.find((segment) => segment.discontinuity && sequenceOf(segment) > lastBefore);
    if (resumed === undefined) throw new Error('pas de discontinuité');
    expect(resumed.programDateTime).not.toBeNull();
    expect(Math.abs(Date.parse(resumed.programDateTime ?? '') - sequenceOf(resumed) * SEGMENT_S * 1000)).toBeLessThan(
      SEGMENT_S * 1000,
    );
    // Served by nginx while the first instance is away.
    expect((await fetch(`${origin}/direct/normale/${resumed.uri}`)).status).toBe(200);
    // Back, the first instance finds the lease held: still one recorder, the other.
    await deployment.start(recorder);
    await until((each) => sequenceOf(each.segments.at(-1)) > sequenceOf(after.segments.at(-1)));
    expect(deployment.instances.map(readsIcecast)).toEqual(deployment.instances.map((each) => each === other));
  }, 90_000);
});
