import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGES, PARTS, REMOTE_PARTS, exposedFile, federationName, urlPrefix } from '../parts.mjs';
import { declaredPages } from './testing';

const root = join(__dirname, '..', '..');
const readJson = (path: string): unknown => JSON.parse(readFileSync(join(root, path), 'utf8'));

describe('the registry of parts', () => {
  it('names each part, folder and dev port once', () => {
    for (const key of ['name', 'folder', 'devPort'] as const) {
      const values = PARTS.map((part) => part[key]);
      expect(new Set(values).size).toBe(values.length);
    }
  });

  it('tells the shell, which loads the others and exposes nothing, from the remotes, which expose modules', () => {
    const names = PARTS.map((part) => part.name);
    expect(names).toContain('shell');
    expect(REMOTE_PARTS.map((part) => part.name)).toEqual(names.filter((name) => name !== 'shell'));
    for (const part of PARTS) expect(part.exposes.length > 0).toBe(part.name !== 'shell');
  });

  it('gives the dev servers ports one after another, the range `npm run doctor` names', () => {
    expect(new Set(PARTS.map((part, index) => part.devPort - index)).size).toBe(1);
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
    // bench/ and the jest configurations (tsconfig.jest.json) are type-checked too, but neither is a
    // part nor a workspace.
    expect(
      references
        .map((r) => r.path)
        .filter((path) => path !== 'bench' && path !== 'tsconfig.jest.json')
        .sort(),
    ).toEqual(folders);
  });

  it('gives each part a container name of its own, that a script can name', () => {
    const names = PARTS.map((part) => federationName(part.name));
    expect(new Set(names).size).toBe(names.length);
    // A global of the page, and the first word of the shell's imports (`<container>/<Module>`).
    for (const name of names) expect(name).toMatch(/^[A-Za-z_$][\w$]*$/);
  });

  it('serves each remote under a folder of the site that is its own: no other remote nor page is under it', () => {
    const pages = declaredPages().map((page) => `/${page.path}/`);
    for (const part of REMOTE_PARTS) {
      const prefix = urlPrefix(part);
      expect(prefix).toMatch(/^\/[\w.-]+\/$/);
      // An address under it leads back to this part alone (the server's static files, the dev proxy).
      const manifest = `${prefix}mf-manifest.json`;
      expect(REMOTE_PARTS.filter((other) => manifest.startsWith(urlPrefix(other)))).toEqual([part]);
      // A page there would be answered with the remote's files instead.
      expect(pages.filter((page) => page.startsWith(prefix))).toEqual([]);
    }
  });
});
