import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar';

/**
 * A part's archive as a team sends it to deploy (docs/deploy.md, « A team's deploy »): a tar,
 * gzipped or not, of the part's `dist/`. Read by node-tar, checked whole before a byte is written,
 * then written into a new folder of its own, which appears at once (renamed into place) or not at
 * all. Refused, with the French reason: an archive or its contents past their caps, too many
 * files, a path that leaves the folder (`..`, absolute), and anything but files and folders (links,
 * devices, pipes). The check reads the archive as a stream and stops at its first refusal: a small
 * gzip that expands to gigabytes is decompressed no further than the cap, in the server's process.
 */

export interface ArchiveLimits {
  /** The archive as sent, in bytes. */
  maxBytes: number;
  /** Its files once written, in bytes (a small gzip can expand to gigabytes). */
  maxExpandedBytes: number;
  /** Its files; its entries of any kind (folders too) are at most twice as many. */
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
  constructor(
    message: string,
    /** How many bytes of the tar were decompressed before the refusal (all of them when it is read whole). */
    readonly expandedBytes = 0,
  ) {
    super(message);
  }
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

/** What a tar's blocks may add to its files' bytes, an entry: its header, its padding, a long name's header. */
const ENTRY_OVERHEAD = 4 * 1024;
/** The end of a tar: two empty blocks, padded to a record of twenty. */
const TAR_END = 20 * 512;

/** The most bytes a tar within `limits` decompresses to: its files, and each entry's blocks around them. */
const expandedCap = (limits: ArchiveLimits): number =>
  limits.maxExpandedBytes + 2 * limits.maxFiles * ENTRY_OVERHEAD + TAR_END;

/** The archive as it was sent, in slices, so that it is decompressed as it is read. */
const slices = (archive: Uint8Array): Readable =>
  Readable.from(
    (function* slice() {
      for (let at = 0; at < archive.byteLength; at += 64 * 1024) yield archive.subarray(at, at + 64 * 1024);
    })(),
    { objectMode: false },
  );

const isGzip = (bytes: Uint8Array): boolean => bytes[0] === 0x1f && bytes[1] === 0x8b;
/** A zstd frame's first four bytes, little-endian. */
const ZSTD_MAGIC = 0xfd2fb528;

/**
 * Every entry checked, nothing written: the first reason to refuse it, or null, and how many bytes
 * of the tar were decompressed. Reading stops at the first refusal (every stream destroyed), and
 * once the tar decompresses past `expandedCap`, whatever its headers say.
 */
function inspect(archive: Uint8Array, limits: ArchiveLimits): Promise<{ refused: string | null; expanded: number }> {
  return new Promise((resolve) => {
    let refused: string | null = null;
    let expanded = 0;
    let files = 0;
    let entries = 0;
    let bytes = 0;
    let done = false;
    const source = slices(archive);
    const tarStream: Readable | Transform = isGzip(archive) ? source.pipe(createGunzip()) : source;
    // Decompressed here, counted here: node-tar is given the tar alone, and may not decompress it
    // again (another compression inside is refused below).
    const parser = new tar.Parser({
      strict: true,
      brotli: false,
      zstd: false,
      onReadEntry: (entry) => {
        entry.resume();
        if (done) return;
        entries += 1;
        if (entry.type !== 'Directory') files += 1;
        bytes += entry.size;
        if (!WRITABLE.has(entry.type)) stop(`« ${entry.path} » n'est ni un fichier ni un dossier (${entry.type})`);
        else {
          const unsafe = unsafePath(entry.path);
          if (unsafe !== null) stop(unsafe);
          else if (files > limits.maxFiles || entries > 2 * limits.maxFiles) {
            stop(`plus de ${String(limits.maxFiles)} fichiers`);
          } else if (bytes > limits.maxExpandedBytes)
            stop(`plus de ${size(limits.maxExpandedBytes)} une fois décompressé`);
        }
      },
    });
    function finish(): void {
      if (done) return;
      done = true;
      source.destroy();
      tarStream.destroy();
      resolve({ refused, expanded });
    }
    function stop(reason: string): void {
      refused ??= reason;
      finish();
    }
    const unreadable = (error: unknown) => {
      stop(`archive illisible (${error instanceof Error ? error.message : String(error)})`);
    };
    parser.on('error', unreadable);
    parser.on('end', finish);
    tarStream.on('error', unreadable);
    /** The tar's first bytes, kept until there are enough to tell whether it is compressed again. */
    let head: Buffer | null = Buffer.alloc(0);
    const take = (chunk: Buffer) => {
      if (done) return;
      expanded += chunk.length;
      if (expanded > expandedCap(limits)) stop(`plus de ${size(limits.maxExpandedBytes)} une fois décompressé`);
      else parser.write(chunk);
    };
    const start = (first: Buffer) => {
      head = null;
      if (isGzip(first) || (first.length >= 4 && first.readUInt32LE(0) === ZSTD_MAGIC)) {
        stop("archive compressée deux fois, ou autrement qu'en gzip : envoyez le tar du dist/, gzippé une fois");
      } else take(first);
    };
    tarStream.on('data', (chunk: Buffer) => {
      if (head === null) take(chunk);
      else if (head.length + chunk.length >= 4) start(Buffer.concat([head, chunk]));
      else head = Buffer.concat([head, chunk]);
    });
    tarStream.on('end', () => {
      if (head !== null) start(head);
      if (!done) parser.end();
    });
  });
}

/**
 * Writes the archive's files into `dest`, a folder that must not exist yet; refuses it
 * (ArchiveRefused) with nothing written when anything in it is refused.
 */
export async function unpackArchive(archive: Uint8Array, dest: string, limits = ARCHIVE_LIMITS): Promise<void> {
  if (archive.byteLength > limits.maxBytes) {
    throw new ArchiveRefused(`archive de plus de ${size(limits.maxBytes)}`);
  }
  const { refused, expanded } = await inspect(archive, limits);
  if (refused !== null) throw new ArchiveRefused(refused, expanded);
  mkdirSync(dirname(dest), { recursive: true });
  const partial = `${dest}.partiel`;
  rmSync(partial, { recursive: true, force: true });
  try {
    mkdirSync(partial);
    // Checked above, decompressed to no more than it was then; said again here, so that nothing
    // but files and folders is ever written.
    await pipeline(
      slices(archive),
      tar.x({
        cwd: partial,
        strict: true,
        preservePaths: false,
        filter: (path, entry) => 'type' in entry && WRITABLE.has(entry.type) && unsafePath(path) === null,
      }),
    );
    renameSync(partial, dest);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}
