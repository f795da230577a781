import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { contentProblems } from '@collectif/shared/content-schemas';
import { currentVersions } from './current';
import { CONTENT_KINDS, type ContentKind } from './kinds';
import { switchLinkSync, writeWholeSync } from '../files/whole';

/**
 * The collective's content at run time (docs/content.md, « Where content lives »): for each kind
 * (residences, releases, team, About texts, slides) a folder of immutable versions, one JSON file
 * each, and one link, `current`, to the version visitors get, switched at once (a new link renamed
 * over the old: a reader sees one or the other, never none), as a part's deploys are. A save
 * writes a new version and moves the link; a restore saves an earlier version's content again, so
 * the history only grows and says who did what, when. Every version is checked against its kind's
 * schema before it is written; what is served is always the last good version read.
 */

export const versionSchema = v.object({
  id: v.string(),
  kind: v.string(),
  /** When it was saved (ISO). */
  savedAt: v.string(),
  /** Who saved it: an account, `dépôt` for the repository's seed. */
  by: v.string(),
  /** The version whose content this one brings back, for a restore. */
  restoredFrom: v.optional(v.string()),
  data: v.unknown(),
});

export type ContentVersion = v.InferOutput<typeof versionSchema>;
/** A version without its content, for the history. */
export type ContentRecord = Omit<ContentVersion, 'data'>;

/** A save the kind's schema refuses: nothing was written. */
export class ContentInvalid extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`contenu refusé : ${problems.join(' ; ')}`);
  }
}

/**
 * A save based on a version that is no longer the current one, where what it changes was changed
 * since: nothing was written, and the writer gets the current content to compare with theirs.
 */
export class ContentConflict extends Error {
  constructor(readonly current: ContentVersion) {
    super(`contenu modifié entre-temps par ${current.by} (${current.savedAt})`);
  }
}

/** The folder refused the write (full, read-only): nothing changed, the current version is served. */
export class ContentUnwritable extends Error {
  constructor(readonly reason: string) {
    super(`le dossier du contenu ne peut pas être écrit : ${reason}`);
  }
}

/** A version that does not exist (a restore of an unknown id). */
export class ContentUnknown extends Error {}

export interface SaveOptions {
  /** The account that saves. */
  by: string;
  /**
   * The version the writer started from. When it is not the current one, the save is refused with
   * ContentConflict if the part it changes (`entry`, or the whole) differs between the two.
   */
  basedOn?: string;
  /** For a kind that is a list with ids: the one entry this save changes. */
  entry?: string;
  /**
   * For a save of one entry: the whole content made again from the current one, each time the save
   * is prepared (a save claimed again after another instance's carries that instance's changes of
   * the other entries, instead of the list as it was when the request came).
   */
  rebase?: (present: unknown) => unknown;
  restoredFrom?: string;
}

export interface ContentStoreOptions {
  /** CONTENT_DIR: one folder per kind. */
  dir: string;
  /** Where each kind's first version comes from (the repository's files), by kind. */
  seeds?: Partial<Record<ContentKind, string>>;
  now?: () => Date;
}

export interface ContentStore {
  readonly dir: string;
  /** The current version of a kind (the last good one read); seeds the kind from its file the first time. */
  current(kind: ContentKind): ContentVersion;
  /** Every version of a kind, newest first, without content. */
  history(kind: ContentKind): ContentRecord[];
  version(kind: ContentKind, id: string): ContentVersion;
  /** Checks content against its kind's schema without writing it (a preview): throws ContentInvalid. */
  check(kind: ContentKind, data: unknown): void;
  /**
   * Checks and writes a new version, then makes it current. With several instances (shared.ts), the
   * version is first claimed in Redis against the one it is based on, so that no instance's write
   * undoes another's.
   */
  save(kind: ContentKind, data: unknown, options: SaveOptions): Promise<ContentVersion>;
  /** Saves an earlier version's content again, as a new version. */
  restore(kind: ContentKind, id: string, by: string): Promise<ContentVersion>;
  /**
   * A save's first half: checks `data` and the conflict rule against the current version, and gives
   * the new version (not written) with the id of the version it follows.
   */
  prepare(kind: ContentKind, data: unknown, options: SaveOptions): { version: ContentVersion; follows: string };
  /** A save's second half: writes a prepared version and makes it current unless a newer one is. */
  commit(version: ContentVersion): ContentVersion;
  /**
   * Takes a version saved by another instance (shared through Redis): writes it if it is missing
   * and makes it current if it is newer than the current one. Whether it was taken.
   */
  adopt(version: ContentVersion): boolean;
}

/** Versions sort by their ids: the save's time, then random letters. */
function newId(at: Date): string {
  return `${at.toISOString().replace(/[-:.]/g, '')}-${randomBytes(3).toString('hex')}`;
}

const ID = /^\d{8}T\d{9}Z-[0-9a-f]{6}$/;

/**
 * A new version's id, sorting after `previous` (the current one): a save in the same millisecond
 * (a coarse or fixed clock) is still the newest, in the history and for the other instances.
 */
function idAfter(previous: string, at: Date): string {
  const id = newId(at);
  const time = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z/.exec(previous);
  if (id > previous || time === null) return id;
  const [year = 0, month = 1, day = 1, hours = 0, minutes = 0, seconds = 0, ms = 0] = time.slice(1).map(Number);
  return newId(new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds, ms + 1)));
}

/** The entry of a list kind with this id, as JSON, for comparing two versions. */
function entryOf(kind: ContentKind, data: unknown, entry: string): string | undefined {
  const key = CONTENT_KINDS[kind].key;
  if (key === undefined || !Array.isArray(data)) return undefined;
  const found: unknown = data.find((item: unknown) => (item as Record<string, unknown>)[key] === entry);
  return found === undefined ? undefined : JSON.stringify(found);
}

export function createContentStore({ dir, seeds = {}, now = () => new Date() }: ContentStoreOptions): ContentStore {
  const kindDir = (kind: ContentKind) => join(dir, kind);
  const versionFile = (kind: ContentKind, id: string) => join(kindDir(kind), 'versions', `${id}.json`);
  const versions = currentVersions<ContentVersion>(dir, load);
  const { pointer, current } = versions;

  function read(kind: ContentKind, id: string): ContentVersion {
    if (!ID.test(id)) throw new ContentUnknown(`version inconnue : ${id}`);
    let text: string;
    try {
      text = readFileSync(versionFile(kind, id), 'utf8');
    } catch {
      throw new ContentUnknown(`version inconnue : ${id}`);
    }
    return v.parse(versionSchema, JSON.parse(text));
  }

  /** Written whole or not at all; an existing version is never replaced. */
  function write(version: ContentVersion): void {
    mkdirSync(join(kindDir(version.kind as ContentKind), 'versions'), { recursive: true });
    const file = versionFile(version.kind as ContentKind, version.id);
    if (existsSync(file)) return;
    writeWholeSync(file, `${JSON.stringify(version, null, 2)}\n`);
  }

  function switchTo(kind: ContentKind, id: string): void {
    try {
      switchLinkSync(versions.link(kind), join('versions', `${id}.json`));
    } finally {
      // Read again on the next call, whether the switch was made or not.
      versions.forget(kind);
    }
  }

  function check(kind: ContentKind, data: unknown): void {
    const problems = contentProblems(CONTENT_KINDS[kind].schema, data, kind);
    if (problems.length > 0) throw new ContentInvalid(problems);
  }

  /** The repository's file of a kind, checked; undefined when there is none. */
  function repositoryData(kind: ContentKind): unknown {
    const file = seeds[kind];
    if (file === undefined) return CONTENT_KINDS[kind].empty;
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    check(kind, data);
    return data;
  }

  function seed(kind: ContentKind, data = repositoryData(kind)): ContentVersion {
    if (data === undefined) throw new Error(`${kind} : aucun contenu ni fichier de départ`);
    const at = now();
    const version: ContentVersion = { id: newId(at), kind, savedAt: at.toISOString(), by: 'dépôt', data };
    try {
      write(version);
      switchTo(kind, version.id);
    } catch {
      // A folder that cannot be written: the repository's content is served all the same, from
      // memory; a save will say why it cannot be kept.
    }
    return version;
  }

  /** What is current when the link names `id` (null: none), `last` the last good version read. */
  function load(kind: ContentKind, id: string | null, last: ContentVersion | undefined): ContentVersion {
    if (id === null) return last ?? seed(kind);
    try {
      let version = read(kind, id);
      check(kind, version.data);
      if (last === undefined && version.by === 'dépôt') version = repositoryChange(kind, version);
      return version;
    } catch (error) {
      // A version that cannot be used (edited by hand, a disk error): the last good one stays; a
      // process that has read none takes the newest good one in the folder.
      if (last !== undefined) return last;
      const fallback = newestGood(kind);
      if (fallback === undefined) throw error;
      return fallback;
    }
  }

  /**
   * A kind nobody has saved since the repository's file started it: a newer file in the repository
   * (a developer's change, pulled and deployed) is taken in as a new version by `dépôt`. Once a
   * volunteer has saved, their content stays; the repository's file no longer replaces it.
   */
  function repositoryChange(kind: ContentKind, present: ContentVersion): ContentVersion {
    let data: unknown;
    try {
      data = repositoryData(kind);
    } catch {
      return present;
    }
    if (data === undefined || JSON.stringify(data) === JSON.stringify(present.data)) return present;
    return seed(kind, data);
  }

  function newestGood(kind: ContentKind): ContentVersion | undefined {
    for (const { id } of history(kind)) {
      try {
        const version = read(kind, id);
        check(kind, version.data);
        return version;
      } catch {
        // The next older one.
      }
    }
    return undefined;
  }

  function history(kind: ContentKind): ContentRecord[] {
    let names: string[];
    try {
      names = readdirSync(join(kindDir(kind), 'versions'));
    } catch {
      return [];
    }
    return names
      .filter((name) => name.endsWith('.json') && ID.test(name.slice(0, -5)))
      .sort()
      .reverse()
      .flatMap((name) => {
        try {
          const { data: _data, ...record } = read(kind, name.slice(0, -5));
          return [record];
        } catch {
          return [];
        }
      });
  }

  function prepare(
    kind: ContentKind,
    data: unknown,
    options: SaveOptions,
  ): { version: ContentVersion; follows: string } {
    const present = current(kind);
    if (options.rebase !== undefined) data = options.rebase(present.data);
    check(kind, data);
    if (options.basedOn !== undefined && options.basedOn !== present.id) {
      const base = read(kind, options.basedOn);
      const changed =
        options.entry === undefined
          ? JSON.stringify(base.data) !== JSON.stringify(present.data)
          : entryOf(kind, base.data, options.entry) !== entryOf(kind, present.data, options.entry);
      if (changed) throw new ContentConflict(present);
    }
    const at = now();
    const version: ContentVersion = {
      id: idAfter(present.id, at),
      kind,
      savedAt: at.toISOString(),
      by: options.by,
      ...(options.restoredFrom === undefined ? {} : { restoredFrom: options.restoredFrom }),
      data,
    };
    return { version, follows: present.id };
  }

  function commit(version: ContentVersion): ContentVersion {
    const kind = version.kind as ContentKind;
    try {
      write(version);
      const present = pointer(kind);
      if (present !== null && present >= version.id) return version;
      switchTo(kind, version.id);
    } catch (error) {
      throw new ContentUnwritable(error instanceof Error ? error.message : String(error));
    }
    versions.isNow(kind, version);
    return version;
  }

  const save = (kind: ContentKind, data: unknown, options: SaveOptions): Promise<ContentVersion> => {
    try {
      return Promise.resolve(commit(prepare(kind, data, options).version));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };

  return {
    dir,
    current,
    history,
    version: read,
    check,
    save,
    prepare,
    commit,
    restore(kind, id, by) {
      try {
        return save(kind, read(kind, id).data, { by, restoredFrom: id });
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
    adopt(version) {
      const kind = version.kind as ContentKind;
      if (!(kind in CONTENT_KINDS) || !ID.test(version.id)) return false;
      check(kind, version.data);
      write(version);
      const present = pointer(kind);
      if (present !== null && present >= version.id) return false;
      switchTo(kind, version.id);
      versions.isNow(kind, version);
      return true;
    },
  };
}
