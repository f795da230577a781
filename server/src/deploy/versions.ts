import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { unpackArchive, type ArchiveLimits } from './archive';
import { switchLinkSync, writeWholeSync } from '../files/whole';

/**
 * A part's versions side by side (docs/deploy.md, « Versions and the switch »): each deploy
 * unpacked into `versions/<id>/` under the part's folder, and one link, `live`, to the version
 * visitors get, switched at once (a new link renamed over the old: a reader sees one or the
 * other, never none). Rollback is the same switch, to the version live before. The last `keep`
 * versions are kept, and always the live one.
 */

/**
 * A version's id: its arrival time and six random hex digits (`2026-11-26T04-14-19-123Z-a1b2c3`),
 * or `construit` for the part as built. An id is joined into paths: one read from Redis or a file
 * must have this form, so that none climbs out of the part's folder.
 */
export const VERSION_ID = /^(?:construit|\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]{6})$/;
export const versionIdSchema = v.pipe(v.string(), v.regex(VERSION_ID, 'identifiant de version invalide'));

const recordSchema = v.object({
  id: versionIdSchema,
  /** When it was received (ISO). */
  receivedAt: v.string(),
  /** What the deploy said of it: team, commit, build time, contract range. */
  about: v.record(v.string(), v.string()),
});
const historySchema = v.object({
  versions: v.array(recordSchema),
  /** Ids made live, oldest first: what a rollback goes back along. */
  switches: v.array(versionIdSchema),
  /** When the live version was made live (ISO). */
  liveSince: v.optional(v.string()),
  /** The last deploy refused, and why (`GET /api/parts`). */
  refusal: v.optional(v.object({ at: v.string(), reason: v.string(), by: v.string() })),
});

export type VersionRecord = v.InferOutput<typeof recordSchema>;

export interface VersionStoreOptions {
  /** The part's folder under DEPLOY_ROOT. */
  dir: string;
  /** How many versions are kept (the live one always is). */
  keep?: number;
  limits?: ArchiveLimits;
  now?: () => Date;
}

export function createVersionStore({ dir, keep = 5, limits, now = () => new Date() }: VersionStoreOptions) {
  const historyFile = join(dir, 'history.json');
  const liveLink = join(dir, 'live');
  const versionDir = (id: string) => {
    if (!VERSION_ID.test(id)) throw new Error(`identifiant de version refusé : ${JSON.stringify(id.slice(0, 80))}`);
    return join(dir, 'versions', id);
  };

  function history(): v.InferOutput<typeof historySchema> {
    if (!existsSync(historyFile)) return { versions: [], switches: [] };
    return v.parse(historySchema, JSON.parse(readFileSync(historyFile, 'utf8')));
  }

  /** Written whole or not at all (a new file renamed over the old). */
  function save(next: v.InferOutput<typeof historySchema>): void {
    writeWholeSync(historyFile, `${JSON.stringify(next, null, 2)}\n`);
  }

  function live(): string | null {
    try {
      return readlinkSync(liveLink).split('/').at(-1) ?? null;
    } catch {
      return null;
    }
  }

  function switchLink(id: string): void {
    switchLinkSync(liveLink, join('versions', id));
  }

  /** Forgets the oldest versions past `keep`, never the live one. */
  function prune(state: v.InferOutput<typeof historySchema>): v.InferOutput<typeof historySchema> {
    const current = live();
    const kept = state.versions.slice(-keep).map((record) => record.id);
    if (current !== null && !kept.includes(current)) kept.push(current);
    for (const record of state.versions) {
      if (!kept.includes(record.id)) rmSync(versionDir(record.id), { recursive: true, force: true });
    }
    return {
      ...state,
      versions: state.versions.filter((record) => kept.includes(record.id)),
      switches: state.switches.filter((id) => kept.includes(id)),
    };
  }

  return {
    /**
     * Unpacks an archive as a new version, not live yet; its folder, to check before the switch.
     * `known`: a version another instance received (its id and date), added as it is; one already
     * here (instances sharing DEPLOY_ROOT) is not unpacked again.
     */
    async add(
      archive: Uint8Array,
      about: Record<string, string>,
      known?: { id: string; receivedAt: string },
    ): Promise<VersionRecord & { dir: string }> {
      const at = now();
      const id = known?.id ?? `${at.toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
      const record = { id, receivedAt: known?.receivedAt ?? at.toISOString(), about };
      if (!existsSync(versionDir(id))) await unpackArchive(archive, versionDir(id), limits);
      const state = history();
      if (!state.versions.some((found) => found.id === id)) save({ ...state, versions: [...state.versions, record] });
      return { ...record, dir: versionDir(id) };
    },
    /**
     * The part as it was served before its first deploy through the endpoint (its dist/ as built or
     * copied): a version like the others, a link to that folder, made live, to roll back to.
     */
    adopt(target: string, about: Record<string, string>): void {
      if (live() !== null) return;
      const id = 'construit';
      if (!existsSync(versionDir(id))) symlinkSync(target, versionDir(id));
      const state = history();
      const record = { id, receivedAt: now().toISOString(), about };
      save({ ...state, versions: [...state.versions.filter((found) => found.id !== id), record] });
      this.switchTo(id);
    },
    /** What a version's record says, once its checks have read its build (team, commit, contract). */
    describe(id: string, about: Record<string, string>): void {
      const state = history();
      save({ ...state, versions: state.versions.map((record) => (record.id === id ? { ...record, about } : record)) });
    },
    /** A kept version's folder. */
    dirOf: versionDir,
    /** When the live version was made live. */
    liveSince: (): string | null => history().liveSince ?? null,
    /** Whether a version is kept here. */
    has: (id: string): boolean => history().versions.some((record) => record.id === id) && existsSync(versionDir(id)),
    /** Forgets a version refused before its switch. */
    discard(id: string): void {
      if (live() === id) return;
      rmSync(versionDir(id), { recursive: true, force: true });
      const state = history();
      save({ ...state, versions: state.versions.filter((record) => record.id !== id) });
    },
    /** Writes down a refused deploy: when, why, by whom. */
    refuse(reason: string, by: string): void {
      save({ ...history(), refusal: { at: now().toISOString(), reason, by } });
    },
    /** The last refused deploy, if any. */
    refusal: () => history().refusal ?? null,
    /** Makes a version live at once, and forgets the oldest past `keep`. */
    switchTo(id: string): void {
      const state = history();
      if (!state.versions.some((record) => record.id === id)) throw new Error(`version inconnue : ${id}`);
      // Said by several instances sharing DEPLOY_ROOT: once is enough.
      if (live() === id) return;
      switchLink(id);
      save(prune({ ...state, switches: [...state.switches, id], liveSince: now().toISOString() }));
    },
    /** The versions made live, oldest first, the live one last: what a rollback goes back along. */
    switches: (): readonly string[] => history().switches,
    /** The version a rollback would make live (the one live before this one), or null. */
    previous(): string | null {
      const current = live();
      return (
        history()
          .switches.filter((id) => id !== current)
          .at(-1) ?? null
      );
    },
    /**
     * Makes the version live before this one live again; the id, or null when there is none
     * to go back to.
     */
    rollback(): string | null {
      const state = history();
      const current = live();
      const previous = this.previous();
      if (previous === null) return null;
      switchLink(previous);
      save({ ...state, switches: state.switches.filter((id) => id !== current), liveSince: now().toISOString() });
      return previous;
    },
    /** The live version's record, or null before the first switch. */
    live(): VersionRecord | null {
      const current = live();
      return history().versions.find((record) => record.id === current) ?? null;
    },
    /** Every version kept, oldest first. */
    list(): readonly VersionRecord[] {
      return history().versions;
    },
    /** The live version's folder: what the server serves the part from. */
    liveDir: liveLink,
  };
}

export type VersionStore = ReturnType<typeof createVersionStore>;

/** A part's folder under DEPLOY_ROOT, made when first needed. */
export function partDir(deployRoot: string, part: string): string {
  const dir = join(deployRoot, part);
  mkdirSync(join(dir, 'versions'), { recursive: true });
  return dir;
}
