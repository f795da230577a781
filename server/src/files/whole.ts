import { randomBytes } from 'node:crypto';
import { linkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';

/**
 * A file replaced whole, the server's one way (docs/server.md, « Files replaced whole »): written
 * under a temporary name beside it (random, so that two writers, two processes or two instances on
 * one disk, never share one), then renamed over it. A reader sees the old file or the new, never
 * half of one; a failure leaves the old file and no temporary.
 */

/** A fresh temporary name beside `path`. */
const temporaryOf = (path: string): string => `${path}.${randomBytes(6).toString('hex')}.tmp`;

/** Writes `data` to `path` whole (`mode`: the new file's, e.g. 0o600 for a secret). */
export async function writeWhole(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const temporary = temporaryOf(path);
  try {
    await writeFile(temporary, data, { flag: 'wx', ...(options.mode === undefined ? {} : { mode: options.mode }) });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Writes `data` to `path` whole, synchronously (a store whose callers wait for nothing). */
export function writeWholeSync(path: string, data: string | Uint8Array): void {
  const temporary = temporaryOf(path);
  try {
    writeFileSync(temporary, data, { flag: 'wx' });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Moves a whole file out of the way to `aside`, in one step, never over a file already there (a
 * link made, then the old name removed): a reader sees the file at one name or the other.
 */
export function setAsideSync(path: string, aside: string): void {
  linkSync(path, aside);
  rmSync(path);
}

/** Points the symbolic link `link` at `target` at once: a new link renamed over the old. */
export function switchLinkSync(link: string, target: string): void {
  const temporary = temporaryOf(link);
  symlinkSync(target, temporary);
  try {
    renameSync(temporary, link);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
