import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../../scripts/ports.mjs';

// A loopback port nobody listens on now: the one probe of the repository.
export { freePort };

/**
 * Debian's redis-server on a loopback port of its own, in a folder of its own, persisting nothing:
 * what the deployment tests share state through. It can be stopped and started again on the same
 * port (Redis going away and coming back).
 */
export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

function answers(port: number, password: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.write(`AUTH ${password}\r\nPING\r\n`);
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

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  // Behind a password, as a deployment's (docs/deploy.md): what reaches its port without it gets
  // nothing (a renderer, which never has it: docs/rendering.md, « Renderers »).
  const password = randomBytes(18).toString('base64url');
  const dir = mkdtempSync(join(tmpdir(), 'redis-'));
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--requirepass',
        password,
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i += 1) {
      if (await answers(port, password)) return;
      await delay(50);
    }
    throw new Error(`redis-server ne répond pas sur le port ${String(port)}`);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://:${password}@127.0.0.1:${String(port)}`,
    port,
    start,
    stop,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
