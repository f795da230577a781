import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ApiError } from '@collectif/shared';
import { DEMO_LIVE_FILE } from '../demo/audio';
import {
  FAKE_ECONOME_FRAME_SIZE,
  FAKE_FRAME_SIZE,
  buildApi,
  fakeAudioDir,
  fakeMp3,
  listen,
  manualClock,
  testConfig,
} from '../testing/fixtures';
import { firstBytes } from '../testing/streams';

const LOOP_FRAMES = 100;
/** 22.05 kHz, 576 samples a frame. */
const FRAME_MS = (576 / 22050) * 1000;

/** The loop index of each whole frame of a fake mp3 (each frame holds its index after its header). */
function frameIndices(body: Buffer, size: number): number[] {
  const indices: number[] = [];
  for (let at = 0; at + size <= body.length; at += size) indices.push(body[at + 4] ?? -1);
  return indices;
}

describe('the demo live stream’s two mounts', () => {
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    // The clock stands at frame 1234 of the shared timeline: loop frame 34.
    const clock = manualClock(Math.ceil(1234 * FRAME_MS));
    const config = testConfig({ demo: { ...testConfig().demo, audioDir: fakeAudioDir(LOOP_FRAMES) } });
    app = await buildApi({ config, now: clock.now });
    base = await listen(app);
  });

  afterAll(() => app.close());

  it('serves the light mount as the normal one: audio/mpeg that never ends, starting on a frame', async () => {
    const { status, headers, body } = await firstBytes(`${base}/api/demo/live-econome.mp3`, 2000);
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('audio/mpeg');
    expect(headers['content-length']).toBeUndefined();
    expect(headers['cache-control']).toBe('no-cache, no-store');
    expect(headers['accept-ranges']).toBe('none');
    // An MPEG-2 layer III frame at 48 kb/s.
    expect([...body.subarray(0, 3)]).toEqual([0xff, 0xf3, 0x60]);
    const head = await app.inject({ method: 'HEAD', url: '/api/demo/live-econome.mp3' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('audio/mpeg');
  });

  it('puts both mounts at the same point of the loop, on the server’s one clock', async () => {
    const frames = 10;
    const normal = await firstBytes(`${base}/api/demo/live.mp3`, frames * FAKE_FRAME_SIZE);
    const light = await firstBytes(`${base}/api/demo/live-econome.mp3`, frames * FAKE_ECONOME_FRAME_SIZE);
    const expected = Array.from({ length: frames }, (_, i) => 34 + i);
    expect(frameIndices(normal.body, FAKE_FRAME_SIZE).slice(0, frames)).toEqual(expected);
    expect(frameIndices(light.body, FAKE_ECONOME_FRAME_SIZE).slice(0, frames)).toEqual(expected);
  });
});

describe('the demo live stream’s limits', () => {
  it('counts the listeners of both mounts against DEMO_LIVE_MAX_LISTENERS', async () => {
    const config = testConfig({ demo: { ...testConfig().demo, audioDir: fakeAudioDir() } });
    config.limits = { ...config.limits, liveListeners: 1 };
    const app = await buildApi({ config });
    const base = await listen(app);
    let request: ClientRequest | undefined;
    try {
      // One listener on the normal mount, held open.
      await new Promise<void>((resolve, reject) => {
        request = get(`${base}/api/demo/live.mp3`, (response) => {
          response.once('data', () => {
            resolve();
          });
        });
        request.on('error', reject);
      });
      const refused = await app.inject({ url: '/api/demo/live-econome.mp3' });
      expect(refused.statusCode).toBe(503);
      expect(refused.json<ApiError>()).toEqual({
        error: 'too_many_listeners',
        message: 'Trop d’auditeurs sur le direct de démonstration.',
      });
    } finally {
      request?.destroy();
      await app.close();
    }
  });

  it('answers 503 on the light mount of a folder made before it, while the normal one plays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-old-'));
    mkdirSync(join(dir, 'replays'));
    writeFileSync(join(dir, DEMO_LIVE_FILE), fakeMp3(LOOP_FRAMES));
    const app = await buildApi({ config: testConfig({ demo: { ...testConfig().demo, audioDir: dir } }) });
    try {
      const base = await listen(app);
      expect((await firstBytes(`${base}/api/demo/live.mp3`, 10)).status).toBe(200);
      const missing = await app.inject({ url: '/api/demo/live-econome.mp3' });
      expect(missing.statusCode).toBe(503);
      expect(missing.json<ApiError>().error).toBe('demo_audio_missing');
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
