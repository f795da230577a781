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
import { gzipSync } from 'node:zlib';
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

  it('refuses what is not a tar, said so', async () => {
    expect(await refusal(Buffer.from('pas une archive, du texte'.repeat(40)))).toMatch(/^archive illisible/);
  });
});
