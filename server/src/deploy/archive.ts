import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import * as tar from 'tar';

/**
 * A part's archive as a team sends it to deploy (docs/deploy.md, « A team's deploy »): a tar,
 * gzipped or not, of the part's `dist/`. Read by node-tar, checked whole before a byte is written,
 * then written into a new folder of its own, which appears at once (renamed into place) or not at
 * all. Refused, with the French reason: an archive or its contents past their caps, too many
 * files, a path that leaves the folder (`..`, absolute), and anything but files and folders (links,
 * devices, pipes).
 */

export interface ArchiveLimits {
  /** The archive as sent, in bytes. */
  maxBytes: number;
  /** Its files once written, in bytes (a small gzip can expand to gigabytes). */
  maxExpandedBytes: number;
  maxFiles: number;
}

/** What a part's `dist/` comes to today (under 10 MB, a few hundred files), with room to grow. */
export const ARCHIVE_LIMITS: ArchiveLimits = {
  maxBytes: 50 * 1024 * 1024,
  maxExpandedBytes: 200 * 1024 * 1024,
  maxFiles: 5000,
};

/** An archive that is not written, and why (in French, for the team). */
export class ArchiveRefused extends Error {
  override name = 'ArchiveRefused';
}

/** The entries a part's files may be: plain files and folders. */
const WRITABLE = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);

/** A size as a team reads it. */
const size = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${String(Math.round(bytes / 1024 / 1024))} Mo` : `${String(Math.round(bytes / 1024))} Ko`;

/** Why an entry's path would leave the folder, or null. */
function unsafePath(path: string): string | null {
  if (path.includes('\0')) return 'un chemin contient un caractère nul';
  if (isAbsolute(path) || /^[a-z]:/i.test(path) || path.startsWith('\\')) return `chemin absolu refusé : ${path}`;
  if (path.split(/[\\/]/).includes('..')) return `chemin qui sort du dossier refusé : ${path}`;
  return null;
}

/** Every entry checked, nothing written: the first reason to refuse it, or null. */
async function inspect(file: string, limits: ArchiveLimits): Promise<string | null> {
  let files = 0;
  let bytes = 0;
  let refused: string | null = null;
  await tar.t({
    file,
    strict: true,
    onReadEntry: (entry) => {
      if (refused !== null) return;
      if (!WRITABLE.has(entry.type)) refused = `« ${entry.path} » n'est ni un fichier ni un dossier (${entry.type})`;
      else refused = unsafePath(entry.path);
      if (entry.type !== 'Directory') files += 1;
      bytes += entry.size;
      if (refused === null && files > limits.maxFiles) refused = `plus de ${String(limits.maxFiles)} fichiers`;
      if (refused === null && bytes > limits.maxExpandedBytes) {
        refused = `plus de ${size(limits.maxExpandedBytes)} une fois décompressé`;
      }
    },
  });
  return refused;
}

/**
 * Writes the archive's files into `dest`, a folder that must not exist yet; refuses it
 * (ArchiveRefused) with nothing written when anything in it is refused.
 */
export async function unpackArchive(archive: Uint8Array, dest: string, limits = ARCHIVE_LIMITS): Promise<void> {
  if (archive.byteLength > limits.maxBytes) {
    throw new ArchiveRefused(`archive de plus de ${size(limits.maxBytes)}`);
  }
  mkdirSync(dirname(dest), { recursive: true });
  const file = `${dest}.archive`;
  const partial = `${dest}.partiel`;
  rmSync(partial, { recursive: true, force: true });
  writeFileSync(file, archive);
  try {
    let refused: string | null;
    try {
      refused = await inspect(file, limits);
    } catch (error) {
      refused = `archive illisible (${error instanceof Error ? error.message : String(error)})`;
    }
    if (refused !== null) throw new ArchiveRefused(refused);
    mkdirSync(partial);
    await tar.x({
      file,
      cwd: partial,
      strict: true,
      preservePaths: false,
      // Checked above; said again here, so that nothing but files and folders is ever written.
      filter: (path, entry) => 'type' in entry && WRITABLE.has(entry.type) && unsafePath(path) === null,
    });
    renameSync(partial, dest);
  } finally {
    rmSync(file, { force: true });
    rmSync(partial, { recursive: true, force: true });
  }
}
