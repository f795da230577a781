// What several benches measure alike: a percentile, a process's CPU time, a Redis of their own.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/** The p-th percentile of `values` (nearest rank). */
export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** A process's CPU time in ms: utime and stime, in clock ticks (100 a second on Linux). */
export const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${String(pid)}/stat`, 'utf8')
    .split(') ')[1]
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** A Redis of its own on a free port, keeping nothing on disk, or null when redis-server is missing. */
export async function startRedis() {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const failed = await Promise.race([
    new Promise((resolve) => child.once('error', () => resolve(true))),
    delay(500).then(() => false),
  ]);
  return failed ? null : { url: `redis://127.0.0.1:${String(port)}`, stop: () => child.kill() };
}
