import { join } from 'node:path';
import { PARTS, urlPrefix, type PartName, type RemotesConfig } from '@collectif/shared';
import { watchedFile, type WatchedFile } from '../../files/watched-file';

// One file of each part, read where the remote map says the part lives and read again when it
// changes (docs/rendering.md, « Server containers »): the server containers (containers.ts), and the
// page declarations the server reads (page-routes.ts).

const wait = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

export interface PartFileSource {
  /** Where it is: a file of this server, or a URL. */
  file?: string;
  url?: string;
}

interface Loaded<T> {
  /** What identifies this version: the file's size and time, or the HTTP validator. */
  version: string;
  value: T | null;
  checkedAt: number;
  /** Why `value` is null, and since when (this version refused, or the origin unreachable). */
  problem?: { state: 'refused' | 'unreachable'; reason: string; since: number };
  /** Not read: a version of this server's file waiting for its trial. */
  awaitingTrial?: true;
  /** While `read`'s promise runs: settles once `value` or `problem` is known. */
  settled?: Promise<void>;
}

/** What the server can do with one part's file, for the readiness endpoint (docs/rendering.md). */
export interface PartFileStatus {
  /**
   * `ok`: in use; `missing`: no file where the remote map says; `refused`: unusable; `unreachable`:
   * its origin did not answer; `trying`: a new version on trial (docs/deploy.md, « The trial »).
   */
  state: 'ok' | 'missing' | 'refused' | 'unreachable' | 'trying';
  /** Where it is read: a file of this server or a URL. */
  where: string;
  reason?: string;
  /** ISO date: since when it is in this state (refused or unreachable). */
  since?: string;
}

export interface PartFilesOptions<T> {
  remotes: RemotesConfig;
  distDirs: Record<PartName, string>;
  /** The file's path in a part's dist/, which is also its path beside a remote's manifest. */
  path: string;
  /** Makes the value of the file's text; throws when it cannot be used. */
  read: (text: string, where: string, name: PartName) => T | Promise<T>;
  /** What the file is, for the log: « Conteneur serveur », « Pages déclarées ». */
  what: string;
  /** How long a fetch from another origin may take. */
  fetchTimeoutMs?: number;
  /** How often a file on another origin is revalidated. */
  refreshMs?: number;
  /** How long a request waits for a new attempt at a file that failed (its origin down, or slow). */
  missingWaitMs?: number;
  warn?: (message: string) => void;
  /**
   * How a file on another origin is fetched: by this process (the server's own checks), or, in a
   * renderer, which has no network, by asking its server (`RenderHost.file`).
   */
  fetchFile?: FetchFile;
  /**
   * Told before a version is read and after (a renderer tells its server, which disables
   * a version whose reading never ends: page-in-lane.ts). A version it calls `disabled` is not read.
   */
  reading?: {
    disabled: (name: PartName, version: string) => boolean;
    /**
     * A version of a file of this server not tried yet (docs/deploy.md, « The trial »): not read,
     * and read once it has been.
     */
    awaitingTrial?: (name: PartName, version: string) => boolean;
    /**
     * Its promise, when it gives one, is awaited before the version is evaluated: a renderer's word
     * that it is reading has reached its server before code that may never end runs.
     */
    start: (name: PartName, version: string, where: string) => unknown;
    end: (name: PartName, version: string, problem: string | null) => void;
  };
}

/** A file fetched from another origin: its status, its ETag and its text (none for a 304). */
export type FetchFile = (
  url: string,
  etag: string | null,
  timeoutMs: number,
) => Promise<{ status: number; etag: string | null; text: string }>;

/** The default fetch: this process's own network, bounded by the timeout. */
const fetchHere: FetchFile = async (url, etag, timeoutMs) => {
  const response = await fetch(url, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: etag === null ? {} : { 'if-none-match': etag },
  });
  return { status: response.status, etag: response.headers.get('etag'), text: await response.text() };
};

/** Where a part's file is, from the remote map: this server's files, or beside a manifest elsewhere. */
export function partFileSource(
  name: PartName,
  path: string,
  remotes: RemotesConfig,
  distDirs: Record<PartName, string>,
): PartFileSource | null {
  const part = PARTS.find((p) => p.name === name);
  if (part === undefined) return null;
  if (name === 'shell') return { file: join(distDirs.shell, path) };
  const url = remotes[name];
  const local = `${urlPrefix(part)}mf-manifest.json`;
  if (url === local) return { file: join(distDirs[name], path) };
  if (/^https?:\/\//.test(url)) return { url: new URL(path, url).href };
  return null;
}

/**
 * Where a part's file is, as the server says it to anyone (`/readyz` is public behind nginx): the URL
 * of a file on another origin, « ce serveur » for one of this server's files, never its folders
 * (the log, for the admin, names the file).
 */
export function publicPlace(where: string): string {
  return /^https?:\/\//.test(where) ? where : 'ce serveur';
}

/**
 * One file of each part, read where the remote map says the part lives and read again when it
 * changes: a file of this server when its size or time changes, one on another origin every
 * `refreshMs` (with its ETag), in the background once the first fetch is done. A part whose file is
 * missing, unreadable or unreachable has none (null), and the log says why once per version.
 */
export function createPartFiles<T>({
  remotes,
  distDirs,
  path,
  read,
  what,
  fetchTimeoutMs = 2000,
  refreshMs = 30_000,
  missingWaitMs = 500,
  warn = () => undefined,
  fetchFile = fetchHere,
  reading,
}: PartFilesOptions<T>) {
  const loaded = new Map<PartName, Loaded<T>>();
  const fetching = new Map<PartName, Promise<void>>();

  function store(name: PartName, version: string, text: string, where: string, local = false): Loaded<T> {
    if (local && reading?.awaitingTrial?.(name, version) === true) {
      const reason = 'nouvelle version à l’essai';
      const entry: Loaded<T> = {
        version,
        value: null,
        checkedAt: Date.now(),
        problem: { state: 'refused', reason, since: Date.now() },
        awaitingTrial: true,
      };
      loaded.set(name, entry);
      return entry;
    }
    if (reading?.disabled(name, version) === true) {
      const entry: Loaded<T> = {
        version,
        value: null,
        checkedAt: Date.now(),
        problem: { state: 'refused', reason: 'sa lecture ne finissait pas (désactivé)', since: Date.now() },
      };
      loaded.set(name, entry);
      return entry;
    }
    const told = reading?.start(name, version, publicPlace(where));
    const refuse = (error: unknown): NonNullable<Loaded<T>['problem']> => {
      // A part's error may come from another realm than this module's `Error`: read its message.
      const message = (error as { message?: unknown } | null)?.message;
      const reason = typeof message === 'string' ? message : String(error);
      // Said once per version: the same file is not read again until it changes.
      warn(`${what} de « ${name} » inutilisable (${where}) : ${reason}`);
      reading?.end(name, version, reason);
      return { state: 'refused', reason, since: Date.now() };
    };
    const entry: Loaded<T> = { version, value: null, checkedAt: Date.now() };
    loaded.set(name, entry);
    let made: T | Promise<T>;
    try {
      made = told instanceof Promise ? told.then(() => read(text, where, name)) : read(text, where, name);
    } catch (error) {
      entry.problem = refuse(error);
      return entry;
    }
    if (!(made instanceof Promise)) {
      entry.value = made;
      reading?.end(name, version, null);
      return entry;
    }
    // Read in steps (a container's modules): the version is being read until they are all in.
    entry.settled = made.then(
      (value) => {
        entry.value = value;
        reading?.end(name, version, null);
      },
      (error: unknown) => {
        entry.problem = refuse(error);
      },
    );
    void entry.settled.finally(() => {
      delete entry.settled;
    });
    return entry;
  }

  /** A part's value once read: null while it has none. */
  async function valueOf(entry: Loaded<T> | null | undefined): Promise<T | null> {
    if (entry?.settled !== undefined) await entry.settled;
    return entry?.value ?? null;
  }

  /** A file of this server, read again when it changes (watched-file.ts), per path. */
  const files = new Map<string, WatchedFile<Loaded<T>>>();

  /**
   * A file of this server. `store` keeps a refused version's problem (null, not the version before
   * it: the part renders in the browser, and /readyz says why), so `parse` never throws here; a file
   * that cannot be read leaves the last version read in use until it can.
   */
  function fromFile(name: PartName, file: string): Loaded<T> | null {
    const watch = () => {
      const made = watchedFile(file, (text, version) => store(name, version.id, text, file, true), {
        warn,
        what: `${what} de « ${name} »`,
      });
      files.set(file, made);
      return made;
    };
    let entry = (files.get(file) ?? watch())();
    // A version that waited for its trial is read once it has been tried.
    if (entry?.awaitingTrial === true && reading?.awaitingTrial?.(name, entry.version) === false) entry = watch()();
    if (entry === null) loaded.delete(name);
    return entry;
  }

  async function refresh(name: PartName, url: string): Promise<void> {
    const cached = loaded.get(name);
    try {
      const response = await fetchFile(url, cached === undefined ? null : cached.version, fetchTimeoutMs);
      if (response.status === 304 && cached !== undefined) {
        cached.checkedAt = Date.now();
        return;
      }
      if (response.status < 200 || response.status > 299) throw new Error(`${url} : ${String(response.status)}`);
      const { text } = response;
      store(name, response.etag ?? `${String(text.length)}-${String(Date.now())}`, text, url);
    } catch (error) {
      warn(`${what} de « ${name} » injoignable (${url}) : ${String(error)}`);
      // The last version read stays in use; without one, the part has none.
      if (cached !== undefined) cached.checkedAt = Date.now();
      else {
        const problem = { state: 'unreachable' as const, reason: String(error), since: Date.now() };
        loaded.set(name, { version: '', value: null, checkedAt: Date.now(), problem });
      }
    }
  }

  /**
   * A file on another origin: the last one fetched, revalidated in the background once stale. While
   * the part has none that can be used (never fetched, or every attempt failed), each request tries
   * again and waits for that attempt (at most `missingWaitMs` once one has failed): the first request
   * after the origin answers gets the file, never a failure kept for `refreshMs`.
   */
  async function fromUrl(name: PartName, url: string): Promise<T | null> {
    const cached = loaded.get(name);
    const missing = cached?.value === null || cached?.value === undefined;
    const stale = missing || Date.now() - cached.checkedAt > refreshMs;
    if (stale && !fetching.has(name)) {
      const pending = refresh(name, url).finally(() => fetching.delete(name));
      fetching.set(name, pending);
    }
    const pending = fetching.get(name);
    // The first request waits for the fetch (bounded by its timeout); one after a failure, a little.
    if (cached === undefined) await pending;
    else if (missing && pending !== undefined) await Promise.race([pending, wait(missingWaitMs)]);
    return valueOf(loaded.get(name));
  }

  return {
    /** The part's file as `read` made it, or null when the part has none that can be used. */
    async get(name: PartName): Promise<T | null> {
      const source = partFileSource(name, path, remotes, distDirs);
      if (source === null) return null;
      if (source.file !== undefined) return valueOf(fromFile(name, source.file));
      return source.url === undefined ? null : fromUrl(name, source.url);
    },
    /** Where each part's file stands, read afresh (docs/rendering.md, « Readiness »). */
    async status(names: readonly PartName[]): Promise<Record<string, PartFileStatus>> {
      const entries = await Promise.all(
        names.map(async (name): Promise<[string, PartFileStatus]> => {
          const source = partFileSource(name, path, remotes, distDirs);
          if (source === null) return [name, { state: 'missing', where: 'aucune adresse dans la carte des parties' }];
          const where = publicPlace(source.file ?? source.url ?? '');
          const value = source.file !== undefined ? await valueOf(fromFile(name, source.file)) : await this.get(name);
          const entry = loaded.get(name);
          if (value !== null) return [name, { state: 'ok', where }];
          if (entry?.problem === undefined) return [name, { state: 'missing', where }];
          const { state, reason, since } = entry.problem;
          return [name, { state, where, reason, since: new Date(since).toISOString() }];
        }),
      );
      return Object.fromEntries(entries);
    },
    /** Whether the part's file, where it should be, could not be used: refused, or its origin unreachable. */
    failed(name: PartName): boolean {
      return loaded.get(name)?.problem !== undefined;
    },
    /** The version of a part's file last read, if any. */
    versionOf(name: PartName): string | undefined {
      return loaded.get(name)?.version;
    },
    /** Changes whenever any file in use changes (the rendered pages' cache key). */
    versions(): string {
      return [...loaded.entries()].map(([name, entry]) => `${name}:${entry.version}`).join('|');
    },
  };
}

export type PartFiles<T> = ReturnType<typeof createPartFiles<T>>;
