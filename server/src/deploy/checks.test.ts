import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentJson, writeUnder } from '../site/render/fixtures';
import { checkFiles, DeployRefused } from './checks';

// The checks of a received version, on its folder as unpacked (docs/deploy.md, « The checks »). The
// endpoint's own tests (deploy.test.ts) send them through HTTP; what an archive cannot carry (a link)
// is tried here, on a folder made by hand.

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'checks-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A shell's version in `root/version`, listing `styles` in its document.json. */
function shellVersion(styles: string[]): string {
  const dir = join(root, 'version');
  writeUnder(
    dir,
    'part.json',
    JSON.stringify({ name: 'shell', contract: '2.4.0', builtAt: '2026-11-20', commit: null }),
  );
  writeUnder(dir, 'mf-manifest.json', JSON.stringify({ name: 'collectif_shell' }));
  writeUnder(dir, 'document.json', documentJson(styles));
  writeUnder(dir, 'main.css', 'body{margin:0}');
  return dir;
}

/** The refusal of `check`, as the team reads it. */
function refusal(check: () => unknown): string {
  try {
    check();
  } catch (error) {
    expect(error).toBeInstanceOf(DeployRefused);
    return (error as DeployRefused).message;
  }
  throw new Error('accepté');
}

describe("the shell's document.json at deploy", () => {
  it('accepts the files of its own folder', () => {
    expect(checkFiles('shell', shellVersion(['/main.css'])).info.name).toBe('shell');
  });

  it('refuses a sheet that is a link out of the folder, named', () => {
    writeUnder(root, 'secret.css', 'SECRET=1');
    const dir = shellVersion(['/main.css', '/lien.css']);
    symlinkSync(join(root, 'secret.css'), join(dir, 'lien.css'));
    expect(refusal(() => checkFiles('shell', dir))).toBe(
      'document.json : « /lien.css » (styles) mène hors du dossier du shell (lien)',
    );
  });

  it('refuses a climbing path, and says how many others there are', () => {
    expect(refusal(() => checkFiles('shell', shellVersion(['/../a.css', '/%2e%2e/b.css'])))).toBe(
      'document.json : « /../a.css » (styles) a un segment « . » ou « .. » (et 1 autre(s))',
    );
  });
});
