import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../../../../scripts/ports.mjs';
import { escapeHtml } from '@collectif/shared/seo';

/**
 * A real Icecast for the timeline's tests (docs/deploy.md, « The timeline's segments »): Debian's
 * icecast2 on a free loopback port, with a configuration of its own in a temporary folder, and
 * source clients that feed its mounts as a radio's encoder does (Icecast's source protocol: HTTP
 * PUT on the mount, Basic authentication as `source`), paced in real time from the demo's MP3, or
 * with hostile bytes (icecast-source.ts), and listeners that read them (listener.ts).
 */

/** Debian's, or another Icecast 2.4 named by ICECAST_PATH (as `npm run doctor` checks it). */
export const ICECAST_BIN = process.env.ICECAST_PATH ?? '/usr/bin/icecast2';

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
  /** The port tried first, for this helper's own tests; a free one otherwise. */
  firstPort?: number;
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
  <location>${escapeHtml(basename(dir))}</location>
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
export async function within(promise: Promise<unknown>, ms: number): Promise<void> {
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

/**
 * A real Icecast for a test, on ports of its own. Started again on other ports, up to three times,
 * when it does not answer: a port found free may be taken by another process before Icecast binds it
 * (the deployment tests run beside jest's), and a loaded machine may start it slowly.
 */
export async function startIcecast(options: IcecastOptions = {}): Promise<IcecastServer> {
  let failure: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return await startIcecastOnce(options, attempt === 0 ? options.firstPort : undefined);
    } catch (error) {
      failure = error;
      if (error instanceof Error && error.message.startsWith('Icecast introuvable')) break;
    }
  }
  throw failure;
}

/**
 * Starts Icecast and waits until it answers its status page, naming its own folder there (its
 * `location`): another test's Icecast that took the port first answers that page too, and a source
 * sent to it was refused (ECONNRESET, seen once on CI).
 */
async function startIcecastOnce(options: IcecastOptions, firstPort?: number): Promise<IcecastServer> {
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
  const port = firstPort ?? (await freePort());
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

  // Up to 20 s: a loaded machine starts it slowly.
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const status = await getText(`${origin}/status-json.xsl`, 500);
    if (status?.status === 200 && status.body.includes(`"${basename(dir)}"`)) {
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
