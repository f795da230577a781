import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAKE_FRAME_SIZE, fakeMp3, manualClock } from '../testing/fixtures';
import { LiveBroadcast } from './live';
import { parseMp3 } from '../../timeshift/mp3';

const LOOP_FRAMES = 100;
const data = fakeMp3(LOOP_FRAMES);
const loop = parseMp3(data);
const frameMs = loop.frameMs;
const leadFrames = 10;

let server: Server;
let broadcast: LiveBroadcast;
let clock: ReturnType<typeof manualClock>;

/** A listener over real HTTP; `frames()` lists the loop index of every frame received so far. */
interface Ear {
  response: IncomingMessage;
  bytes: () => number;
  frames: () => number[];
  until: (count: number) => Promise<void>;
}

function listen(): Promise<Ear> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve) => {
    get(`http://127.0.0.1:${String(port)}/`, (response) => {
      const chunks: Buffer[] = [];
      const waiters: { count: number; done: () => void }[] = [];
      const received = () => Buffer.concat(chunks);
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        const frames = received().length / FAKE_FRAME_SIZE;
        for (const waiter of waiters.filter((w) => frames >= w.count)) waiter.done();
      });
      resolve({
        response,
        bytes: () => received().length,
        frames: () => {
          const all = received();
          const indices: number[] = [];
          for (let at = 0; at + FAKE_FRAME_SIZE <= all.length; at += FAKE_FRAME_SIZE) indices.push(all[at + 4] ?? -1);
          return indices;
        },
        until: (count) =>
          new Promise((done) => {
            if (received().length / FAKE_FRAME_SIZE >= count) done();
            else waiters.push({ count, done });
          }),
      });
    });
  });
}

beforeEach(async () => {
  // The clock stands at frame 1234 of the shared timeline: loop frame 34.
  clock = manualClock(Math.ceil(1234 * frameMs));
  broadcast = new LiveBroadcast(data, loop, { leadMs: leadFrames * frameMs, tickMs: 5, now: clock.now });
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'audio/mpeg' });
    broadcast.attach(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterEach(async () => {
  broadcast.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('LiveBroadcast', () => {
  it('starts a new listener at the current point of the loop, with a lead of whole frames', async () => {
    const ear = await listen();
    await ear.until(leadFrames);
    const start = broadcast.currentFrame() % LOOP_FRAMES;
    expect(start).toBe(34);
    expect(ear.frames().slice(0, leadFrames)).toEqual(Array.from({ length: leadFrames }, (_, i) => start + i));
    expect(ear.bytes() % FAKE_FRAME_SIZE).toBe(0);
  });

  it('gives every listener the same point of the loop', async () => {
    const first = await listen();
    const second = await listen();
    await Promise.all([first.until(leadFrames), second.until(leadFrames)]);
    expect(second.frames().slice(0, leadFrames)).toEqual(first.frames().slice(0, leadFrames));
  });

  it('sends frames as the clock moves, without gap or repeat, looping at the end', async () => {
    const ear = await listen();
    await ear.until(leadFrames);
    for (let step = 1; step <= 10; step += 1) {
      clock.advance(8 * frameMs);
      await ear.until(leadFrames + 8 * step);
    }
    const frames = ear.frames();
    expect(frames).toHaveLength(leadFrames + 80);
    frames.forEach((frame, i) => {
      expect(frame).toBe((34 + i) % LOOP_FRAMES);
    });
  });

  it('after a long stall, skips ahead to the clock instead of flooding the listener', async () => {
    const ear = await listen();
    await ear.until(leadFrames);
    clock.advance(80 * frameMs);
    await ear.until(leadFrames + 2 * leadFrames);
    const frames = ear.frames();
    expect(frames).toHaveLength(3 * leadFrames);
    expect(frames[leadFrames]).toBe((34 + 80 - leadFrames) % LOOP_FRAMES);
    expect(frames.at(-1)).toBe((34 + 80 + leadFrames - 1) % LOOP_FRAMES);
  });

  it('forgets listeners that leave and ends every stream on close', async () => {
    const leaving = await listen();
    const staying = await listen();
    await Promise.all([leaving.until(1), staying.until(1)]);
    expect(broadcast.listenerCount).toBe(2);
    const left = new Promise((resolve) => server.once('request', resolve).on('close', resolve));
    leaving.response.destroy();
    await Promise.race([left, new Promise((resolve) => setImmediate(resolve))]);
    const ended = new Promise((resolve) => staying.response.on('end', resolve));
    broadcast.close();
    await ended;
    expect(broadcast.listenerCount).toBe(0);
  });
});
