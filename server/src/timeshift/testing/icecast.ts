import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { get as httpsGet } from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../../../../scripts/ports.mjs';
import { parseMp3, readFrameHeader, type Mp3Frames } from '../../api/demo/mp3';
import { escapeHtml } from '@collectif/shared/seo';

/**
 * A real Icecast for the timeline's tests (docs/deploy.md, « The timeline's segments »): Debian's
 * icecast2 on a free loopback port, with a configuration of its own in a temporary folder, and
 * source clients that feed its mounts as a radio's encoder does (Icecast's source protocol: HTTP
 * PUT on the mount, Basic authentication as `source`), paced in real time from the demo's MP3, or
 * with hostile bytes.
 */

/** Debian's, or another Icecast 2.4 named by ICECAST_PATH (as `npm run doctor` checks it). */
export const ICECAST_BIN = process.env.ICECAST_PATH ?? '/usr/bin/icecast2';

// From the file's own name: loaded by jest or through tsx (a bench), `__dirname` is not always set.
const SERVER_DIR = join(dirname(__filename), '..', '..', '..');
const DEMO_DIR = join(SERVER_DIR, '.demo');
const DEMO_SCRIPT = join(SERVER_DIR, 'scripts', 'demo-audio.mjs');

export interface IcecastServer {
  port: number;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** The `source` user's password. */
  sourcePassword: string;
  /** Its temporary folder: configuration, logs, pid. */
  dir: string;
  /**
   * With `tls`: a second port where listeners read the mounts over TLS, its certificate (for
   * 127.0.0.1, self-signed) to trust (NODE_EXTRA_CA_CERTS of a process that reads it), and a mount's
   * https address, which LIVE_RENDITIONS accepts (https:// or a path of the site). Null without.
   */
  tls: { port: number; origin: string; caFile: string; url(mount: string): string } | null;
  /** A mount's address for listeners (`/normale.mp3` → `http://127.0.0.1:<port>/normale.mp3`). */
  url(mount: string): string;
  /** The mounts a source feeds now, from Icecast's status. */
  mounts(): Promise<string[]>;
  /** Icecast's error log (where it says which source came and went). */
  log(): string;
  /** Stops it (SIGTERM, then waits for its exit) and removes its folder. */
  stop(): Promise<void>;
}

export interface IcecastOptions {
  /** Seconds without data after which Icecast drops a source (its `source-timeout`; 10 by default). */
  sourceTimeoutS?: number;
  /** Bytes a new listener gets at once (`burst-size`; 0 turns the burst off). 65,535 by default. */
  burstBytes?: number;
  /** A second port, over TLS, for listeners (IcecastServer.tls). Off by default. */
  tls?: boolean;
}

/** A user and group of the system by name, from /etc/passwd and /etc/group. */
function systemId(file: string, name: string): number | null {
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .find((each) => each.startsWith(`${name}:`));
  const id = line?.split(':')[2];
  return id === undefined ? null : Number(id);
}

/** The user Icecast runs as when started by root: it refuses to run as root itself. */
function unprivileged(): { user: string; group: string; uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = systemId('/etc/passwd', 'nobody');
  const group = systemId('/etc/group', 'nogroup') === null ? 'nobody' : 'nogroup';
  const gid = systemId('/etc/group', group);
  if (uid === null || gid === null)
    throw new Error('ni utilisateur nobody ni groupe nogroup : Icecast refuse de tourner en root');
  return { user: 'nobody', group, uid, gid };
}

function icecastConfig(
  dir: string,
  port: number,
  password: string,
  options: IcecastOptions,
  tls: { port: number; pem: string } | null,
): string {
  const owner = unprivileged();
  return `<icecast>
  <location>tests</location>
  <admin>tests@localhost</admin>
  <limits>
    <clients>100</clients>
    <sources>16</sources>
    <queue-size>524288</queue-size>
    <client-timeout>30</client-timeout>
    <header-timeout>15</header-timeout>
    <source-timeout>${String(options.sourceTimeoutS ?? 10)}</source-timeout>
    <burst-on-connect>${options.burstBytes === 0 ? '0' : '1'}</burst-on-connect>
    <burst-size>${String(options.burstBytes ?? 65535)}</burst-size>
  </limits>
  <authentication>
    <source-password>${escapeHtml(password)}</source-password>
    <relay-password>${escapeHtml(password)}</relay-password>
    <admin-user>admin</admin-user>
    <admin-password>${escapeHtml(password)}</admin-password>
  </authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket>
    <port>${String(port)}</port>
    <bind-address>127.0.0.1</bind-address>
  </listen-socket>${
    tls === null
      ? ''
      : `
  <listen-socket>
    <port>${String(tls.port)}</port>
    <bind-address>127.0.0.1</bind-address>
    <ssl>1</ssl>
  </listen-socket>`
  }
  <fileserve>1</fileserve>
  <paths>
    <basedir>${escapeHtml(dir)}</basedir>
    <logdir>${escapeHtml(dir)}</logdir>
    <pidfile>${escapeHtml(join(dir, 'icecast.pid'))}</pidfile>
    <webroot>/usr/share/icecast2/web</webroot>
    <adminroot>/usr/share/icecast2/admin</adminroot>${
      tls === null
        ? ''
        : `
    <ssl-certificate>${escapeHtml(tls.pem)}</ssl-certificate>`
    }
  </paths>
  <logging>
    <accesslog>access.log</accesslog>
    <errorlog>error.log</errorlog>
    <loglevel>3</loglevel>
  </logging>
  <security>
    <chroot>0</chroot>${
      owner === null
        ? ''
        : `
    <changeowner>
      <user>${owner.user}</user>
      <group>${owner.group}</group>
    </changeowner>`
    }
  </security>
</icecast>
`;
}

/** Waits for a promise, or `ms` at most (its timer cleared either way: no handle left open). */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise,
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

/**
 * A self-signed certificate for 127.0.0.1 (openssl), its key beside it in the one PEM file Icecast
 * reads, readable by the user Icecast becomes; the certificate alone in `caFile`, for whoever trusts it.
 */
function selfSigned(dir: string, owner: { uid: number; gid: number } | null): { pem: string; caFile: string } {
  const key = join(dir, 'tls.key');
  const caFile = join(dir, 'tls.crt');
  const made = spawnSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', caFile],
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0)
    throw new Error(`certificat de test non créé (openssl) : ${made.stderr || String(made.error)}`);
  const pem = join(dir, 'tls.pem');
  writeFileSync(pem, readFileSync(caFile, 'utf8') + readFileSync(key, 'utf8'), { mode: 0o600 });
  if (owner !== null) chownSync(pem, owner.uid, owner.gid);
  return { pem, caFile };
}

/** GET with a deadline: the status and body, or null when nothing answered. */
function getText(
  url: string,
  timeoutMs = 2000,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string } | null> {
  return new Promise((resolve) => {
    const request = get(url, { timeout: timeoutMs, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body });
      });
      response.on('error', () => {
        resolve(null);
      });
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => {
      resolve(null);
    });
  });
}

/** Starts Icecast and waits until it answers its status page. */
export async function startIcecast(options: IcecastOptions = {}): Promise<IcecastServer> {
  if (!existsSync(ICECAST_BIN)) {
    throw new Error(
      `Icecast introuvable (${ICECAST_BIN}) : sudo apt-get install -y icecast2 ou indiquez ICECAST_PATH (.ci/run l’installe)`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'icecast-'));
  const owner = unprivileged();
  // Icecast opens its logs once it has become that user: the folder is theirs.
  if (owner !== null) chownSync(dir, owner.uid, owner.gid);
  else chmodSync(dir, 0o700);
  const port = await freePort();
  const password = `source-${String(process.pid)}-${String(port)}`;
  const tls = options.tls === true ? { port: await freePort(), ...selfSigned(dir, owner) } : null;
  const config = join(dir, 'icecast.xml');
  writeFileSync(config, icecastConfig(dir, port, password, options, tls));
  const output: string[] = [];
  const child: ChildProcess = spawn(ICECAST_BIN, ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
    });
  }
  const origin = `http://127.0.0.1:${String(port)}`;
  const log = () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '');
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  const running = () => child.exitCode === null && child.signalCode === null;

  async function stop(): Promise<void> {
    if (running()) {
      child.kill('SIGTERM');
      await within(exited, 5000);
      if (running()) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }

  for (let i = 0; i < 100; i += 1) {
    if ((await getText(`${origin}/status-json.xsl`, 500))?.status === 200) {
      return {
        port,
        origin,
        sourcePassword: password,
        dir,
        tls:
          tls === null
            ? null
            : {
                port: tls.port,
                origin: `https://127.0.0.1:${String(tls.port)}`,
                caFile: tls.caFile,
                url: (mount) => `https://127.0.0.1:${String(tls.port)}${mount}`,
              },
        url: (mount) => `${origin}${mount}`,
        mounts: () => icecastMounts(origin, password),
        log,
        stop,
      };
    }
    if (child.exitCode !== null) break;
    await delay(100);
  }
  const said = `${output.join('')}${log()}`;
  await stop();
  throw new Error(`Icecast ne répond pas sur le port ${String(port)} : ${said}`);
}

/**
 * The mounts a source feeds now, from Icecast's admin list (its status-json.xsl writes broken JSON
 * in 2.4.4 once a source is up). The admin's password is the source's in this configuration.
 */
export async function icecastMounts(origin: string, password: string): Promise<string[]> {
  const list = await getText(`${origin}/admin/listmounts`, 2000, {
    authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`,
  });
  if (list?.status !== 200) return [];
  return [...list.body.matchAll(/<source mount="([^"]*)"/g)].map((match) => match[1] ?? '');
}

/**
 * One of the demo's MP3 files (server/.demo: `live.mp3`, the normal live; `live-econome.mp3`, the
 * light one), generated first when missing (server/scripts/demo-audio.mjs, a few seconds).
 */
export function demoMp3(file = 'live.mp3'): Buffer {
  const path = join(DEMO_DIR, file);
  if (!existsSync(path)) {
    spawnSync(process.execPath, [DEMO_SCRIPT, DEMO_DIR], { stdio: 'ignore' });
  }
  if (!existsSync(path)) throw new Error(`fichier de démonstration absent après génération : ${file}`);
  return readFileSync(path);
}

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

/**
 * What a listener of a mount receives: its status and content type, then bytes until `bytes` have
 * arrived or `timeoutMs` has passed (whichever first), then it hangs up. Over https with `caFile`
 * trusted (IcecastServer.tls).
 */
export function listen(
  url: string,
  { bytes, timeoutMs = 10_000, caFile }: { bytes: number; timeoutMs?: number; caFile?: string },
): Promise<{ status: number; contentType: string; data: Buffer }> {
  return new Promise((resolve, reject) => {
    const options = caFile === undefined ? {} : { ca: readFileSync(caFile) };
    const request = (url.startsWith('https:') ? httpsGet : get)(url, options, (response) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const finish = () => {
        clearTimeout(timer);
        request.destroy();
        resolve({
          status: response.statusCode ?? 0,
          contentType: response.headers['content-type'] ?? '',
          data: Buffer.concat(chunks),
        });
      };
      const timer = setTimeout(finish, timeoutMs);
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        length += chunk.length;
        if (length >= bytes) finish();
      });
      response.on('end', finish);
      response.on('error', finish);
    });
    request.on('error', reject);
  });
}

/**
 * The MP3 frames in a listener's bytes: from the first place where a header's length leads to
 * another header, every frame chained so, until the bytes stop being frames. A listener joins
 * mid-stream, so what comes before the first such place is skipped.
 */
export function mp3FramesIn(data: Uint8Array): { offset: number; size: number }[] {
  for (let start = 0; start + 4 <= data.length; start += 1) {
    const first = readFrameHeader(data, start);
    if (first === null || readFrameHeader(data, start + first.size) === null) continue;
    const frames: { offset: number; size: number }[] = [];
    let at = start;
    for (let header = readFrameHeader(data, at); header !== null; header = readFrameHeader(data, at)) {
      if (at + header.size > data.length) break;
      frames.push({ offset: at, size: header.size });
      at += header.size;
    }
    return frames;
  }
  return [];
}
