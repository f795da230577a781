// @ts-check
// How `npm test` (scripts/test.mjs) runs its stages: each step a process of its own, side by side
// when they need nothing of each other, each bounded in time (docs/testing.md, « A failing test fails
// the run »). A step that passes its stage's limit is stopped with everything it started, and fails
// the run with a line that names it: a test runner that never exits would otherwise keep `npm test`
// waiting until CI's own limit, with nothing said.
import { spawn } from 'node:child_process';
import { root } from './parts.mjs';

/** Each step's time, in the order they ended, printed again at the end of the run. */
export const times = /** @type {{ label: string, seconds: number }[]} */ ([]);

/** How long a stopped step has to end on SIGTERM before its processes are killed. */
const GRACE_MS = 10_000;

/** The steps running now, by process group, to stop them with `npm test` itself. */
const running = new Set(/** @type {number[]} */ ([]));

/** Sends `signal` to a step's whole process group: the step, and what it started. */
function signalGroup(/** @type {number} */ group, /** @type {NodeJS.Signals} */ signal) {
  try {
    process.kill(-group, signal);
  } catch {
    // Nothing of it left.
  }
}

let passingSignals = false;
/**
 * Each step leads a process group of its own (to be stopped whole), which a terminal's Ctrl-C or
 * CI's cancel no longer reaches: `npm test` passes them on, then ends.
 */
function passSignals() {
  if (passingSignals) return;
  passingSignals = true;
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.once(signal, () => {
      for (const group of running) signalGroup(group, signal);
      process.exit(1);
    });
  }
}

/**
 * @typedef {object} Step
 * @property {string} label what the run calls it, in French
 * @property {string} command
 * @property {string[]} args
 * @property {boolean} [held] its output held and printed whole when it ends, so that two test
 *   runners' reports never interleave line by line
 * @property {NodeJS.ProcessEnv} [env]
 */

/**
 * Steps that need nothing of each other, run side by side: ESLint works on one core, and the build
 * waits on its files as much as it computes, so on two cores they end sooner together than one
 * after the other (measured on one machine of two cores: lint, format and build 205 s together,
 * 233 s in a row). Each says its own outcome; all are waited for. A step still running `limitMinutes`
 * after it started is stopped (SIGTERM to its process group, then SIGKILL) and fails.
 * @param {Step[]} list
 * @param {{ limitMinutes: number }} limit
 * @returns {Promise<boolean>} whether every step succeeded
 */
export async function runTogether(list, { limitMinutes }) {
  const outcomes = await Promise.all(list.map((step) => runStep(step, limitMinutes * 60_000)));
  return outcomes.every(Boolean);
}

/**
 * One step alone (`runTogether` with one step).
 * @param {Step} step
 * @param {{ limitMinutes: number }} limit
 */
export function run(step, limit) {
  return runTogether([step], limit);
}

/**
 * @param {Step} step
 * @param {number} limitMs
 * @returns {Promise<boolean>}
 */
function runStep({ label, command, args, held = false, env = process.env }, limitMs) {
  return new Promise((resolve) => {
    console.log(`\n▶ ${label}`);
    passSignals();
    const started = Date.now();
    const child = spawn(command, args, {
      cwd: root,
      env,
      stdio: ['ignore', held ? 'pipe' : 'inherit', held ? 'pipe' : 'inherit'],
      detached: true,
    });
    const group = child.pid;
    if (group !== undefined) running.add(group);
    const output = /** @type {Buffer[]} */ ([]);
    child.stdout?.on('data', (/** @type {Buffer} */ chunk) => output.push(chunk));
    child.stderr?.on('data', (/** @type {Buffer} */ chunk) => output.push(chunk));
    let hung = false;
    const limit = setTimeout(() => {
      hung = true;
      console.error(
        `✖ ${label} : toujours en cours après ${String(limitMs / 60_000)} min, la limite de son étape : arrêt de ses processus.`,
      );
      if (group === undefined) return;
      signalGroup(group, 'SIGTERM');
      setTimeout(() => signalGroup(group, 'SIGKILL'), GRACE_MS).unref();
    }, limitMs);
    let ended = false;
    const end = (/** @type {number | null} */ code) => {
      if (ended) return;
      ended = true;
      clearTimeout(limit);
      if (group !== undefined) {
        running.delete(group);
        // What the step left running (a server its tests did not close) goes with it.
        signalGroup(group, 'SIGKILL');
      }
      const seconds = (Date.now() - started) / 1000;
      if (held) process.stdout.write(`\n── ${label} ──\n${Buffer.concat(output).toString('utf8')}`);
      times.push({ label, seconds });
      if (hung) {
        console.error(
          `✖ ${label} : bloqué, arrêté après ${seconds.toFixed(1)} s (docs/testing.md, « A failing test fails the run »)`,
        );
      } else if (code === 0) {
        console.log(`✔ ${label} (${seconds.toFixed(1)} s)`);
      } else {
        console.error(`✖ ${label} a échoué (${seconds.toFixed(1)} s)`);
      }
      resolve(!hung && code === 0);
    };
    child.on('error', (error) => {
      console.error(`✖ ${label} : ${error.message}`);
      end(1);
    });
    // Its output, once its processes have closed it; at most a few seconds after it has exited, as a
    // process it left behind may hold it.
    child.on('close', (code) => end(code));
    child.on('exit', (code) => {
      setTimeout(() => end(code), 5000).unref();
    });
  });
}
