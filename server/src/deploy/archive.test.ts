import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import * as tar from 'tar';
import { ArchiveRefused, unpackArchive, type ArchiveLimits } from './archive';

// A part's archive, as a team's deploy sends it (docs/deploy.md, « A team's deploy »): written
// whole into its own folder, or refused with nothing written anywhere.

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'archive-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

interface RawEntry {
  path: string;
  type?: string;
  body?: Buffer;
  linkpath?: string;
}

/** A tar written entry by entry, headers and all, as a hostile sender could write it. */
function rawTar(entries: readonly RawEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const { path, type = 'File', body = Buffer.alloc(0), linkpath } of entries) {
    const header = new tar.Header({
      path,
      type: type as tar.Header['type'],
      size: type === 'File' ? body.length : 0,
      mode: 0o644,
      mtime: new Date('2026-11-25T00:00:00Z'),
      ...(linkpath === undefined ? {} : { linkpath }),
    });
    header.encode();
    blocks.push(header.block ?? Buffer.alloc(512));
    if (type === 'File' && body.length > 0) {
      blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** Everything under the test's folder, as relative paths. */
const written = () => readdirSync(root, { recursive: true }).map(String).sort();

const LIMITS: ArchiveLimits = { maxBytes: 64 * 1024, maxExpandedBytes: 256 * 1024, maxFiles: 10 };

/** What a gzip bomb expands to: 512 times LIMITS.maxExpandedBytes. */
const BOMB_BYTES = 128 * 1024 * 1024;

/**
 * A gzipped tar of files of `size` bytes each, then `after` bytes past the tar's end, compressed as
 * it is made (never held whole): zeros with a few varied bytes in each 64 KB, so that it compresses
 * about 200 to 1, under node-tar's own ratio guard (1,000), as a bomb made to pass it would.
 */
async function bomb(files: readonly { path: string; size: number }[], after = 0): Promise<Buffer> {
  function* blocks() {
    let seed = 1;
    const filler = (length: number) => {
      const chunk = Buffer.alloc(length);
      for (let i = 0; i < length; i += 256) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        chunk[i] = seed & 0xff;
      }
      return chunk;
    };
    const stream = function* (length: number) {
      for (let left = length; left > 0; left -= 64 * 1024) yield filler(Math.min(left, 64 * 1024));
    };
    for (const { path, size } of files) {
      const header = new tar.Header({ path, type: 'File', size, mode: 0o644, mtime: new Date('2026-11-25T00:00:00Z') });
      header.encode();
      yield header.block ?? Buffer.alloc(512);
      yield* stream(size);
      yield Buffer.alloc((512 - (size % 512)) % 512);
    }
    yield Buffer.alloc(1024);
    yield* stream(after);
  }
  const chunks: Buffer[] = [];
  const gzip = createGzip({ level: 9 });
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  await pipeline(Readable.from(blocks()), gzip);
  return Buffer.concat(chunks);
}

/** A refused archive's reason and how far it was read, with nothing written. */
async function refusedArchive(archive: Buffer, limits: ArchiveLimits): Promise<ArchiveRefused> {
  const dest = join(root, 'versions', 'v2');
  const error = await unpackArchive(archive, dest, limits).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ArchiveRefused);
  expect(written().filter((path) => path !== 'versions')).toEqual([]);
  return error as ArchiveRefused;
}

async function refusal(archive: Buffer, limits = LIMITS): Promise<string> {
  const dest = join(root, 'versions', 'v2');
  const error = await unpackArchive(archive, dest, limits).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ArchiveRefused);
  // Nothing written: not the version's folder, nothing beside it, nothing above it.
  expect(existsSync(dest)).toBe(false);
  expect(written().filter((path) => path !== 'versions')).toEqual([]);
  return (error as Error).message;
}

describe('unpacking a part', () => {
  it('writes a gzipped dist/ into its own new folder, files and folders as they were', async () => {
    const dist = join(root, 'source');
    mkdirSync(join(dist, 'server'), { recursive: true });
    writeFileSync(join(dist, 'remoteEntry.js'), 'var radio;');
    writeFileSync(join(dist, 'server', 'remoteEntry.js'), 'exports.modules = {};');
    const archive = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      tar
        .c({ cwd: dist, gzip: true }, ['.'])
        .on('data', (chunk: Buffer) => chunks.push(chunk))
        .on('end', () => {
          resolve(Buffer.concat(chunks));
        })
        .on('error', reject);
    });
    const dest = join(root, 'versions', 'v1');
    await unpackArchive(archive, dest, LIMITS);
    expect(readFileSync(join(dest, 'remoteEntry.js'), 'utf8')).toBe('var radio;');
    expect(readFileSync(join(dest, 'server', 'remoteEntry.js'), 'utf8')).toBe('exports.modules = {};');
    expect(readdirSync(join(root, 'versions'))).toEqual(['v1']);
  });

  it('refuses a path that climbs out of the folder', async () => {
    const message = await refusal(rawTar([{ path: '../../evil.js', body: Buffer.from('pwned') }]));
    expect(message).toBe('chemin qui sort du dossier refusé : ../../evil.js');
    expect(existsSync(join(root, '..', 'evil.js'))).toBe(false);
  });

  it('refuses an absolute path', async () => {
    expect(await refusal(rawTar([{ path: '/tmp/evil.js', body: Buffer.from('pwned') }]))).toBe(
      'chemin absolu refusé : /tmp/evil.js',
    );
  });

  it('refuses links, hard or symbolic, even to a place inside', async () => {
    expect(await refusal(rawTar([{ path: 'lien', type: 'SymbolicLink', linkpath: '/etc/passwd' }]))).toBe(
      "« lien » n'est ni un fichier ni un dossier (SymbolicLink)",
    );
    expect(await refusal(rawTar([{ path: 'dur', type: 'Link', linkpath: 'remoteEntry.js' }]))).toBe(
      "« dur » n'est ni un fichier ni un dossier (Link)",
    );
    // A link made the ordinary way, by tar from a folder that holds one.
    const dist = join(root, 'source');
    mkdirSync(dist);
    symlinkSync('/etc/passwd', join(dist, 'passwd'));
    const packed = await tar.c({ cwd: dist, sync: false }, ['.']).concat();
    rmSync(dist, { recursive: true });
    expect(await refusal(Buffer.from(packed))).toMatch(/passwd.*SymbolicLink/);
  });

  it('refuses device files and pipes', async () => {
    expect(await refusal(rawTar([{ path: 'zero', type: 'CharacterDevice' }]))).toMatch(/CharacterDevice/);
    expect(await refusal(rawTar([{ path: 'disque', type: 'BlockDevice' }]))).toMatch(/BlockDevice/);
    expect(await refusal(rawTar([{ path: 'tube', type: 'FIFO' }]))).toMatch(/FIFO/);
  });

  it('refuses an archive over its size, one that expands past its cap, and one with too many files', async () => {
    expect(await refusal(Buffer.alloc(LIMITS.maxBytes + 1))).toBe('archive de plus de 64 Ko');
    // 1 MB of zeros gzips to about 1 KB: under the archive's cap, four times over the expanded one.
    const bomb = gzipSync(rawTar([{ path: 'zeros.bin', body: Buffer.alloc(1024 * 1024) }]));
    expect(bomb.length).toBeLessThan(LIMITS.maxBytes);
    expect(await refusal(bomb)).toBe('plus de 256 Ko une fois décompressé');
    const many = rawTar(Array.from({ length: 11 }, (_, i) => ({ path: `f${String(i)}.js`, body: Buffer.from('x') })));
    expect(await refusal(many)).toBe('plus de 10 fichiers');
  });

  it('stops reading a gzip bomb at its cap, whatever its headers say, and writes nothing', async () => {
    const limits = { ...LIMITS, maxBytes: 4 * 1024 * 1024 };
    const cap = 1024 * 1024;
    // One file said to be 128 MB (500 times the cap) in under 2 MB of gzip: read at the first header.
    const declared = await bomb([{ path: 'zeros.bin', size: BOMB_BYTES }]);
    expect(declared.length).toBeLessThan(limits.maxBytes);
    const first = await refusedArchive(declared, limits);
    expect(first.message).toBe('plus de 256 Ko une fois décompressé');
    expect(first.expandedBytes).toBeLessThan(cap);
    // A small file, then 128 MB of zeros after the tar's end that no header accounts for.
    const trailing = await bomb([{ path: 'petit.js', size: 1024 }], BOMB_BYTES);
    const second = await refusedArchive(trailing, limits);
    expect(second.message).toBe('plus de 256 Ko une fois décompressé');
    expect(second.expandedBytes).toBeGreaterThan(LIMITS.maxExpandedBytes);
    expect(second.expandedBytes).toBeLessThan(cap);
  }, 60_000);

  it('stops at the first refusal, not at the end of the archive', async () => {
    const limits = { ...LIMITS, maxBytes: 4 * 1024 * 1024 };
    // Too many files, then a large file within the caps' reach had it been read.
    const entries = [
      ...Array.from({ length: 11 }, (_, i) => ({ path: `f${String(i)}.js`, size: 1 })),
      { path: 'grand.bin', size: BOMB_BYTES },
    ];
    const many = await refusedArchive(await bomb(entries), limits);
    expect(many.message).toBe('plus de 10 fichiers');
    expect(many.expandedBytes).toBeLessThan(128 * 1024);
    const climbing = await refusedArchive(
      await bomb([
        { path: '../evade.js', size: 1 },
        { path: 'grand.bin', size: BOMB_BYTES },
      ]),
      limits,
    );
    expect(climbing.message).toBe('chemin qui sort du dossier refusé : ../evade.js');
    expect(climbing.expandedBytes).toBeLessThan(128 * 1024);
  }, 60_000);

  it('refuses a tar compressed twice: its inner layer would be decompressed unchecked', async () => {
    const twice = gzipSync(gzipSync(rawTar([{ path: 'a.js', body: Buffer.from('x') }])));
    expect(await refusal(twice)).toBe(
      "archive compressée deux fois, ou autrement qu'en gzip : envoyez le tar du dist/, gzippé une fois",
    );
  });

  it('refuses what is not a tar, said so', async () => {
    expect(await refusal(Buffer.from('pas une archive, du texte'.repeat(40)))).toMatch(/^archive illisible/);
  });
});
