import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspaceRoot } from '../../settings/config';

// docs/rendering.md, « A page's way, file by file », names the server's modules a page request
// crosses: each named file exists, and every module of this folder is named there (on the way or
// off it), so that the table cannot drift from the code.

const doc = readFileSync(join(workspaceRoot, 'docs', 'rendering.md'), 'utf8');
const section = doc.slice(doc.indexOf("## A page's way, file by file"), doc.indexOf('## How a page is rendered'));
const named = [...section.matchAll(/`((?:site|content|http|files|deploy)\/[\w/.-]+\.ts)`/g)].map(
  (found) => found[1] ?? '',
);

describe('the page’s way in docs/rendering.md', () => {
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
