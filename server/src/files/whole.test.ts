import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setAsideSync, switchLinkSync, writeWhole, writeWholeSync } from './whole';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'entier-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('a file replaced whole', () => {
  it('replaces the old file and leaves no temporary beside it, async and sync', async () => {
    const file = join(dir, 'comptes.json');
    writeFileSync(file, 'ancien');
    await writeWhole(file, 'nouveau');
    expect(readFileSync(file, 'utf8')).toBe('nouveau');
    writeWholeSync(file, 'encore');
    expect(readFileSync(file, 'utf8')).toBe('encore');
    expect(readdirSync(dir)).toEqual(['comptes.json']);
  });

  it('keeps the old file, and no temporary, when the replacement fails', async () => {
    // A folder where the file would go: the rename over it fails.
    const taken = join(dir, 'dossier');
    mkdirSync(join(taken, 'dedans'), { recursive: true });
    await expect(writeWhole(taken, 'texte')).rejects.toThrow();
    expect(() => {
      writeWholeSync(taken, 'texte');
    }).toThrow();
    expect(readdirSync(dir)).toEqual(['dossier']);
    expect(readdirSync(taken)).toEqual(['dedans']);
  });

  it('switches a link at once, and leaves no temporary link', () => {
    const link = join(dir, 'live');
    switchLinkSync(link, 'versions/1');
    switchLinkSync(link, 'versions/2');
    expect(readlinkSync(link)).toBe('versions/2');
    expect(readdirSync(dir)).toEqual(['live']);
  });
});

describe('a file set aside whole', () => {
  it('moves to its new name at once, and never over a file already there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'de-cote-'));
    try {
      writeFileSync(join(dir, 'a.json'), 'premier');
      writeFileSync(join(dir, 'b.json'), 'second');
      setAsideSync(join(dir, 'a.json'), join(dir, 'a.json.de-cote'));
      expect(readdirSync(dir).sort()).toEqual(['a.json.de-cote', 'b.json']);
      expect(readFileSync(join(dir, 'a.json.de-cote'), 'utf8')).toBe('premier');
      expect(() => {
        setAsideSync(join(dir, 'b.json'), join(dir, 'a.json.de-cote'));
      }).toThrow();
      expect(readFileSync(join(dir, 'a.json.de-cote'), 'utf8')).toBe('premier');
      expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe('second');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
