import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { realpathSync } from 'node:fs';
import { bwrapArgs, probeSandbox } from './sandbox';
import { seccompFd, seccompFilter } from './seccomp';

// The walls alone (docs/rendering.md, « The sandbox »), without Node's permission model inside: what
// a renderer's code meets when it tries what a hostile team's would. These tests need bubblewrap and
// user namespaces (CI installs `bubblewrap`): where the host lacks them they fail, they never skip.

const SECRET = 'secret-du-serveur-0123456789';
let outside: string;
let parts: string;
let listener: Server;
let port = 0;
const arrived: string[] = [];

beforeAll(async () => {
  outside = mkdtempSync(join(tmpdir(), 'walls-'));
  parts = join(outside, 'parts');
  mkdirSync(parts);
  writeFileSync(join(parts, 'page.js'), 'published');
  mkdirSync(join(outside, 'contenu'));
  writeFileSync(join(outside, 'contenu', 'accounts.json'), SECRET);
  writeFileSync(join(outside, '.env'), `ADMIN_TOKEN=${SECRET}`);
  listener = createServer((socket) => {
    arrived.push('connexion');
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
  rmSync(outside, { recursive: true, force: true });
});

/** Runs a script in the walls, with only `parts` bound beside Node; what it printed, as JSON. */
function inWalls(script: string): Record<string, string> {
  const node = realpathSync(process.execPath);
  const args = bwrapArgs([node, '-e', script], [dirname(node), parts], { NODE_ENV: 'test' });
  const ran = spawnSync('bwrap', args, { env: { NODE_ENV: 'test' }, encoding: 'utf8', timeout: 20_000 });
  if (ran.error !== undefined) throw ran.error;
  expect(ran.stderr).toBe('');
  return JSON.parse(ran.stdout) as Record<string, string>;
}

const TRIES = (serverPid: number) => `
const fs = require('node:fs');
const out = {};
const attempt = (name, run) => { try { out[name] = String(run()).slice(0, 300); } catch (e) { out[name] = String(e.code || e); } };
attempt('pid', () => process.pid);
attempt('uid', () => process.getuid());
attempt('capabilities', () => fs.readFileSync('/proc/self/status', 'utf8').split('\\n').find((line) => line.startsWith('CapEff')));
attempt('ppid', () => process.ppid);
attempt('environ1', () => fs.readFileSync('/proc/1/environ', 'utf8'));
attempt('processes', () => fs.readdirSync('/proc').filter((e) => /^\\d+$/.test(e)).join(','));
attempt('signal', () => { process.kill(${String(serverPid)}, 'SIGUSR1'); return 'envoyé'; });
attempt('content', () => fs.readFileSync(${JSON.stringify(join(outside, 'contenu', 'accounts.json'))}, 'utf8'));
attempt('dotenv', () => fs.readFileSync(${JSON.stringify(join(outside, '.env'))}, 'utf8'));
attempt('published', () => fs.readFileSync(${JSON.stringify(join(parts, 'page.js'))}, 'utf8'));
attempt('writePublished', () => { fs.writeFileSync(${JSON.stringify(join(parts, 'page.js'))}, 'x'); return 'écrit'; });
attempt('etc', () => fs.readdirSync('/etc').join(','));
const net = require('node:net');
const socket = net.connect(${String(port)}, '127.0.0.1');
socket.on('connect', () => { out.tcp = 'connecté'; finish(); });
socket.on('error', (e) => { out.tcp = e.code; finish(); });
function finish() {
  fetch('http://127.0.0.1:${String(port)}/').then(() => { out.http = 'répondu'; }, (e) => { out.http = String((e.cause && e.cause.code) || e); })
    .finally(() => process.stdout.write(JSON.stringify(out)));
}
`;

describe('a renderer behind the walls', () => {
  it('can be made on this host (bubblewrap installed, namespaces allowed)', () => {
    expect(probeSandbox()).toEqual({ mode: 'bubblewrap', why: null });
  });

  it('sees no process outside, signals none, and its pid 1 holds no environment worth taking', () => {
    const found = inWalls(TRIES(process.pid));
    expect([found.pid, found.ppid]).toEqual(['2', '1']);
    // Nobody, with no capability, whoever started the server (root, here in CI).
    expect(found.uid).toBe('65534');
    expect(found.capabilities).toBe('CapEff:\t0000000000000000');
    expect(found.processes).toBe('1,2');
    expect(found.signal).toBe('ESRCH');
    expect(found.environ1).not.toContain(SECRET);
    expect((found.environ1 ?? '').split('\0').filter(Boolean).sort()).toEqual(['NODE_ENV=test']);
  });

  it('makes no user namespace of its own inside (bwrap --disable-userns): no way around its walls from there', () => {
    // util-linux's `unshare`, bound with its folder, asks the kernel for a new user namespace.
    const ran = spawnSync('bwrap', bwrapArgs(['/usr/bin/unshare', '--user', '/usr/bin/true'], ['/usr/bin'], {}), {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(ran.status).not.toBe(0);
    expect(ran.stderr).toMatch(/unshare failed|No space left on device|Operation not permitted/);
  });

  it('reaches nothing on the network: no connection arrives at a listener on the loopback', () => {
    const found = inWalls(TRIES(process.pid));
    expect(found.tcp).toBe('ECONNREFUSED');
    expect(found.http).toBe('ECONNREFUSED');
    expect(arrived).toEqual([]);
  });

  it('reads only what is bound, read-only: not the content, not an .env, not /etc', () => {
    const found = inWalls(TRIES(process.pid));
    expect(found.published).toBe('published');
    expect(found.writePublished).toBe('EROFS');
    expect([found.content, found.dotenv]).toEqual(['ENOENT', 'ENOENT']);
    expect(found.etc).toBe('ENOENT');
  });
});

/**
 * What a classic BPF program answers for one system call (the few instructions the filter uses:
 * loads of seccomp_data's words, jumps on equal, greater or equal and bits set, returns).
 */
function decide(program: Buffer, arch: number, nr: number, firstArg = 0): number {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(nr >>> 0, 0);
  data.writeUInt32LE(arch >>> 0, 4);
  data.writeUInt32LE(firstArg >>> 0, 16);
  let accumulator = 0;
  for (let at = 0; at * 8 < program.length;) {
    const code = program.readUInt16LE(at * 8);
    const [yes, no] = [program.readUInt8(at * 8 + 2), program.readUInt8(at * 8 + 3)];
    const k = program.readUInt32LE(at * 8 + 4);
    if (code === 0x06) return k;
    if (code === 0x20) {
      accumulator = data.readUInt32LE(k);
      at += 1;
      continue;
    }
    const taken = code === 0x15 ? accumulator === k : code === 0x35 ? accumulator >= k : (accumulator & k) !== 0;
    if (![0x15, 0x35, 0x45].includes(code)) throw new Error(`instruction inconnue ${code.toString(16)}`);
    at += 1 + (taken ? yes : no);
  }
  throw new Error('le programme finit sans réponse');
}

describe('the renderers’ seccomp filter', () => {
  const [ALLOW, EPERM, ENOSYS, KILL] = [0x7fff0000, 0x50001, 0x50026, 0x80000000];
  const X64 = 0xc000003e;

  it('refuses what a container runtime’s default profile refuses, and lets Node’s own calls through', () => {
    const program = seccompFilter('x64');
    if (program === null) throw new Error('pas de filtre pour x86-64');
    // read, mmap, epoll_wait, futex, openat: Node's daily calls.
    for (const nr of [0, 9, 232, 202, 257]) expect(decide(program, X64, nr)).toBe(ALLOW);
    // ptrace, mount, unshare, setns, keyctl, bpf, perf_event_open, io_uring_setup, init_module.
    for (const nr of [101, 165, 272, 308, 250, 321, 298, 425, 175]) expect(decide(program, X64, nr)).toBe(EPERM);
    // clone: a thread (CLONE_VM | CLONE_THREAD…) goes, a new namespace does not; clone3 falls back.
    expect(decide(program, X64, 56, 0x3d0f00)).toBe(ALLOW);
    expect(decide(program, X64, 56, 0x10000000)).toBe(EPERM);
    expect(decide(program, X64, 56, 0x20000 | 0x11)).toBe(EPERM);
    expect(decide(program, X64, 435)).toBe(ENOSYS);
    // x32's calls, and another architecture's, go no further.
    expect(decide(program, X64, 0x40000000)).toBe(EPERM);
    expect(decide(program, 0x40000003, 0)).toBe(KILL);
    expect(decide(seccompFilter('arm64') ?? Buffer.alloc(0), 0xc00000b7, 117)).toBe(EPERM);
    expect(seccompFilter('riscv64')).toBeNull();
  });

  it('is loaded by bubblewrap: the kernel says so, Node runs its threads, and unshare gets EPERM', () => {
    const node = realpathSync(process.execPath);
    const run = (command: string[], paths: string[]) => {
      const fd = seccompFd();
      if (fd === null) throw new Error('pas de filtre pour cette architecture');
      try {
        return spawnSync('bwrap', bwrapArgs(command, paths, {}, { seccomp: 3 }), {
          encoding: 'utf8',
          timeout: 20_000,
          stdio: ['ignore', 'pipe', 'pipe', fd],
        });
      } finally {
        closeSync(fd);
      }
    };
    const script = `const status = require('node:fs').readFileSync('/proc/self/status', 'utf8');
const { Worker } = require('node:worker_threads');
new Worker('require("node:worker_threads").parentPort.postMessage("fil")', { eval: true }).once('message', (m) =>
  process.stdout.write(JSON.stringify({ seccomp: /^Seccomp:\\s*(\\d)/m.exec(status)[1], worker: m })));`;
    const ran = run([node, '-e', script], [dirname(node)]);
    expect(ran.stderr).toBe('');
    // Mode 2: a filter; and a worker thread (clone without a namespace flag) still starts.
    expect(JSON.parse(ran.stdout)).toEqual({ seccomp: '2', worker: 'fil' });
    // Without the filter, --disable-userns answers ENOSPC; the filter answers first, EPERM.
    const unshared = run(['/usr/bin/unshare', '--user', '/usr/bin/true'], ['/usr/bin']);
    expect(unshared.status).not.toBe(0);
    expect(unshared.stderr).toMatch(/unshare failed: Operation not permitted/);
  });
});

describe('a host that cannot make the walls', () => {
  it('is told in French how to allow them: bubblewrap missing, or refused its namespaces', () => {
    expect(probeSandbox('bwrap-absent-de-cet-hote')).toEqual({
      mode: 'permissions',
      why: expect.stringMatching(/bubblewrap \(bwrap\) n’est pas installé : « apt-get install bubblewrap »/) as string,
    });
    // A sandbox tool that fails as bwrap does without user namespaces.
    expect(probeSandbox('false')).toEqual({
      mode: 'permissions',
      why: expect.stringMatching(
        /ne peut pas créer ses espaces de noms .* autorisez les espaces de noms utilisateur/,
      ) as string,
    });
  });
});
