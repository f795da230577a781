import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { runTogether, times } from './stages.mjs';

// npm test's stages (scripts/stages.mjs, run by scripts/test.mjs): a step that never ends is stopped
// at its stage's limit, with what it started, and fails the run with a line that names it.

/** Whether a process runs (a zombie, dead but not yet reaped, does not). */
function alive(pid) {
  const stat = `/proc/${String(pid)}/stat`;
  if (!existsSync(stat)) return false;
  return readFileSync(stat, 'utf8').split(') ')[1]?.[0] !== 'Z';
}

/** A step of Node running `code`. */
const node = (label, code, ...args) => ({ label, command: process.execPath, args: ['-e', code, ...args] });

describe("npm test's stages", () => {
  let said;
  beforeEach(() => {
    said = [];
    for (const method of ['log', 'error']) {
      jest.spyOn(console, method).mockImplementation((line) => said.push(String(line)));
    }
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('stop a step still running at the limit, with what it started, and fail naming it', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'etape-')), 'pid');
    // A test runner that never exits, and a server it started.
    const hanging = node(
      'Tests qui ne finissent pas',
      "const { spawn } = require('node:child_process'); const server = spawn('sleep', ['300'], { stdio: 'ignore' });" +
        "require('node:fs').writeFileSync(process.argv[1], String(server.pid)); setInterval(() => {}, 1000);",
      pidFile,
    );
    const started = Date.now();
    const outcome = await runTogether([hanging, node('Tests qui passent', 'process.exit(0)')], {
      limitMinutes: 0.05,
    });
    expect(outcome).toBe(false);
    // Stopped at its limit (3 s), not left to run.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(said).toContainEqual(expect.stringMatching(/^✔ Tests qui passent \(\d+\.\d s\)$/));
    expect(said.filter((line) => line.startsWith('✖ Tests qui ne finissent pas'))).toEqual([
      '✖ Tests qui ne finissent pas : toujours en cours après 0.05 min, la limite de son étape : arrêt de ses processus.',
      expect.stringMatching(/^✖ Tests qui ne finissent pas : bloqué, arrêté après \d+\.\d s/),
    ]);
    const server = Number(readFileSync(pidFile, 'utf8'));
    for (let i = 0; i < 50 && alive(server); i += 1) await delay(100);
    expect(alive(server)).toBe(false);
    expect(times.map(({ label }) => label)).toEqual(expect.arrayContaining(['Tests qui ne finissent pas']));
  });

  it('say a step that fails, and pass when every step does', async () => {
    expect(await runTogether([node('Échoue', 'process.exit(3)')], { limitMinutes: 1 })).toBe(false);
    expect(said).toContainEqual(expect.stringMatching(/^✖ Échoue a échoué \(\d+\.\d s\)$/));
    expect(
      await runTogether(
        [node('Réussit', 'process.exit(0)'), { ...node('Tenu', 'console.log("rapport")'), held: true }],
        {
          limitMinutes: 1,
        },
      ),
    ).toBe(true);
  });
});
