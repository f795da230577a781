import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { parseMp3, type Mp3Frames } from '../mp3';
import { demoMp3 } from './demo-mp3';
import { icecastMounts, within, type IcecastServer } from './icecast';

/**
 * What a source sends: the MP3's frames (`mp3`), or hostile bytes, with Content-Type audio/mpeg all
 * the same:
 * - `not-mp3`: text, endlessly (no frame sync in it);
 * - `garbage`: random bytes, endlessly (with the chance headers random bytes hold);
 * - `lying-header`: the MP3's frames with each header claiming a higher bitrate, so a length longer
 *   than the frame: the next header is never where the length says;
 * - `unended-frame`: one frame header, then zero bytes that never end it nor start another.
 */
export type SourceContent = 'mp3' | 'not-mp3' | 'garbage' | 'lying-header' | 'unended-frame';

export interface SourceOptions {
  /** The MP3 sent (looped). The demo's live by default. */
  mp3?: Buffer;
  /** Audio sent ahead of the clock when connecting (as an encoder's buffer). 1 s by default. */
  leadMs?: number;
  /** How often it sends what is due. 100 ms by default. */
  tickMs?: number;
  /** The `source` password (the server's by default): a wrong one is refused (401). */
  password?: string;
  /** What it sends once started ('mp3' by default); `send()` changes it mid-stream. */
  content?: SourceContent;
}

/** The bytes of a pseudo-random generator (xorshift32), the same from the same seed. */
function randomBytes(count: number, state: { seed: number }): Buffer {
  const bytes = Buffer.alloc(count);
  let x = state.seed;
  for (let i = 0; i < count; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  state.seed = x;
  return bytes;
}

/**
 * A source client of one mount. `start()` connects (PUT) and streams in real time until `stop()`;
 * `start()` again resumes where it stopped in the MP3 (a radio's encoder reconnecting).
 */
export class IcecastSource {
  /** MP3 frames sent in all (across connections). */
  framesSent = 0;
  /** Bytes sent in all, hostile ones included. */
  bytesSent = 0;
  /** Why the last connection ended, when Icecast ended it (null while connected or stopped by us). */
  endedBy: string | null = null;

  private readonly mp3: Buffer;
  private readonly frames: Mp3Frames;
  private readonly leadMs: number;
  private readonly tickMs: number;
  private readonly password: string;
  private content: SourceContent;
  private socket: Socket | null = null;
  private timer: NodeJS.Timeout | undefined;
  /** The position in the endless MP3 (frames) and, for hostile bytes, the byte clock. */
  private next = 0;
  private clock = { since: 0, sent: 0 };
  private readonly random = { seed: 0x2545f491 };
  private unendedHeaderSent = false;
  /** The frame the current connection started at. */
  private startFrame = 0;
  private readonly rate: number;

  constructor(
    private readonly server: Pick<IcecastServer, 'origin' | 'sourcePassword'>,
    readonly mount: string,
    options: SourceOptions = {},
  ) {
    this.mp3 = options.mp3 ?? demoMp3();
    this.frames = parseMp3(this.mp3);
    this.leadMs = options.leadMs ?? 1000;
    this.tickMs = options.tickMs ?? 100;
    this.password = options.password ?? server.sourcePassword;
    this.content = options.content ?? 'mp3';
    const total = this.frames.frames.reduce((sum, frame) => sum + frame.size, 0);
    this.rate = Math.round(total / this.frames.seconds);
  }

  /** Bytes per second of the MP3 (hostile content is sent at the same rate). */
  get bytesPerSecond(): number {
    return this.rate;
  }

  /** Playing time of one frame of the MP3, in ms. */
  get frameMs(): number {
    return this.frames.frameMs;
  }

  get connected(): boolean {
    return this.socket !== null && !this.socket.destroyed;
  }

  /**
   * Connects to the mount and starts sending; resolves once Icecast accepted the source (200) and
   * lists the mount. Rejects with Icecast's answer when refused (a wrong password: 401; the mount
   * fed by another source: 403).
   */
  async start(): Promise<void> {
    if (this.connected) return;
    const { hostname, port } = new URL(this.server.origin);
    const socket = connect(Number(port), hostname);
    socket.setNoDelay(true);
    const answer = await new Promise<string>((resolve, reject) => {
      let head = '';
      const onData = (chunk: Buffer) => {
        head += chunk.toString('latin1');
        if (head.includes('\r\n\r\n')) {
          socket.off('data', onData);
          resolve(head);
        }
      };
      socket.on('data', onData);
      socket.once('error', reject);
      socket.once('close', () => {
        resolve(head);
      });
      socket.once('connect', () => {
        const auth = Buffer.from(`source:${this.password}`).toString('base64');
        // No Content-Length and no chunked encoding: Icecast reads the body as the stream, until the
        // connection ends.
        socket.write(
          `PUT ${this.mount} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Basic ${auth}\r\n` +
            'User-Agent: collectif-tests\r\nContent-Type: audio/mpeg\r\nIce-Public: 0\r\n' +
            'Ice-Name: Collectif (tests)\r\n\r\n',
        );
      });
    });
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1];
    if (status !== '200') {
      socket.destroy();
      throw new Error(`Icecast refuse la source ${this.mount} : ${answer.split('\r\n')[0] ?? '(connexion fermée)'}`);
    }
    socket.removeAllListeners('error');
    socket.removeAllListeners('close');
    this.endedBy = null;
    socket.on('error', (error) => {
      this.endedBy = error.message;
    });
    socket.on('close', () => {
      if (this.socket === socket) {
        this.endedBy ??= 'connexion fermée par Icecast';
        this.halt();
      }
    });
    // Whatever Icecast sends after its answer is not read.
    socket.resume();
    this.socket = socket;
    this.clock = { since: Date.now(), sent: 0 };
    this.startFrame = this.next;
    this.pump();
    this.timer = setInterval(() => {
      this.pump();
    }, this.tickMs);
    for (
      let i = 0;
      i < 50 && !(await icecastMounts(this.server.origin, this.server.sourcePassword)).includes(this.mount);
      i += 1
    ) {
      await delay(50);
    }
  }

  /** Changes what the running source sends from now on (the connection stays). */
  send(content: SourceContent): void {
    this.content = content;
    this.unendedHeaderSent = false;
  }

  /** Ends the connection (Icecast drops the mount), and waits until Icecast no longer lists it. */
  async stop(): Promise<void> {
    const socket = this.socket;
    this.halt();
    if (socket === null) return;
    if (!socket.destroyed) {
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.end();
      await within(closed, 2000);
      socket.destroy();
    }
    for (
      let i = 0;
      i < 100 && (await icecastMounts(this.server.origin, this.server.sourcePassword)).includes(this.mount);
      i += 1
    ) {
      await delay(50);
    }
  }

  /** `stop()` under the name a test reads better at its end. */
  close(): Promise<void> {
    return this.stop();
  }

  private halt(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.socket = null;
  }

  /** Sends what the clock says is due, plus the lead. */
  private pump(): void {
    const socket = this.socket;
    if (socket === null || socket.destroyed) return;
    // Icecast not reading (stopped): nothing more is queued.
    if (socket.writableLength > 512 * 1024) return;
    const dueMs = Date.now() - this.clock.since + this.leadMs;
    const chunks: Buffer[] = [];
    if (this.content === 'mp3' || this.content === 'lying-header') {
      const target = this.startFrame + Math.floor(dueMs / this.frames.frameMs);
      const count = this.frames.frames.length;
      for (; this.next < target; this.next += 1) {
        const frame = this.frames.frames[this.next % count];
        if (frame === undefined) break;
        const bytes = Buffer.from(this.mp3.subarray(frame.offset, frame.offset + frame.size));
        if (this.content === 'lying-header') lie(bytes);
        chunks.push(bytes);
        this.framesSent += 1;
      }
      this.clock.sent = Math.floor((dueMs / 1000) * this.bytesPerSecond);
    } else {
      const target = Math.floor((dueMs / 1000) * this.bytesPerSecond);
      let due = Math.max(0, target - this.clock.sent);
      this.clock.sent = target;
      // The MP3's clock moves on too, so that a switch back to it resumes at real time.
      this.next = this.startFrame + Math.floor(dueMs / this.frames.frameMs);
      if (this.content === 'unended-frame' && !this.unendedHeaderSent && due > 0) {
        const first = this.frames.frames[0];
        if (first !== undefined) chunks.push(Buffer.from(this.mp3.subarray(first.offset, first.offset + 4)));
        this.unendedHeaderSent = true;
        due = Math.max(0, due - 4);
      }
      if (due > 0) {
        if (this.content === 'garbage') chunks.push(randomBytes(due, this.random));
        else if (this.content === 'unended-frame') chunks.push(Buffer.alloc(due, 0));
        else chunks.push(notMp3(due, this.clock.sent - due));
      }
    }
    if (chunks.length === 0) return;
    const data = Buffer.concat(chunks);
    this.bytesSent += data.length;
    socket.write(data);
  }
}

const NOT_MP3 = Buffer.from('<html><body><p>Ceci n’est pas un flux MP3.</p></body></html>\n');

/** `count` bytes of an endless text, from position `from`. */
function notMp3(count: number, from: number): Buffer {
  const bytes = Buffer.alloc(count);
  for (let i = 0; i < count; i += 1) bytes[i] = NOT_MP3[(from + i) % NOT_MP3.length] ?? 0x20;
  return bytes;
}

/** Rewrites a frame's header to claim the highest bitrate: a length longer than the frame. */
function lie(frame: Buffer): void {
  const b2 = frame[2] ?? 0;
  frame[2] = (b2 & 0x0f) | 0xe0;
}

/** Starts a source on a mount and waits until Icecast lists it. */
export async function startSource(
  server: Pick<IcecastServer, 'origin' | 'sourcePassword'>,
  mount: string,
  options: SourceOptions = {},
): Promise<IcecastSource> {
  const source = new IcecastSource(server, mount, options);
  await source.start();
  return source;
}
