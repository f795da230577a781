import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { parseMp3 } from '../mp3';
import { demoMp3 } from './demo-mp3';
import { startIcecast, type IcecastServer } from './icecast';
import { IcecastSource, startSource, type SourceContent, type SourceOptions } from './icecast-source';
import { listen, mp3FramesIn } from './listener';

jest.setTimeout(60_000);

let icecast: IcecastServer;
const sources: IcecastSource[] = [];

beforeAll(async () => {
  icecast = await startIcecast();
});

afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
});

afterAll(async () => {
  await icecast.stop();
});

async function source(mount: string, options: SourceOptions = {}): Promise<IcecastSource> {
  const started = await startSource(icecast, mount, options);
  sources.push(started);
  return started;
}

const demo = demoMp3();
const demoFrames = parseMp3(demo);
/** The demo's bytes in `seconds` of its playing time. */
const seconds = (count: number) =>
  Math.round((count * demoFrames.frames.reduce((sum, frame) => sum + frame.size, 0)) / demoFrames.seconds);
/** Frames in `count` seconds. */
const framesIn = (count: number) => Math.floor((count * 1000) / demoFrames.frameMs);
/** The demo's frames by their bytes, to tell a frame heard from one sent. */
const sentFrames = new Set(
  demoFrames.frames.map(({ offset, size }) => demo.subarray(offset, offset + size).toString('base64')),
);

describe('the Icecast of the tests (Debian’s icecast2, its source protocol)', () => {
  it('is its own: a server that took its port first, answering Icecast’s status page, is not taken for it', async () => {
    // Another test's Icecast on the port this one was to take (a free port found is not reserved).
    const other = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end('{"icestats":{"location":"tests","admin":"tests@localhost"}}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const taken = (other.address() as AddressInfo).port;
    try {
      const own = await startIcecast({ firstPort: taken });
      try {
        expect(own.port).not.toBe(taken);
        // A source it accepts: its own password.
        const fed = await startSource(own, '/propre.mp3');
        await fed.stop();
      } finally {
        await own.stop();
      }
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('serves the demo’s MP3 a source sends: a listener reads whole frames of it from the mount', async () => {
    await source('/normale.mp3');
    expect(await icecast.mounts()).toEqual(['/normale.mp3']);
    const heard = await listen(icecast.url('/normale.mp3'), { bytes: seconds(2) });
    expect(heard.status).toBe(200);
    expect(heard.contentType).toBe('audio/mpeg');
    const frames = mp3FramesIn(heard.data);
    expect(frames.length).toBeGreaterThan(framesIn(1.5));
    // Each one a frame of the demo, byte for byte.
    for (const { offset, size } of frames) {
      expect(sentFrames.has(heard.data.subarray(offset, offset + size).toString('base64'))).toBe(true);
    }
  });

  it('serves the mounts over TLS too, for an address LIVE_RENDITIONS accepts (https://)', async () => {
    const secure = await startIcecast({ tls: true });
    try {
      const tls = secure.tls;
      if (tls === null) throw new Error('pas de port TLS');
      expect(tls.url('/normale.mp3')).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/normale\.mp3$/);
      sources.push(await startSource(secure, '/normale.mp3'));
      const heard = await listen(tls.url('/normale.mp3'), { bytes: seconds(1), caFile: tls.caFile });
      expect(heard.status).toBe(200);
      expect(mp3FramesIn(heard.data).length).toBeGreaterThan(framesIn(0.5));
      // Not trusted without its certificate.
      await expect(listen(tls.url('/normale.mp3'), { bytes: 1 })).rejects.toThrow(/self-signed|certificate/);
    } finally {
      await Promise.all(sources.splice(0).map((source) => source.close()));
      await secure.stop();
    }
  });

  it('feeds several mounts at once (the renditions)', async () => {
    await source('/normale.mp3');
    const econome = await source('/econome.mp3', { mp3: demoMp3('live-econome.mp3') });
    // The light one sends fewer bytes for the same playing time.
    expect(econome.bytesPerSecond).toBeLessThan(seconds(1));
    expect((await icecast.mounts()).sort()).toEqual(['/econome.mp3', '/normale.mp3']);
    const [normale, light] = await Promise.all([
      listen(icecast.url('/normale.mp3'), { bytes: seconds(1) }),
      listen(icecast.url('/econome.mp3'), { bytes: seconds(1) }),
    ]);
    expect(mp3FramesIn(normale.data).length).toBeGreaterThan(framesIn(0.5));
    expect(mp3FramesIn(light.data).length).toBeGreaterThan(framesIn(0.5));
  });

  it('stops and resumes: the mount is gone, then back, and the MP3 goes on where it stopped', async () => {
    const live = await source('/normale.mp3');
    await listen(icecast.url('/normale.mp3'), { bytes: seconds(1) });
    await live.stop();
    expect(live.connected).toBe(false);
    expect(await icecast.mounts()).toEqual([]);
    expect((await listen(icecast.url('/normale.mp3'), { bytes: 1 })).status).toBe(404);
    expect(icecast.log()).toMatch(/Source from 127\.0\.0\.1 at "\/normale\.mp3" exiting/);

    const before = live.framesSent;
    await live.start();
    expect(live.connected).toBe(true);
    const heard = await listen(icecast.url('/normale.mp3'), { bytes: seconds(1) });
    expect(heard.status).toBe(200);
    expect(mp3FramesIn(heard.data).length).toBeGreaterThan(framesIn(0.5));
    expect(live.framesSent).toBeGreaterThan(before);
  });

  it('refuses a source with a wrong password, and a second source on a fed mount', async () => {
    await expect(new IcecastSource(icecast, '/normale.mp3', { password: 'pas-le-bon' }).start()).rejects.toThrow(
      /Icecast refuse la source \/normale\.mp3 : HTTP\/1\.[01] 401/,
    );
    await source('/normale.mp3');
    await expect(new IcecastSource(icecast, '/normale.mp3').start()).rejects.toThrow(/HTTP\/1\.[01] 403/);
  });

  it.each<[SourceContent, (data: Buffer) => void]>([
    [
      'not-mp3',
      (data) => {
        expect(data.toString('utf8')).toContain('Ceci n’est pas un flux MP3.');
      },
    ],
    [
      'garbage',
      (data) => {
        expect(new Set(data).size).toBeGreaterThan(200);
      },
    ],
    [
      'lying-header',
      (data) => {
        // Headers there are, each claiming the highest bitrate, none where the previous one's length says.
        expect(data.includes(Buffer.from([0xff, 0xf3, 0xe0]))).toBe(true);
      },
    ],
    [
      'unended-frame',
      (data) => {
        expect(data.subarray(4).every((byte) => byte === 0)).toBe(true);
      },
    ],
  ])(
    'sends hostile bytes as audio/mpeg (%s): Icecast relays them, and they hold no MP3 frames',
    async (content, check) => {
      const hostile = await source(`/${content}.mp3`, { content });
      const heard = await listen(icecast.url(`/${content}.mp3`), { bytes: 8000 });
      expect(heard.status).toBe(200);
      expect(heard.contentType).toBe('audio/mpeg');
      expect(heard.data.length).toBeGreaterThanOrEqual(8000);
      check(heard.data);
      expect(mp3FramesIn(heard.data).length).toBeLessThan(3);
      // Frames counted are the MP3's, sent lying: none for the other kinds.
      expect(hostile.framesSent > 0).toBe(content === 'lying-header');
    },
  );

  it('switches a running source to hostile bytes and back, on the same connection', async () => {
    const live = await source('/normale.mp3');
    // Without Icecast's burst, what the listener reads starts after the first second.
    const heard = listen(icecast.url('/normale.mp3'), { bytes: seconds(4) });
    await delay(1000);
    live.send('garbage');
    await delay(1000);
    live.send('mp3');
    const { data } = await heard;
    // Frames, then bytes that break their chain, then frames again.
    const first = mp3FramesIn(data);
    expect(first.length).toBeGreaterThan(framesIn(0.5));
    const last = first.at(-1);
    const brokenAt = last === undefined ? 0 : last.offset + last.size;
    expect(brokenAt).toBeLessThan(data.length - seconds(1));
    expect(mp3FramesIn(data.subarray(data.length - seconds(0.5))).length).toBeGreaterThan(framesIn(0.25));
  });
});
