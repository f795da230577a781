import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspaceRoot } from '../../settings/config';

// docs/rendering.md, « A page's way, file by file », names the server's modules a page request
// crosses, in its table: each named file exists, they are at most 12 (a newcomer follows one page
// in as many files), and every module of this folder is named there (on the way or off it), so
// that the table cannot drift from the code.

const doc = readFileSync(join(workspaceRoot, 'docs', 'rendering.md'), 'utf8');
const section = doc.slice(doc.indexOf("## A page's way, file by file"), doc.indexOf('## How a page is rendered'));
const named = [...section.matchAll(/`((?:site|content|http|files|deploy)\/[\w/.-]+\.ts)`/g)].map(
  (found) => found[1] ?? '',
);

/** The files of the table's rows: the page's way itself (the paragraph after it names what is off it). */
const onTheWay = new Set(
  section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .flatMap((line) =>
      [...line.matchAll(/`((?:site|content|http|files|deploy)\/[\w/.-]+\.ts)`/g)].map((found) => found[1] ?? ''),
    ),
);

/** The most server files one page request may cross (server and renderer together). */
const MOST_FILES = 12;

describe('the page’s way in docs/rendering.md', () => {
  it(`crosses at most ${String(MOST_FILES)} server files`, () => {
    expect(onTheWay.size).toBeGreaterThan(5);
    expect([...onTheWay].length).toBeLessThanOrEqual(MOST_FILES);
  });

  it('names files that exist', () => {
    expect(named.length).toBeGreaterThan(10);
    for (const file of named)
      expect([file, existsSync(join(workspaceRoot, 'server', 'src', file))]).toEqual([file, true]);
  });

  it('names every module of the render folder', () => {
    const modules = readdirSync(join(workspaceRoot, 'server', 'src', 'site', 'render')).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    for (const module of modules) expect([module, named.includes(`site/render/${module}`)]).toEqual([module, true]);
  });
});
