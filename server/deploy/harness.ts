import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { PARTS } from '@collectif/shared';
import { readEvents } from '../src/api/testing/streams';
import { freePort, startRedis, type RedisServer } from './redis';
import { builtServerArgs, SERVER_ENV } from '../../scripts/server-command.mjs';

/**
 * The deployment as shipped (deploy/nginx.conf, deploy/collectif@.service, docs/deploy.md), for
 * real on loopback: Debian's nginx running that very file (ports, paths and TLS rewritten),
 * Debian's redis-server, and instances of the built server started as the unit starts them. Used
 * by the deployment tests (nginx.test.ts) and the benchmark (bench/deploy.mjs).
 */

// From the file's own name: loaded by jest or through tsx (bench/deploy.mjs), `__dirname` is not always set.
export const ROOT = join(dirname(__filename), '..', '..');

export interface Instance {
  port: number;
  /** Its own settings (DeploymentOptions.instanceEnv). */
  env: Record<string, string>;
  process: ChildProcess | null;
  /** What it wrote (its log). */
  log: string[];
}

export interface Deployment {
  /** nginx's address. */
  origin: string;
  /** The timeline's folder (every instance's LIVE_TIMESHIFT_DIR), served by nginx as /direct/. */
  timeshiftDir: string;
  /** The live archives' folder (every instance's LIVE_ARCHIVE_DIR), served by nginx as /archives/. */
  archiveDir: string;
  redis: RedisServer | null;
  /** The figures' Redis that keeps nothing on disk (FIGURES_REDIS_URL), with `redis`. */
  figuresRedis: RedisServer | null;
  instances: Instance[];
  /** Starts an instance as the unit does, and waits for its /readyz. */
  start(instance: Instance): Promise<void>;
  /** Stops an instance as systemd does (SIGTERM), and waits for it to have exited. */
  stop(instance: Instance): Promise<void>;
  /** nginx's error log. */
  errors(): string;
  /** nginx's access log. */
  accesses(): string;
  close(): Promise<void>;
}

export interface DeploymentOptions {
  instances: number;
  /** Without Redis, each instance alone (REDIS_URL unset). */
  redis?: boolean;
  /** Without nginx: the instances only. */
  nginx?: boolean;
  /** Settings of every instance, beside those of the unit. */
  env?: Record<string, string>;
  /**
   * Settings of one instance (by its place), beside those: `deployRoot` is the folder nginx serves
   * teams' deploys from (DEPLOY_ROOT of the instances that share its machine).
   */
  instanceEnv?: (index: number, paths: { deployRoot: string; dir: string }) => Record<string, string>;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** deploy/nginx.conf with this run's ports and folders, and without TLS. */
function nginxConfig(dir: string, port: number, instances: Instance[]): string {
  // The checkout as nginx's root, but with this run's DEPLOY_ROOT: links to the parts' folders, and
  // `deploys` to this run's.
  const root = join(dir, 'root');
  mkdirSync(root);
  for (const { folder } of PARTS) {
    symlinkSync(join(ROOT, folder), join(root, folder));
  }
  symlinkSync(join(dir, 'deploys'), join(root, 'deploys'));
  let conf = readFileSync(join(ROOT, 'deploy', 'nginx.conf'), 'utf8');
  const replace = (from: string | RegExp, to: string) => {
    const before = conf;
    conf = conf.replace(from, to);
    if (conf === before) throw new Error(`deploy/nginx.conf a changé : « ${String(from)} » introuvable`);
  };
  replace(/^user www-data;$/m, process.getuid?.() === 0 ? 'user root;' : '');
  replace('pid /run/nginx.pid;', `pid ${dir}/nginx.pid;`);
  replace(/access_log \S+ collectif;/, `access_log ${dir}/access.log collectif;`);
  replace(/error_log \S+ warn;/, `error_log ${dir}/error.log warn;`);
  replace(
    /server 127\.0\.0\.1:8081 (.*);\n(\s*)server 127\.0\.0\.1:8082 (.*);/,
    instances.map((instance) => `server 127.0.0.1:${String(instance.port)} $1;`).join('\n$2'),
  );
  replace('/var/cache/nginx/collectif', `${dir}/cache`);
  replace(/ {2}# BEGIN redirect[\s\S]*# END redirect\n/, '');
  // Both hosts' servers (the public one and the editor's) on the one port, told apart by Host.
  replace(/listen 443 ssl http2;\n\s*listen \[::\]:443 ssl http2;/g, `listen 127.0.0.1:${String(port)};`);
  replace(/\s*ssl_certificate \S+;\n\s*ssl_certificate_key \S+;/g, '');
  replace('server_name edition.radio.example.org;', 'server_name edition.localhost;');
  // The load generator (autocannon) reports as failed the request it sends on a keep-alive
  // connection that nginx closes after its 1000th request, where a browser sends it again: this
  // nginx keeps its connections for the whole run, so that only the site's failures count.
  replace(
    'http {',
    `http {\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  keepalive_requests 1000000;`,
  );
  replace('root /srv/collectif;', `root ${root};`);
  // The timeline's folder (LIVE_TIMESHIFT_DIR), this run's, where its instances record.
  if (!conf.includes('/srv/collectif/direct/'))
    throw new Error('deploy/nginx.conf a changé : /srv/collectif/direct/ introuvable');
  conf = conf.replaceAll('/srv/collectif/direct/', `${join(dir, 'direct')}/`);
  // The live archives' folder (LIVE_ARCHIVE_DIR), this run's, shared by its instances.
  if (!conf.includes('/srv/collectif/archives/'))
    throw new Error('deploy/nginx.conf a changé : /srv/collectif/archives/ introuvable');
  conf = conf.replaceAll('/srv/collectif/archives/', `${join(dir, 'archives')}/`);
  return conf.replaceAll('/srv/collectif', ROOT);
}

export async function startDeployment({
  instances: count,
  redis: withRedis = true,
  nginx: withNginx = true,
  env = {},
  instanceEnv = () => ({}),
}: DeploymentOptions): Promise<Deployment> {
  if (
    !existsSync(join(ROOT, 'shell', 'dist', 'document.json')) ||
    !existsSync(join(ROOT, 'server', 'dist', 'main.js'))
  ) {
    throw new Error('le site n’est pas construit : lancez « npm run build » avant les tests de déploiement');
  }
  const dir = mkdtempSync(join(tmpdir(), 'deploy-'));
  for (const sub of ['cache', 'body', 'proxy', 'deploys', 'direct', 'archives']) mkdirSync(join(dir, sub));
  // Debian's module files are named relative to nginx's prefix, here this run's folder.
  symlinkSync('/usr/lib/nginx/modules', join(dir, 'modules'));
  const redis = withRedis ? await startRedis() : null;
  // Beside it, the figures' Redis that keeps nothing on disk (FIGURES_REDIS_URL), as deploy/ ships it.
  const figuresRedis = withRedis ? await startRedis('figures') : null;
  const port = await freePort();
  const origin = `http://127.0.0.1:${String(port)}`;
  const instances: Instance[] = [];
  for (let i = 0; i < count; i += 1) {
    // Each instance its own content folder, as on separate machines (docs/content.md, « Several
    // instances »): what one saves reaches the other through Redis only, never through a shared disk.
    const own = {
      CONTENT_DIR: join(dir, `contenu-${String(i)}`),
      // The timeline's folder, one for the machine's instances, served by nginx as /direct/
      // (docs/deploy.md, « The timeline's segments »): only the instance holding the lease writes it.
      LIVE_TIMESHIFT_DIR: join(dir, 'direct'),
      // The live archives' folder, shared as the timeline's: the recorder's lease holder writes it.
      LIVE_ARCHIVE_DIR: join(dir, 'archives'),
      ...instanceEnv(i, { deployRoot: join(dir, 'deploys'), dir }),
    };
    instances.push({ port: await freePort(), env: own, process: null, log: [] });
  }

  async function start(instance: Instance): Promise<void> {
    // Started as in production (scripts/server-command.mjs): the same flags, the same environment.
    const child = spawn(process.execPath, builtServerArgs(), {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...SERVER_ENV,
        PORT: String(instance.port),
        HOST: '127.0.0.1',
        // The instances' shared key (docs/settings.md, SITE_SECRET): the same for each, never in Redis.
        ...(redis === null ? {} : { REDIS_URL: redis.url, SITE_SECRET: 'secret-partage-des-instances-de-test' }),
        ...(figuresRedis === null ? {} : { FIGURES_REDIS_URL: figuresRedis.url }),
        TRUST_PROXY: '127.0.0.1',
        SITE_ORIGIN: origin,
        LOG_LEVEL: 'warn',
        ...env,
        ...instance.env,
      },
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        instance.log.push(chunk.toString());
      });
    }
    instance.process = child;
    for (let i = 0; i < 300; i += 1) {
      if (await answers(`http://127.0.0.1:${String(instance.port)}/readyz`)) return;
      if (child.exitCode !== null) break;
      await delay(100);
    }
    throw new Error(`l'instance du port ${String(instance.port)} ne répond pas : ${instance.log.join('')}`);
  }

  async function stop(instance: Instance): Promise<void> {
    const child = instance.process;
    instance.process = null;
    if (child === null || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  await Promise.all(instances.map(start));
  let nginx: ChildProcess | null = null;
  if (withNginx) {
    const conf = join(dir, 'nginx.conf');
    writeFileSync(conf, nginxConfig(dir, port, instances));
    // Included by its name, found beside nginx.conf as in /etc/nginx (docs/deploy.md).
    copyFileSync(join(ROOT, 'deploy', 'security-headers.conf'), join(dir, 'security-headers.conf'));
    const check = spawnSync('nginx', ['-t', '-p', dir, '-c', conf], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`nginx refuse deploy/nginx.conf : ${check.stderr}`);
    nginx = spawn('nginx', ['-p', dir, '-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' });
    for (let i = 0; i < 100 && !(await answers(`${origin}/healthz`)); i += 1) await delay(100);
  }

  return {
    origin,
    timeshiftDir: join(dir, 'direct'),
    archiveDir: join(dir, 'archives'),
    redis,
    figuresRedis,
    instances,
    start,
    stop,
    errors: () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''),
    accesses: () => (existsSync(join(dir, 'access.log')) ? readFileSync(join(dir, 'access.log'), 'utf8') : ''),
    close: async () => {
      if (nginx !== null) {
        const running = nginx;
        const exited = new Promise((resolve) => running.once('exit', resolve));
        running.kill('SIGQUIT');
        await exited;
      }
      await Promise.all(instances.map(stop));
      await redis?.close();
      await figuresRedis?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One now-playing event as a listener got it. */
export interface HeardEvent {
  id: string;
  value: unknown;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/**
 * A listener of the now-playing stream that reconnects as EventSource does, with the last id it
 * got (`Last-Event-ID`), until stopped: what a visitor's player hears across a rolling restart.
 */
export function followStream(url: string): { heard: HeardEvent[]; stop(): Promise<void> } {
  const heard: HeardEvent[] = [];
  const state = { listening: true };
  // Read afresh each time: `stop()` changes it while the loops wait.
  const listening = () => state.listening;
  const followed = (async () => {
    while (listening()) {
      const last = heard.at(-1)?.id;
      try {
        const listener = await readEvents(url, last === undefined ? {} : { 'last-event-id': last });
        let seen = 0;
        while (listening() && !listener.response.readableEnded && !listener.response.destroyed) {
          for (; seen < listener.events.length; seen += 1) {
            heard.push({ id: listener.ids[seen] ?? '', value: listener.events[seen], at: Date.now() });
          }
          await delay(10);
        }
        listener.close();
      } catch {
        await delay(100);
      }
    }
  })();
  return {
    heard,
    stop: async () => {
      state.listening = false;
      await followed;
    },
  };
}
