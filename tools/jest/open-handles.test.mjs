import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { exitWhenHeldOpen, openHandles } from './open-handles.mjs';

const ROOT = join(import.meta.dirname, '..', '..');

/** A server listening on a loopback port, and its port. */
async function listening() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  return { server, port: typeof address === 'object' && address !== null ? address.port : 0 };
}

describe('what a test left open', () => {
  it('is named: a server by its address, a process by its command, timers by their number', async () => {
    const { server, port } = await listening();
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      expect(
        openHandles([server, child, process.stdout], ['TCPServerWrap', 'ProcessWrap', 'Timeout', 'Timeout']),
      ).toEqual([
        `un serveur qui écoute 127.0.0.1:${String(port)}`,
        `un processus : sleep 30 (pid ${String(child.pid)})`,
        '2 minuteur(s) (setTimeout ou setInterval)',
      ]);
      // This very process's: the server is among what holds it.
      expect(openHandles()).toContain(`un serveur qui écoute 127.0.0.1:${String(port)}`);
    } finally {
      child.kill();
      server.close();
    }
  });

  it('ends a process still held after the grace, as failed, naming what holds it', async () => {
    const { server, port } = await listening();
    try {
      const ended = await new Promise((resolve) => {
        let said = '';
        exitWhenHeldOpen({ graceMs: 50, write: (text) => (said += text), exit: (code) => resolve({ code, said }) });
      });
      expect(ended).toEqual({
        code: 1,
        said: expect.stringContaining(`un serveur qui écoute 127.0.0.1:${String(port)}`),
      });
    } finally {
      server.close();
    }
  });

  it('ends a jest whose test left a server listening, where it waited without end', async () => {
    // A jest of its own, on a test that passes and leaves a server open (fixtures/leaves-a-server.cjs),
    // with the run's teardown; killed after 60 s if it still waits.
    const config = {
      rootDir: join(ROOT, 'tools', 'jest', 'fixtures'),
      testMatch: ['<rootDir>/leaves-a-server.cjs'],
      transform: {},
      globalTeardown: '<rootDir>/quick-teardown.mjs',
    };
    const jest = spawn(join(ROOT, 'node_modules', '.bin', 'jest'), ['--ci', '--config', JSON.stringify(config)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    jest.stdout.on('data', (chunk) => (output += String(chunk)));
    jest.stderr.on('data', (chunk) => (output += String(chunk)));
    const killed = setTimeout(() => jest.kill('SIGKILL'), 60_000);
    const code = await new Promise((resolve) => jest.on('close', (exitCode, signal) => resolve(exitCode ?? signal)));
    clearTimeout(killed);
    const port = /port (\d+)/.exec(output)?.[1];
    expect(port).toBeDefined();
    expect(output).toContain('1 passed');
    expect(output).toContain(`un serveur qui écoute 127.0.0.1:${String(port)}`);
    expect(code).toBe(1);
  }, 90_000);
});
