import { readFileSync, realpathSync, statSync } from 'node:fs';

/**
 * A file the server reads again when it changes, with no restart (a part redeployed, the content
 * edited): the one way every such reader does it (the residences, the shell's list of its files, the
 * remotes' manifests, the built sheets, the parts' server containers on this server).
 */

/**
 * A path's real place, a live link followed (a deploy switches a part's `live` link: what a reader
 * binds or compares is the version it names now), or the path itself when it is missing.
 */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The version of the file given to `parse`: what its `stat` said. */
export interface FileVersion {
  /** Its size, time and inode (`size-mtimeMs-ino`): it changes whenever the file does. */
  id: string;
  /** Its size in bytes. */
  size: number;
}

export interface WatchedFileOptions {
  /** Told, in French, of each version that cannot be used (once per version, not on every read). */
  warn?: (message: string) => void;
  /** What the file is, for the log: « <what> inutilisable (<file>) : <reason> ». */
  what?: string;
}

export interface WatchedFile<T> {
  /** The file's value now (`watchedFile` says which). */
  (): T | null;
  /**
   * Why the file as it was last seen is not what is in use (it could not be read, or `parse` refused
   * it), as `warn` was told; null when it is in use, or missing.
   */
  problem(): string | null;
}

/** A file's version from its `stat` (the same for every reader: a container tried, then used). */
export function fileVersion(stats: { size: number; mtimeMs: number; ino: number }): FileVersion {
  return { id: `${String(stats.size)}-${String(stats.mtimeMs)}-${String(stats.ino)}`, size: stats.size };
}

/** An error's message; one thrown in another realm (a bundle's) is not this realm's `Error`. */
function reasonOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}

/**
 * The file at `path`, made a value by `parse`, read again when it changes. Each call stats the file:
 *
 * - **changed** (its size, time or inode differs from the version last read, or it was never read):
 *   it is read and given to `parse` with its version; a version is parsed once, however often the
 *   file is asked for;
 * - **unusable** (it cannot be read, or `parse` throws): the last value that could be used stays in
 *   use, null when there never was one; `warn` is told once per version, with the file and the reason.
 *   A version `parse` refused is not parsed again until the file changes; one that could not be read
 *   is attempted again on the next call (it may have been replaced between the `stat` and the read);
 * - **missing** (or its `stat` fails): null, as every reader of such a file had it (no residences, a
 *   503 for the shell, no hints, a sheet left a link, a part rendered in the browser), and all is
 *   forgotten: the file that comes back is read as new, and a value from before it went is not used
 *   again, even when the new version is unusable.
 *
 * A reader for which a refused version means something other than the last value (a part's server
 * bundle: its part is rendered in the browser, and /readyz says why) has `parse` catch its own errors
 * and return what it means.
 */
export function watchedFile<T>(
  path: string,
  parse: (text: string, version: FileVersion) => T,
  { warn = () => undefined, what = 'Fichier' }: WatchedFileOptions = {},
): WatchedFile<T> {
  /** The version last given to `parse` (used or refused). */
  let parsed: string | null = null;
  /** The last value that could be used. */
  let good: { value: T } | null = null;
  let problem: string | null = null;
  /** The version `warn` was last told of. */
  let warned: string | null = null;

  function refuse(version: string, error: unknown): void {
    problem = reasonOf(error);
    if (warned === version) return;
    warned = version;
    const kept = good === null ? '' : ' ; la dernière version utilisable reste en service';
    warn(`${what} inutilisable (${path}) : ${problem}${kept}`);
  }

  function read(): T | null {
    let version: FileVersion;
    try {
      version = fileVersion(statSync(path));
    } catch {
      parsed = warned = problem = null;
      good = null;
      return null;
    }
    if (version.id === parsed) return good === null ? null : good.value;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      refuse(version.id, error);
      return good === null ? null : good.value;
    }
    parsed = version.id;
    try {
      good = { value: parse(text, version) };
      problem = null;
    } catch (error) {
      refuse(version.id, error);
    }
    return good === null ? null : good.value;
  }

  return Object.assign(read, { problem: () => problem });
}
