import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { freePort } from '../../scripts/ports.mjs';

// A loopback port nobody listens on now: the one probe of the repository.
export { freePort };

// From the file's own name, as harness.ts does (loaded by jest or through tsx).
const DEPLOY = join(dirname(__filename), '..', '..', 'deploy');

/** The site's user in deploy/redis-collectif.acl, and the placeholder of its password's hash. */
export const REDIS_USER = 'collectif';
const PLACEHOLDER = '#PASSWORD_SHA256';

/** A command, key or channel Redis refused to the site's user (ACL LOG). */
export interface Denial {
  /** command, key or channel. */
  reason: string;
  /** The command's name, or the key or channel refused. */
  object: string;
  /** toplevel, or lua when a script ran it. */
  context: string;
}

/**
 * Debian's redis-server on a loopback port of its own, in a folder of its own, persisting nothing:
 * what the deployment tests share state through. Set up as docs/deploy.md « Redis » says: the
 * repository's deploy/redis.conf and deploy/redis-collectif.acl themselves (the port and paths
 * rewritten, a random password's SHA-256 in the placeholder), so the default user is off and every
 * instance connects as the site's ACL user. It can be stopped and started again on the same port
 * (Redis going away and coming back).
 *
 * Whatever Redis refuses the site's user (a command the ACL file lacks, a key outside collectif:)
 * is kept from its ACL LOG, and `close` throws with it: a test whose site needs more than the file
 * allows fails, even where the site goes on without Redis.
 */
export interface RedisServer {
  /** As the site's user: `redis://collectif:<password>@127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Its working folder (--dir), where a save would write. */
  dir: string;
  /** Runs a command as the tests' own user (every command allowed), e.g. SAVE or GET. */
  run(command: string, ...args: string[]): Promise<unknown>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** What Redis refused the site's user since the last call (then forgotten). */
  denials(): Promise<Denial[]>;
  /** Stops Redis; throws if it refused the site's user anything `denials` did not take. */
  close(): Promise<void>;
}

/**
 * Which of deploy/'s two Redis: the instances' (redis.conf, redis-collectif.acl), or the figures'
 * that keeps nothing on disk (redis-figures.conf, redis-figures.acl).
 */
export type RedisRole = 'collectif' | 'figures';
const FILES: Record<RedisRole, { conf: string; acl: string }> = {
  collectif: { conf: 'redis.conf', acl: 'redis-collectif.acl' },
  figures: { conf: 'redis-figures.conf', acl: 'redis-figures.acl' },
};

/** The ACL file as deploy/ ships it, with the site's user's password. */
export function deployAcl(password: string, role: RedisRole = 'collectif'): string {
  const acl = readFileSync(join(DEPLOY, FILES[role].acl), 'utf8');
  if (acl.split(PLACEHOLDER).length !== 2) {
    throw new Error(`deploy/${FILES[role].acl} a changé : « ${PLACEHOLDER} » attendu une fois`);
  }
  return acl.replace(PLACEHOLDER, `#${createHash('sha256').update(password).digest('hex')}`);
}

function answers(port: number, user: string, password: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.write(`AUTH ${user} ${password}\r\nPING\r\n`);
    });
    let said = '';
    socket.on('data', (data) => {
      said += data.toString();
      if (!said.includes('\r\n', said.indexOf('\r\n') + 2)) return;
      socket.destroy();
      resolve(said.includes('+PONG'));
    });
    socket.once('error', () => {
      resolve(false);
    });
  });
}

/** ACL LOG's entries (flat lists of names and values) as the site's user's denials. */
function asDenials(log: unknown): Denial[] {
  if (!Array.isArray(log)) return [];
  return log.flatMap((entry: unknown) => {
    if (!Array.isArray(entry)) return [];
    const fields = new Map<string, string>();
    for (let i = 0; i + 1 < entry.length; i += 2) fields.set(String(entry[i]), String(entry[i + 1]));
    const reason = fields.get('reason') ?? '';
    // A wrong password is logged too (reason auth): the tests try some on purpose. CLIENT SETINFO is
    // left out of the file on purpose (deploy/redis.conf): ioredis sends it on Redis 7.2 and later
    // and goes on when refused, and Redis 7.0 knows no rule for it.
    if (fields.get('username') !== REDIS_USER || reason === 'auth') return [];
    if (reason === 'command' && fields.get('object') === 'client|setinfo') return [];
    return [{ reason, object: fields.get('object') ?? '', context: fields.get('context') ?? '' }];
  });
}

/**
 * Starts one of deploy/'s Redis. The instances' persists nothing here (--save "", --appendonly no:
 * a test's folder); the figures' runs with its file's own word on the disk, which is what its
 * tests check.
 */
export async function startRedis(role: RedisRole = 'collectif'): Promise<RedisServer> {
  const port = await freePort();
  const password = randomBytes(18).toString('base64url');
  // The tests' own user, beside the file's: to see Redis answer and read its ACL LOG. Only this
  // process knows its password.
  const tester = { user: 'tests', password: randomBytes(18).toString('base64url') };
  const dir = mkdtempSync(join(tmpdir(), 'redis-'));
  const aclFile = join(dir, 'users.acl');
  writeFileSync(aclFile, `${deployAcl(password, role)}user ${tester.user} on >${tester.password} ~* &* +@all\n`);
  let child: ChildProcess | null = null;
  const denied: Denial[] = [];

  /** A connection as the tests' own user, for `work`, then closed. */
  const asTester = async <T>(work: (admin: Redis) => Promise<T>): Promise<T> => {
    const admin = new Redis(port, '127.0.0.1', {
      username: tester.user,
      password: tester.password,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 1000,
    });
    admin.on('error', () => undefined);
    try {
      await admin.connect();
      return await work(admin);
    } finally {
      admin.disconnect();
    }
  };

  /** Takes ACL LOG's new entries into `denied` (nothing when Redis does not answer). */
  const collect = async () => {
    try {
      const results = await asTester((admin) =>
        admin.multi().call('ACL', 'LOG', '1000').call('ACL', 'LOG', 'RESET').exec(),
      );
      denied.push(...asDenials(results?.[0]?.[1]));
    } catch {
      // Stopped already: what it had logged is gone with it.
    }
  };

  const start = async () => {
    child = spawn(
      'redis-server',
      [
        join(DEPLOY, FILES[role].conf),
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--aclfile',
        aclFile,
        ...(role === 'collectif' ? ['--save', '', '--appendonly', 'no'] : []),
        '--dir',
        dir,
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i += 1) {
      if (await answers(port, tester.user, tester.password)) return;
      await delay(50);
    }
    throw new Error(`redis-server ne répond pas sur le port ${String(port)}`);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null) return;
    await collect();
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://${REDIS_USER}:${password}@127.0.0.1:${String(port)}`,
    port,
    dir,
    run: (command, ...args) => asTester((admin) => admin.call(command, ...args)),
    start,
    stop,
    denials: async () => {
      await collect();
      return denied.splice(0);
    },
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
      if (denied.length > 0) {
        throw new Error(
          `Redis a refusé au site (deploy/redis-collectif.acl) : ${denied.map((d) => `${d.reason} ${d.object} (${d.context})`).join(', ')}`,
        );
      }
    },
  };
}
