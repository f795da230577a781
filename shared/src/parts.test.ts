import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGES, PARTS, REMOTE_PARTS, exposedFile, federationName, urlPrefix } from '../parts.mjs';

const root = join(__dirname, '..', '..');
const readJson = (path: string): unknown => JSON.parse(readFileSync(join(root, path), 'utf8'));

describe('the registry of parts', () => {
  it('names each part, folder and dev port once', () => {
    for (const key of ['name', 'folder', 'devPort'] as const) {
      const values = PARTS.map((part) => part[key]);
      expect(new Set(values).size).toBe(values.length);
    }
    expect(PARTS[0].name).toBe('shell');
    expect(REMOTE_PARTS.map((part) => part.name)).toEqual(PARTS.slice(1).map((part) => part.name));
  });

  it('points at folders that hold a workspace, a webpack config and every exposed module', () => {
    for (const part of PARTS) {
      expect(existsSync(join(root, part.folder, 'package.json'))).toBe(true);
      expect(existsSync(join(root, part.folder, 'webpack.config.mjs'))).toBe(true);
      for (const module of part.exposes) expect(existsSync(join(root, part.folder, exposedFile(module)))).toBe(true);
    }
  });

  it('is what the root package.json lists as workspaces and tsconfig.json as references', () => {
    const folders = [...PARTS.map((part) => part.folder), ...PACKAGES].sort();
    const { workspaces } = readJson('package.json') as { workspaces: string[] };
    expect([...workspaces].sort()).toEqual(folders);
    const { references } = readJson('tsconfig.json') as { references: { path: string }[] };
    // bench/ is type-checked too, but it is neither a part nor a workspace.
    expect(
      references
        .map((r) => r.path)
        .filter((path) => path !== 'bench')
        .sort(),
    ).toEqual(folders);
  });

  it('gives each remote its container name and its own path on the site', () => {
    expect(federationName('radio')).toBe('collectif_radio');
    expect(REMOTE_PARTS.map((part) => urlPrefix(part))).toEqual([
      '/mf-player/',
      '/mf-radio/',
      '/mf-label/',
      '/mf-about/',
    ]);
  });
});
