import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchedFile, type FileVersion } from './watched-file';

let dir: string;
let file: string;
let warnings: string[];
let versions: FileVersion[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'watched-file-'));
  file = join(dir, 'settings.json');
  warnings = [];
  versions = [];
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The file's JSON, `name` required: what a reader's `parse` does, counted. */
function watched() {
  return watchedFile(
    file,
    (text, version) => {
      versions.push(version);
      const data = JSON.parse(text) as { name?: unknown };
      if (typeof data.name !== 'string') throw new Error('« name » manquant');
      return data.name;
    },
    { warn: (message) => warnings.push(message), what: 'Réglages' },
  );
}

describe('a file read again when it changes', () => {
  it('reads and parses the file on the first read', () => {
    writeFileSync(file, '{"name":"un"}');
    expect(watched()()).toBe('un');
    expect(versions).toEqual([{ id: expect.stringMatching(/^13-[\d.]+-\d+$/) as unknown, size: 13 }]);
    expect(warnings).toEqual([]);
  });

  it('parses an unchanged file once, however often it is read', () => {
    writeFileSync(file, '{"name":"un"}');
    const settings = watched();
    for (let i = 0; i < 5; i += 1) expect(settings()).toBe('un');
    expect(versions).toHaveLength(1);
  });

  it('reads the file again when its size changes', () => {
    writeFileSync(file, '{"name":"un"}');
    const settings = watched();
    expect(settings()).toBe('un');
    writeFileSync(file, '{"name":"deux"}');
    expect(settings()).toBe('deux');
    expect(settings()).toBe('deux');
    expect(versions).toHaveLength(2);
  });

  it('reads the file again when only its time changes', () => {
    writeFileSync(file, '{"name":"un"}');
    const settings = watched();
    expect(settings()).toBe('un');
    // Same size, written within the same tick of the clock: its time is set apart explicitly.
    writeFileSync(file, '{"name":"ui"}');
    const { mtime } = statSync(file);
    utimesSync(file, mtime, new Date(mtime.getTime() + 5000));
    expect(settings()).toBe('ui');
    expect(versions.map((version) => version.size)).toEqual([13, 13]);
  });

  it('keeps the last good version while the file is unusable, and says so once per version', () => {
    writeFileSync(file, '{"name":"un"}');
    const settings = watched();
    expect(settings()).toBe('un');
    writeFileSync(file, '{"name":');
    for (let i = 0; i < 5; i += 1) expect(settings()).toBe('un');
    expect(versions).toHaveLength(2);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^Réglages inutilisable \(.*settings\.json\) : .+ ; la dernière version utilisable reste en service$/,
      ),
    ]);
    expect(warnings[0]).toContain(file);
    expect(settings.problem()).not.toBeNull();
    // Another unusable version is said too, once.
    writeFileSync(file, '{"nom":"un"}');
    for (let i = 0; i < 3; i += 1) expect(settings()).toBe('un');
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain(': « name » manquant ;');
    expect(settings.problem()).toBe('« name » manquant');
  });

  it('reads a repaired file', () => {
    writeFileSync(file, '{"name":"un"}');
    const settings = watched();
    expect(settings()).toBe('un');
    writeFileSync(file, '{"name":');
    expect(settings()).toBe('un');
    writeFileSync(file, '{"name":"réparé"}');
    expect(settings()).toBe('réparé');
    expect(settings.problem()).toBeNull();
    expect(warnings).toHaveLength(1);
  });

  it('has no value when the file never had a usable version, and says so once', () => {
    writeFileSync(file, '[]');
    const settings = watched();
    for (let i = 0; i < 3; i += 1) expect(settings()).toBeNull();
    expect(versions).toHaveLength(1);
    expect(warnings).toEqual([`Réglages inutilisable (${file}) : « name » manquant`]);
  });

  it('tries again a file it could not read, and says so once', () => {
    mkdirSync(file);
    const settings = watched();
    for (let i = 0; i < 3; i += 1) expect(settings()).toBeNull();
    expect(versions).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/^Réglages inutilisable \(.*settings\.json\) : .*EISDIR/)]);
    expect(settings.problem()).toMatch(/EISDIR/);
    rmSync(file, { recursive: true });
    writeFileSync(file, '{"name":"un"}');
    expect(settings()).toBe('un');
    expect(warnings).toHaveLength(1);
  });

  it('has no value for a missing file, and reads it as new when it comes back', () => {
    const settings = watched();
    expect(settings()).toBeNull();
    expect(settings.problem()).toBeNull();
    writeFileSync(file, '{"name":"un"}');
    expect(settings()).toBe('un');
    rmSync(file);
    expect(settings()).toBeNull();
    // Back, unusable: the value from before it went is not used again.
    writeFileSync(file, '{"name":');
    expect(settings()).toBeNull();
    expect(warnings).toEqual([expect.not.stringContaining('reste en service')]);
    writeFileSync(file, '{"name":"un"}');
    expect(settings()).toBe('un');
    expect(versions).toHaveLength(3);
    expect(warnings).toHaveLength(1);
  });
});
