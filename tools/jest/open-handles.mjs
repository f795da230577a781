// @ts-check
// What keeps a jest run from exiting once its tests have ended (docs/testing.md, « A failing test
// fails the run »). A test that leaves a server listening, a process running or a timer going keeps
// the process that ran it alive: jest, run in one process (the deployment tests, or one test file),
// then never exits, and `npm test` waits with it. jest's own `--detectOpenHandles` says where each
// was opened, but it slows the whole run (measured in docs/testing.md); this costs nothing while the
// tests run: once they have ended, a timer that does not keep the process alive names what does,
// and ends the run as failed.
import { ChildProcess } from 'node:child_process';
import { Server, Socket } from 'node:net';

/**
 * What is still open in this process, in French, one line each: servers with their address,
 * connections with both ends, processes with their command, and how many timers. Standard input
 * and output, and a process's own pipes, are not counted: they close with it.
 * @param {unknown[]} [handles] what Node holds open (its internal `process._getActiveHandles()`)
 * @param {string[]} [resources] the kinds of what keeps the process alive (`process.getActiveResourcesInfo()`)
 * @returns {string[]}
 */
export function openHandles(handles = activeHandles(), resources = process.getActiveResourcesInfo()) {
  const children = handles.filter((handle) => handle instanceof ChildProcess);
  const theirs = new Set(children.flatMap((child) => child.stdio));
  const mine = new Set([process.stdin, process.stdout, process.stderr]);
  const lines = [];
  for (const handle of handles) {
    if (mine.has(/** @type {never} */ (handle)) || theirs.has(/** @type {never} */ (handle))) continue;
    if (handle instanceof ChildProcess) {
      lines.push(`un processus : ${handle.spawnargs.join(' ')} (pid ${String(handle.pid)})`);
    } else if (handle instanceof Server) {
      const address = handle.address();
      const where =
        address === null
          ? 'sans adresse'
          : typeof address === 'string'
            ? address
            : `${address.address}:${address.port}`;
      lines.push(`un serveur qui écoute ${where}`);
    } else if (handle instanceof Socket) {
      lines.push(
        handle.remoteAddress === undefined
          ? 'un tube ou une connexion locale'
          : `une connexion ${String(handle.localAddress)}:${String(handle.localPort)} → ${handle.remoteAddress}:${String(handle.remotePort)}`,
      );
    } else {
      lines.push(`un objet ${handle?.constructor?.name ?? typeof handle}`);
    }
  }
  const timers = resources.filter((kind) => kind === 'Timeout').length;
  if (timers > 0) lines.push(`${String(timers)} minuteur(s) (setTimeout ou setInterval)`);
  return lines;
}

/** @returns {unknown[]} */
function activeHandles() {
  // Undocumented but kept by Node for this use; only the kinds are documented (getActiveResourcesInfo).
  const internal = /** @type {{ _getActiveHandles?: () => unknown[] }} */ (/** @type {unknown} */ (process));
  return internal._getActiveHandles?.() ?? [];
}

/**
 * Called once the tests have ended (jest's globalTeardown, tools/jest/global-teardown.mjs): if the
 * process is still alive `graceMs` later, names what holds it and exits with 1. The timer does not
 * keep the process alive: a run that closed everything exits as before, with its own code.
 * @param {{ graceMs?: number, write?: (text: string) => void, exit?: (code: number) => void }} [options]
 */
export function exitWhenHeldOpen({
  graceMs = 5000,
  write = (text) => process.stderr.write(text),
  exit = (code) => process.exit(code),
} = {}) {
  setTimeout(() => {
    const lines = openHandles();
    write(
      `\n✖ Les tests sont finis depuis ${String(graceMs / 1000)} s, mais ce processus ne s'arrête pas : un test a laissé ouvert\n` +
        `${(lines.length > 0 ? lines : ['quelque chose que Node ne nomme pas']).map((line) => `  - ${line}\n`).join('')}` +
        "  Le test qui l'a ouvert : relancez son fichier seul avec « --detectOpenHandles » (docs/testing.md).\n",
    );
    exit(1);
  }, graceMs).unref();
}
