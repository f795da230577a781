import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { expect } from './fixtures';
import { freePort } from '../scripts/ports.mjs';
import { serverArgs } from '../scripts/server-command.mjs';

/**
 * A second server of the built site, on a copy of the built parts, for the browser tests that deploy
 * a part into a running site (tests/deploy.spec.ts, tests/offline.spec.ts) or build one otherwise
 * (tests/contract.spec.ts): the copy is theirs to change, the workspace's dist/ folders are left
 * alone.
 */

export const ROOT = join(__dirname, '..');
const PARTS = ['shell', 'mf-player', 'mf-radio', 'mf-label', 'mf-about'];

export interface SiteCopy {
  origin: string;
  /** The copy: `<distRoot>/<part folder>/dist`. */
  distRoot: string;
  /** Stops the server, waits for it to have exited, and removes the copy. */
  stop: () => Promise<void>;
}

/**
 * Starts the server on a copy of the built parts, with `env` added to its environment; `prepare`
 * changes the copy first (a part built otherwise, tests/contract.spec.ts).
 */
export async function startSiteCopy(
  env: Record<string, string>,
  prepare?: (distRoot: string) => Promise<void>,
): Promise<SiteCopy> {
  const distRoot = mkdtempSync(join(tmpdir(), 'deploy-'));
  for (const part of PARTS) cpSync(join(ROOT, part, 'dist'), join(distRoot, part, 'dist'), { recursive: true });
  await prepare?.(distRoot);
  const port = await freePort();
  const origin = `http://127.0.0.1:${String(port)}`;
  const server: ChildProcess = spawn(process.execPath, serverArgs(), {
    cwd: ROOT,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DIST_ROOT: distRoot,
      // Content of its own, in the run's temporary folder (global-setup.ts), removed with it: never
      // server/.content, nor the shared server's.
      CONTENT_DIR: mkdtempSync(join(tmpdir(), 'contenu-')),
      SITE_ORIGIN: origin,
      LOG_LEVEL: 'silent',
      ...env,
    },
  });
  await waitForServer(server, origin);
  return {
    origin,
    distRoot,
    // Waited for: what the server saves as it closes goes to its content folder, in the run's
    // temporary folder, which is removed when the run ends (global-setup.ts).
    stop: async () => {
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill();
        await exited;
      }
      rmSync(distRoot, { recursive: true, force: true });
    },
  };
}

/** Waits for the server this test started; one that has exited (its port taken, say) fails at once. */
async function waitForServer(server: ChildProcess, origin: string): Promise<void> {
  await expect
    .poll(
      async () => {
        if (server.exitCode !== null) {
          throw new Error(`le second serveur s'est arrêté (code ${String(server.exitCode)})`);
        }
        return (await fetch(`${origin}/healthz`).catch(() => null))?.ok ?? false;
      },
      { timeout: 60_000, message: 'le second serveur répond' },
    )
    .toBe(true);
}

/**
 * Once every part's new server container has been tried (docs/deploy.md, « The trial »): `/readyz`
 * starts the trial of a version it has not seen and says « trying » until it ends.
 */
export type PartsReady = Record<string, { state: string; reason?: string }>;
export async function settled(origin: string): Promise<PartsReady> {
  let parts: PartsReady = {};
  await expect
    .poll(
      async () => {
        ({ parts } = (await (await fetch(`${origin}/readyz`)).json()) as { parts: PartsReady });
        return Object.values(parts).some((part) => part.state === 'trying');
      },
      { timeout: 30_000 },
    )
    .toBe(false);
  return parts;
}

/** A team's deploy as `npm run deploy` sends it: `dir` packed, `PUT /api/parts/:part` with the team's token. */
export async function sendPart(origin: string, part: string, token: string, dir: string): Promise<Response> {
  const chunks: Buffer[] = [];
  for await (const chunk of tar.c({ gzip: true, cwd: dir, portable: true }, ['.'])) chunks.push(Buffer.from(chunk));
  return partRequest(origin, `/api/parts/${part}`, token, Buffer.concat(chunks));
}

/** A team's request to the deploy API: PUT with a packed part, POST without (`…/rollback`). */
export function partRequest(origin: string, path: string, token: string, body?: Buffer): Promise<Response> {
  return fetch(`${origin}${path}`, {
    method: body === undefined ? 'POST' : 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
    ...(body === undefined ? {} : { body: new Uint8Array(body) }),
  });
}
