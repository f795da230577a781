// A store at its bound, started (docs/server.md, « Records with a backup file »): the file of a
// feature's records written with `rows` records of their largest, the built server started on it,
// and what that costs: the time from the process's start to its first /healthz answer, the server
// process's memory once it answers (Pss and Rss, from /proc/PID/smaps_rollup), and whether it fell
// (a server whose store does not fit its heap dies at start, and again at each restart). Used by
// bench/push.mjs and bench/proposals.mjs.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { builtServerArgs, SERVER_ENV } from '../../scripts/server-command.mjs';

/** One process's memory in MB, from smaps_rollup: Pss (shared pages counted once) and Rss. */
export function memoryMb(pid) {
  const rollup = readFileSync(`/proc/${String(pid)}/smaps_rollup`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0) / 1024;
  return { pss: Math.round(field('Pss')), rss: Math.round(field('Rss')) };
}

/**
 * Starts the built server (built once by the caller's startServer) with `file` in a new CONTENT_DIR
 * holding `text`; waits up to two minutes for /healthz. Returns the start time, the memory, what the
 * server wrote beside the file (rows set aside), and whether it fell.
 */
export async function startWithStore(root, port, { file, text, env = {} }) {
  const dir = mkdtempSync(join(tmpdir(), 'banc-magasin-'));
  writeFileSync(join(dir, file), text, { mode: 0o600 });
  const started = performance.now();
  const child = spawn(process.execPath, builtServerArgs(), {
    cwd: root,
    env: {
      ...process.env,
      ...SERVER_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      CONTENT_DIR: dir,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk) => {
    errors += String(chunk);
  });
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = signal ?? String(code);
  });
  let startMs = null;
  for (let i = 0; i < 1200 && exited === null; i += 1) {
    try {
      const res = await fetch(`http://127.0.0.1:${String(port)}/healthz`);
      if (res.ok) {
        startMs = Math.round(performance.now() - started);
        break;
      }
    } catch {
      // not up yet
    }
    await delay(100);
  }
  // Once it answers, a few seconds for what follows the start (the backup's first write).
  if (startMs !== null) await delay(3000);
  const memory = exited === null ? memoryMb(child.pid) : null;
  const aside = existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith(`${file}.beyond-`)) : [];
  const outcome = {
    fell: exited !== null,
    exit: exited,
    startMs,
    memory,
    setAside: aside.length > 0,
    // Why it fell, in the words of V8 (the stack's lines name this machine's paths: left out).
    reason:
      exited === null
        ? null
        : (/(JavaScript heap out of memory|Reached heap limit[^\n]*)/.exec(errors)?.[1] ?? 'ended at start'),
  };
  child.kill();
  await new Promise((resolve) => {
    if (exited !== null) resolve();
    else child.on('exit', resolve);
  });
  rmSync(dir, { recursive: true, force: true });
  return outcome;
}
