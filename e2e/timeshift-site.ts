import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from './fixtures';
import { freePort } from '../scripts/ports.mjs';
import { serverArgs } from '../scripts/server-command.mjs';
import { readMediaPlaylist, readMultivariantPlaylist } from '../server/src/timeshift/testing/m3u8';

/**
 * A server of the built site whose clock starts at `clockStart` (e2e/server-clock.mjs), recording
 * the demo's live into a folder of its own with segments of 2 s, with `env` besides: the browser
 * tests of the live's timeline (tests/timeshift.spec.ts) need a show that began after the recording
 * did, those of the live's archives (tests/archive.spec.ts) a slot that ends while it records. Such a server waits more
 * than it works: its spec runs beside another (docs/testing.md, « The run's time »).
 */
export interface TimeshiftSite {
  origin: string;
  dir: string;
  /** The server's clock minus the real one, in ms: a page shifted by it lives at the server's time. */
  offsetMs: number;
  stop: () => Promise<void>;
}

export async function startTimeshiftSite(clockStart: string, env: Record<string, string> = {}): Promise<TimeshiftSite> {
  const root = join(__dirname, '..');
  const dir = mkdtempSync(join(tmpdir(), 'direct-differe-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${String(port)}`;
  const epoch = Date.now();
  const server: ChildProcess = spawn(process.execPath, ['--import', './e2e/server-clock.mjs', ...serverArgs()], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_ORIGIN: origin,
      LOG_LEVEL: 'silent',
      E2E_CLOCK_START: clockStart,
      E2E_CLOCK_EPOCH: String(epoch),
      LIVE_TIMESHIFT_DIR: dir,
      // Content of its own, in the run's temporary folder (global-setup.ts), removed with it.
      CONTENT_DIR: mkdtempSync(join(tmpdir(), 'contenu-')),
      LIVE_TIMESHIFT_SEGMENT_S: '2',
      LIVE_TIMESHIFT_HOURS: '1',
      ...env,
    },
  });
  await expect
    .poll(
      async () => {
        if (server.exitCode !== null) throw new Error(`le serveur s'est arrêté (code ${String(server.exitCode)})`);
        return (await fetch(`${origin}/healthz`).catch(() => null))?.ok ?? false;
      },
      { timeout: 60_000, message: 'le serveur du direct différé répond' },
    )
    .toBe(true);
  return {
    origin,
    dir,
    offsetMs: Date.parse(clockStart) - epoch,
    // The recorder writes until the server has closed: its folder goes once the process is gone.
    stop: async () => {
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill();
        await exited;
      }
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/** The window the recorder has written (window.json), as instants in ms; null before its first segment. */
export async function recordedWindow(origin: string): Promise<{ start: number; end: number } | null> {
  const answer = await fetch(`${origin}/direct/window.json`).catch(() => null);
  if (answer?.ok !== true) return null;
  const { start, end } = (await answer.json()) as { start: string; end: string };
  return { start: Date.parse(start), end: Date.parse(end) };
}

/**
 * How much of the instants from `from` to `to` (ms) the recorder left without a segment, in ms: the
 * slots its normal rendition's playlist lists as gaps (#EXT-X-GAP), and any jump of its dates. The
 * player steps over them (docs/timeshift.md, « Playlists »), so the instant heard runs ahead of the
 * time played by as much. Read with the server's tests' strict reader of playlists.
 */
export async function gapsWithin(origin: string, from: number, to: number): Promise<number> {
  const read = async (url: string) => (await fetch(new URL(url, origin))).text();
  const [normal] = readMultivariantPlaylist(await read('/direct/live.m3u8'));
  if (normal === undefined) throw new Error('la liste du direct différé ne nomme aucune variante');
  const { segments } = readMediaPlaylist(await read(`/direct/${normal.uri}`));
  const within = (start: number, end: number) => Math.max(0, Math.min(end, to) - Math.max(start, from));
  let at = Number.NaN;
  let missing = 0;
  for (const segment of segments) {
    const dated = segment.programDateTime;
    if (dated !== null) {
      if (dated > at) missing += within(at, dated);
      at = dated;
    }
    const end = at + segment.duration * 1000;
    if (segment.gap) missing += within(at, end);
    at = end;
  }
  return missing;
}
