import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../../scripts/ports.mjs';
import { builtServerArgs, SERVER_FLAGS, serverArgs } from '../../scripts/server-command.mjs';

// SIGUSR1 opens nothing (docs/deploy.md, « The server, built »): Node would open its inspector on
// 127.0.0.1:9229, from which any code runs inside the server with every secret of its environment.
// The server is started for real, from its sources as npm run dev and the browser tests start it,
// and sent the signal; then nothing answers on the inspector's port and the server still serves.

const ROOT = join(__dirname, '..', '..');
/** Where Node opens its inspector on SIGUSR1, when nothing says otherwise. */
const INSPECTOR_PORT = 9229;

/** Whether something accepts a connection on 127.0.0.1:`port`. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      resolve(false);
    });
  });
}

const pause = (ms: number) =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

interface Started {
  child: ChildProcess;
  origin: string;
  /** What the process has written on stderr so far. */
  stderr: () => string;
}

let running: ChildProcess | undefined;

/** Starts the server with Node's `args` on a free port, and waits until /healthz answers. */
async function start(args: string[]): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running = child;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const origin = `http://127.0.0.1:${String(port)}`;
  for (let tries = 0; tries < 200; tries += 1) {
    if (child.exitCode !== null) throw new Error(`le serveur s’est arrêté au démarrage : ${stderr}`);
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return { child, origin, stderr: () => stderr };
    } catch {
      // Not listening yet.
    }
    await pause(200);
  }
  throw new Error(`le serveur ne répond pas sur /healthz : ${stderr}`);
}

/** Sends SIGUSR1, then watches for two seconds whether the inspector opens. */
async function signalOpensInspector({ child, stderr }: Started): Promise<boolean> {
  child.kill('SIGUSR1');
  for (let tries = 0; tries < 10; tries += 1) {
    await pause(200);
    if (stderr().includes('Debugger listening') || (await answers(INSPECTOR_PORT))) return true;
  }
  return false;
}

beforeEach(async () => {
  // Something else listening there would make the test say nothing of the server.
  expect(await answers(INSPECTOR_PORT)).toBe(false);
});

afterEach(async () => {
  const child = running;
  running = undefined;
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  // Stopped as a service is (its renderers with it), and ended if it does not stop.
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(late);
});

describe('the server and SIGUSR1', () => {
  it('started as every start of it is (--disable-sigusr1): opens no inspector, and still serves', async () => {
    expect(SERVER_FLAGS).toContain('--disable-sigusr1');
    for (const args of [serverArgs(), builtServerArgs()])
      expect(args.slice(0, SERVER_FLAGS.length)).toEqual(SERVER_FLAGS);

    const server = await start(serverArgs());
    expect(await signalOpensInspector(server)).toBe(false);
    expect(server.stderr()).not.toContain('Debugger listening');
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  }, 60_000);

  it('started without the flag: its own listener keeps the inspector closed, and says so in one line', async () => {
    const server = await start(serverArgs().filter((arg) => arg !== '--disable-sigusr1'));
    expect(await signalOpensInspector(server)).toBe(false);
    expect(server.stderr()).not.toContain('Debugger listening');
    expect(server.stderr()).toContain('Signal SIGUSR1 reçu et ignoré');
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  }, 60_000);
});
