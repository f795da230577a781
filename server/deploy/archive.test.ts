import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { startFakeUpstream, type FakeUpstream } from '../src/api/testing/fake-upstream';
import { readId3 } from '../src/archive/id3';
import { archiveId } from '../src/archive/record';
import { calendarOf } from '../src/schedule/test-calendars';
import { parseMp3 } from '../src/timeshift/mp3';
import { demoMp3 } from '../src/timeshift/testing/demo-mp3';
import { startIcecast, type IcecastServer } from '../src/timeshift/testing/icecast';
import { startSource, type IcecastSource } from '../src/timeshift/testing/icecast-source';
import { startDeployment, type Deployment } from './harness';

// The live archives as deployed (docs/archive.md): a real Icecast (Debian's icecast2) fed the demo's
// mount by the tests' source client, two instances of the built server sharing Redis and the
// folders, behind Debian's nginx running deploy/nginx.conf, and a programme (a calendar on the
// loopback) with a slot of Axonberg of a minute. When the slot ends, the instance that records
// writes its archive, once; both instances serve it, and nginx sends it with byte ranges.

const SEGMENT_S = 2;
const MIN = 60_000;
/** The slot: starting 20 s after the deployment is up, a minute long, on whole seconds. */
const SLOT_MS = MIN;

let icecast: IcecastServer;
let source: IcecastSource;
let upstream: FakeUpstream;
let deployment: Deployment;
let slotStart = 0;

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

beforeAll(async () => {
  icecast = await startIcecast({ tls: true });
  const tls = icecast.tls;
  if (tls === null) throw new Error('Icecast sans port TLS');
  source = await startSource(icecast, '/normale.mp3', { mp3: demoMp3('live.mp3') });
  upstream = await startFakeUpstream();
  upstream.on('/radio.ics', (_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' })
      .end(
        calendarOf([
          'UID:synapses@test',
          `DTSTART:${stamp(slotStart)}`,
          `DTEND:${stamp(slotStart + SLOT_MS)}`,
          'SUMMARY:Axonberg · Synapses',
        ]),
      );
  });
  slotStart = Math.ceil((Date.now() + 40_000) / 1000) * 1000;
  deployment = await startDeployment({
    instances: 2,
    env: {
      LIVE_RENDITIONS: JSON.stringify([
        { id: 'normale', label: 'Normale', url: tls.url('/normale.mp3'), bitrate: 128, codec: 'mp3' },
      ]),
      LIVE_TIMESHIFT_SEGMENT_S: String(SEGMENT_S),
      LIVE_TIMESHIFT_HOURS: '0.1',
      LIVE_ARCHIVE: 'all',
      SCHEDULE_ICS_URLS: `${upstream.url}/radio.ics`,
      SCHEDULE_TTL_S: '5',
      // Icecast's certificate, self-signed for 127.0.0.1, trusted by the instances' Node.
      NODE_EXTRA_CA_CERTS: tls.caFile,
      RENDERERS: '1',
      // The archiver's lines (« écrite ») are at the info level.
      LOG_LEVEL: 'info',
    },
  });
}, 90_000);

afterAll(async () => {
  await deployment.close();
  await source.close();
  await icecast.stop();
  await upstream.close();
}, 30_000);

const id = () => archiveId('axonberg', slotStart);

/** Waits until the archive's record is in the shared folder (the slot's end, then a look of 30 s at most). */
async function archived(): Promise<void> {
  const deadline = slotStart + SLOT_MS + 90_000;
  while (Date.now() < deadline) {
    if (readdirSync(deployment.archiveDir).includes(`${id()}.json`)) return;
    await delay(1000);
  }
  throw new Error(`aucune archive ${id()} dans ${deployment.archiveDir}`);
}

describe('a live show kept as deployed', () => {
  it('is written once when its slot ends, by the instance that records, a valid MP3 of the slot', async () => {
    await archived();
    // Another look of each instance: still one archive.
    await delay(35_000);
    const files = readdirSync(deployment.archiveDir).filter((name) => !name.startsWith('choices'));
    expect(files.sort()).toEqual([`${id()}.json`, `${id()}.m3u8`, `${id()}.mp3`]);
    const writers = deployment.instances.filter((instance) =>
      instance.log.some((line) => line.includes(`archives : ${id()} écrite`)),
    );
    expect(writers).toHaveLength(1);
    const mp3 = readFileSync(join(deployment.archiveDir, `${id()}.mp3`));
    const parsed = parseMp3(mp3);
    // Every byte after the tag a frame, the length the slot's within a frame a minute (and one at each end).
    const last = parsed.frames.at(-1);
    expect((last?.offset ?? 0) + (last?.size ?? 0)).toBe(mp3.length);
    expect(parsed.frames[0]?.offset).toBe(readId3(mp3)?.size);
    expect(Math.abs(parsed.seconds * 1000 - SLOT_MS)).toBeLessThanOrEqual(3 * parsed.frameMs);
    expect(readId3(mp3)?.texts).toMatchObject({ TPE1: 'Axonberg', TALB: 'Synapses' });
  }, 200_000);

  it('is served by both instances, and by nginx with byte ranges', async () => {
    const record = JSON.parse(readFileSync(join(deployment.archiveDir, `${id()}.json`), 'utf8')) as { bytes: number };
    for (const instance of deployment.instances) {
      const direct = await fetch(`http://127.0.0.1:${String(instance.port)}/archives/${id()}.mp3`);
      expect(direct.status).toBe(200);
      expect(Buffer.from(await direct.arrayBuffer()).length).toBe(record.bytes);
    }
    const whole = await fetch(`${deployment.origin}/archives/${id()}.mp3`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    expect(whole.headers.get('cache-control')).toBe('public, max-age=300');
    expect(whole.headers.get('access-control-allow-origin')).toBe('*');
    expect(Number(whole.headers.get('content-length'))).toBe(record.bytes);
    const body = Buffer.from(await whole.arrayBuffer());
    const part = await fetch(`${deployment.origin}/archives/${id()}.mp3`, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${String(record.bytes)}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(body.subarray(1000, 2000));
    const playlist = await fetch(`${deployment.origin}/archives/${id()}.m3u8`);
    expect(playlist.status).toBe(200);
    expect((await playlist.text()).trim().split('\n').at(-1)).toBe('#EXT-X-ENDLIST');
    // The record is not served, nor is the internal location.
    const refused = [];
    for (const path of [`/archives/${id()}.json`, `/_archives/${id()}.mp3`]) {
      refused.push([path, (await fetch(`${deployment.origin}${path}`)).status]);
    }
    expect(refused).toEqual([
      [`/archives/${id()}.json`, 404],
      [`/_archives/${id()}.mp3`, 404],
    ]);
  });
});
