import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { root } from './parts.mjs';

// The browser tests' server keeps its content in a folder of the run's own, outside the
// repository, removed once it has closed (e2e/web-server.mjs; docs/testing.md, « Hermetic browser
// tests »): never in server/.content, the folder `npm start` uses on a contributor's machine.

/**
 * Stands for the site's server: says its folders, writes in its content as the server does, and on
 * SIGTERM writes once more (as the server saves at close) and exits.
 */
const STAND_IN = `
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
writeFileSync(join(process.env.CONTENT_DIR, 'push.json'), '[]');
process.stdout.write(JSON.stringify({ content: process.env.CONTENT_DIR, timeline: process.env.LIVE_TIMESHIFT_DIR }) + '\\n');
process.on('SIGTERM', () => { writeFileSync(join(process.env.CONTENT_DIR, 'played.json'), '[]'); process.exit(0); });
setInterval(() => {}, 1000);
`;

/** Runs e2e/web-server.mjs as Playwright does (cwd e2e/, its own process group), with `env`. */
function start(env = process.env) {
  const wrapper = spawn(process.execPath, ['web-server.mjs', '-e', STAND_IN], {
    cwd: join(root, 'e2e'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  wrapper.stdout.on('data', (chunk) => (output += String(chunk)));
  wrapper.stderr.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise((resolve) => wrapper.on('close', (code) => resolve(code)));
  const said = async () => {
    for (let i = 0; i < 100 && !output.includes('\n'); i += 1) await new Promise((wait) => setTimeout(wait, 50));
    return output;
  };
  return { wrapper, exited, said };
}

describe("the browser tests' server", () => {
  it('keeps its content and its timeline outside the repository, and they go once it has closed', async () => {
    const { wrapper, exited, said } = await start();
    const folders = JSON.parse(await said());
    try {
      for (const folder of [folders.content, folders.timeline]) {
        expect(folder.startsWith(root + sep)).toBe(false);
        expect(existsSync(folder)).toBe(true);
      }
      expect(readdirSync(folders.content)).toEqual(['push.json']);
      expect(folders.content).not.toBe(join(root, 'server', '.content'));
    } finally {
      // As Playwright stops it: SIGTERM to the whole group.
      process.kill(-wrapper.pid, 'SIGTERM');
    }
    expect(await exited).toBe(0);
    // What the server saved as it closed went with the folder.
    expect(existsSync(folders.content)).toBe(false);
    expect(existsSync(folders.timeline)).toBe(false);
  });

  it('is started through e2e/web-server.mjs, stopped with SIGTERM, and given no content folder besides', async () => {
    // The configuration as Playwright reads it; what it does to this process's environment, undone.
    const environment = { ...process.env };
    const { default: config } = await import('../e2e/playwright.config.ts');
    for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
    Object.assign(process.env, environment);
    const { command, env, gracefulShutdown } = config.webServer;
    expect(command.split(' ').slice(0, 2)).toEqual([process.execPath, 'web-server.mjs']);
    expect(gracefulShutdown).toMatchObject({ signal: 'SIGTERM' });
    expect(Object.keys(env).filter((name) => ['CONTENT_DIR', 'LIVE_TIMESHIFT_DIR'].includes(name))).toEqual([]);
  });

  it('refuses to start with a temporary folder inside the repository', async () => {
    const inside = join(root, 'node_modules');
    const { exited, said } = await start({ ...process.env, TMPDIR: inside });
    expect(await exited).toBe(1);
    expect(await said()).toContain('Le serveur des tests navigateur écrirait son contenu dans le dépôt');
    expect(readdirSync(inside).filter((name) => name.startsWith('collectif-e2e-serveur-'))).toEqual([]);
  });
});
