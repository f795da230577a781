import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import teardown from './temp-teardown.mjs';

// The run's temporary folder (temp-setup.mjs): this test runs in a worker of a run set up by it.
describe("the tests' temporary files", () => {
  const runFolder = process.env.COLLECTIF_TESTS_TMPDIR;
  afterEach(() => {
    process.env.COLLECTIF_TESTS_TMPDIR = runFolder;
  });

  it("are made in the run's own folder, which the workers inherit", () => {
    expect(runFolder).toMatch(/collectif-tests-/);
    expect(tmpdir()).toBe(runFolder);
    expect(mkdtempSync(join(tmpdir(), 'contenu-')).startsWith(`${String(runFolder)}${sep}`)).toBe(true);
    // A server that drops its rights (Icecast as `nobody`) passes through it to a folder of its own.
    expect(statSync(String(runFolder)).mode & 0o777).toBe(0o711);
  });

  it('are removed with that folder when the run ends, whatever the tests left there', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fin-'));
    mkdirSync(join(folder, 'redis-1', 'donnees'), { recursive: true });
    writeFileSync(join(folder, 'redis-1', 'donnees', 'dump.rdb'), 'x');
    process.env.COLLECTIF_TESTS_TMPDIR = folder;
    teardown();
    expect(existsSync(folder)).toBe(false);
  });
});
