import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import { startFakeUpstream, type FakeUpstream } from '../src/api/testing/fake-upstream';
import { readEvents } from '../src/api/testing/streams';
import { freePort, startRedis, type RedisServer } from './redis';

// The deployment as shipped (deploy/nginx.conf, docs/deploy.md), for real on loopback: Debian's
// nginx running that very file (ports, paths and TLS rewritten), Debian's redis-server, and two
// instances of the built site started as the service starts them.

const ROOT = join(__dirname, '..', '..');
const TRACK_PER_MINUTE = 6;

let redis: RedisServer;
let upstream: FakeUpstream;
let song = 1;
let dir: string;
let nginx: ChildProcess | undefined;
let origin: string;

interface Instance {
  port: number;
  process: ChildProcess | null;
  log: string[];
}
const instances: Instance[] = [];

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** Starts an instance as the systemd unit does (deploy/collectif@.service), and waits for it. */
async function start(instance: Instance): Promise<void> {
  const child = spawn(process.execPath, ['--max-old-space-size=256', 'server/dist/main.js'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(instance.port),
      HOST: '127.0.0.1',
      REDIS_URL: redis.url,
      TRUST_PROXY: '127.0.0.1',
      SITE_ORIGIN: origin,
      LOG_LEVEL: 'warn',
      AZURACAST_NOWPLAYING_URL: `${upstream.url}/api/nowplaying`,
      NOWPLAYING_TTL_S: '1',
      RATE_LIMIT_TRACK_PER_MIN: String(TRACK_PER_MINUTE),
      RENDER_WORKERS: '1',
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
    await delay(100);
  }
  throw new Error(`l'instance du port ${String(instance.port)} ne répond pas : ${instance.log.join('')}`);
}

/** Stops an instance as systemd does (SIGTERM), and waits for it to have exited. */
async function stop(instance: Instance): Promise<void> {
  const child = instance.process;
  instance.process = null;
  if (child === null || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** deploy/nginx.conf with this run's ports and folders, and without TLS. */
function testConfig(nginxPort: number): string {
  let conf = readFileSync(join(ROOT, 'deploy', 'nginx.conf'), 'utf8');
  const replace = (from: string | RegExp, to: string) => {
    const before = conf;
    conf = conf.replace(from, to);
    if (conf === before) throw new Error(`deploy/nginx.conf a changé : « ${String(from)} » introuvable`);
  };
  replace(/^user www-data;$/m, process.getuid?.() === 0 ? 'user root;' : '');
  replace('pid /run/nginx.pid;', `pid ${dir}/nginx.pid;`);
  replace(/access_log \S+;/, `access_log ${dir}/access.log;`);
  replace(/error_log \S+ warn;/, `error_log ${dir}/error.log warn;`);
  replace(
    /server 127\.0\.0\.1:8081 (.*);\n(\s*)server 127\.0\.0\.1:8082 (.*);/,
    instances.map((instance) => `server 127.0.0.1:${String(instance.port)} $1;`).join('\n$2'),
  );
  replace('/var/cache/nginx/collectif', `${dir}/cache`);
  replace(/ {2}# BEGIN redirect[\s\S]*# END redirect\n/, '');
  replace(/listen 443 ssl http2;\n\s*listen \[::\]:443 ssl http2;/, `listen 127.0.0.1:${String(nginxPort)};`);
  replace(/\s*ssl_certificate \S+;\n\s*ssl_certificate_key \S+;/, '');
  // The load generator (autocannon) reports as failed the request it sends on a keep-alive
  // connection that nginx closes after its 1000th request, where a browser sends it again: the
  // test's nginx keeps its connections for the whole test, so that only the site's failures count.
  replace(
    'http {',
    `http {\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  keepalive_requests 1000000;`,
  );
  conf = conf.replaceAll('/srv/collectif', ROOT);
  return conf;
}

beforeAll(async () => {
  if (
    !existsSync(join(ROOT, 'shell', 'dist', 'document.json')) ||
    !existsSync(join(ROOT, 'server', 'dist', 'main.js'))
  ) {
    throw new Error('le site n’est pas construit : lancez « npm run build » avant les tests de déploiement');
  }
  dir = mkdtempSync(join(tmpdir(), 'deploy-'));
  for (const sub of ['cache', 'body', 'proxy']) mkdirSync(join(dir, sub));
  // Debian's module files are named relative to nginx's prefix, here this run's folder.
  symlinkSync('/usr/lib/nginx/modules', join(dir, 'modules'));
  redis = await startRedis();
  upstream = await startFakeUpstream();
  upstream.on('/api/nowplaying', (_request, response) => {
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify([{ now_playing: { song: { artist: 'Axonberg', title: `Titre ${String(song)}` } } }]));
  });
  const nginxPort = await freePort();
  origin = `http://127.0.0.1:${String(nginxPort)}`;
  for (let i = 0; i < 2; i += 1) instances.push({ port: await freePort(), process: null, log: [] });
  await Promise.all(instances.map(start));

  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, testConfig(nginxPort));
  const check = spawnSync('nginx', ['-t', '-p', dir, '-c', conf], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx refuse deploy/nginx.conf : ${check.stderr}`);
  nginx = spawn('nginx', ['-p', dir, '-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' });
  for (let i = 0; i < 100 && !(await answers(`${origin}/healthz`)); i += 1) await delay(100);
}, 90_000);

afterAll(async () => {
  nginx?.kill('SIGQUIT');
  await Promise.all(instances.map(stop));
  await upstream.close();
  await redis.close();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe('the site behind nginx, two instances sharing Redis', () => {
  it('serves the built files itself: hashed names for a year, brotli as built, from any origin', async () => {
    const manifest = (await (await fetch(`${origin}/mf-player/mf-manifest.json`)).json()) as {
      metaData: { remoteEntry: { name: string } };
      exposes: { assets: { js: { sync: string[] } } }[];
    };
    const chunk = manifest.exposes[0]?.assets.js.sync[0] ?? '';
    const res = await fetch(`${origin}/mf-player/${chunk}`, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // Not proxied: no cache status, no instance's headers.
    expect(res.headers.get('x-proxy-cache')).toBeNull();
    const entry = await fetch(`${origin}/mf-player/remoteEntry.js`);
    expect(entry.headers.get('cache-control')).toBe('no-cache');
  });

  it('keeps pages within s-maxage, never with a visitor’s cookie in them', async () => {
    const first = await fetch(`${origin}/label`, { headers: { cookie: 'XSRF-TOKEN=secret-du-visiteur' } });
    const body = await first.text();
    expect(first.status).toBe(200);
    expect(body).toContain('id="ssr-state"');
    expect(body).not.toContain('secret-du-visiteur');
    const second = await fetch(`${origin}/label`, { headers: { cookie: 'XSRF-TOKEN=autre-visiteur' } });
    expect(second.headers.get('x-proxy-cache')).toBe('HIT');
    const again = await second.text();
    expect(again).not.toContain('autre-visiteur');
    expect(again).not.toContain('secret-du-visiteur');
    // The API is never kept here: its answers are the visitor's (`private`).
    await fetch(`${origin}/api/islive`);
    expect((await fetch(`${origin}/api/islive`)).headers.get('x-proxy-cache')).toBeNull();
  });

  it('refuses requests spread over both instances at the shared count', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < TRACK_PER_MINUTE + 2; i += 1) {
      statuses.push((await fetch(`${origin}/api/track/soundcloud:tracks:${String(i)}`)).status);
    }
    expect(statuses.slice(0, TRACK_PER_MINUTE).includes(429)).toBe(false);
    expect(statuses.slice(TRACK_PER_MINUTE)).toEqual([429, 429]);
  });

  it('restarts both instances in turn under load with no failed request, and the stream loses nothing', async () => {
    // A listener that reconnects as EventSource does (with Last-Event-ID), through nginx.
    const ids: string[] = [];
    const titles: string[] = [];
    let listening = true;
    const listen = async () => {
      while (listening) {
        const last = ids.at(-1);
        try {
          const listener = await readEvents(
            `${origin}/api/nowplaying/events`,
            last === undefined ? {} : { 'last-event-id': last },
          );
          await new Promise<void>((resolve) => {
            let seen = 0;
            const timer = setInterval(() => {
              for (; seen < listener.events.length; seen += 1) {
                ids.push(listener.ids[seen] ?? '');
                titles.push((listener.events[seen] as { title: string }).title);
              }
              if (listener.response.readableEnded || listener.response.destroyed || !listening) {
                clearInterval(timer);
                listener.close();
                resolve();
              }
            }, 20);
          });
        } catch {
          await delay(100);
        }
      }
    };
    const listened = listen();
    // The song changes every 600 ms meanwhile.
    const changes = setInterval(() => {
      song += 1;
    }, 600);
    let load: autocannon.Instance | undefined;
    const loaded = new Promise<autocannon.Result>((resolve) => {
      load = autocannon({ url: `${origin}/api/nowplaying`, connections: 4, duration: 1000 }, (_error, result) => {
        resolve(result);
      });
    });
    await delay(1000);
    for (const instance of instances) {
      await stop(instance);
      await delay(500);
      await start(instance);
      await delay(1000);
    }
    load?.stop();
    const result = await loaded;
    clearInterval(changes);
    await delay(1500);
    listening = false;
    await listened;

    if (result.errors + result.timeouts + result.non2xx > 0) {
      // What nginx saw, to tell which instance failed and how.
      console.log(readFileSync(join(dir, 'error.log'), 'utf8').slice(-3000));
    }
    expect(result.errors + result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(result.requests.total).toBeGreaterThan(100);
    // Every event of the deployment's sequence, once, in order: numbered by Redis, consecutive.
    const numbers = ids.map(Number);
    expect(numbers.every((n, i) => i === 0 || n === (numbers[i - 1] ?? 0) + 1)).toBe(true);
    expect(new Set(titles).size).toBe(titles.length);
    expect(titles.length).toBeGreaterThan(3);
  }, 90_000);
});
