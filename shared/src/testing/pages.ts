import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pageTable, readPageDeclarations, type PageRef } from '../pages';
import { REMOTE_PARTS } from '../remotes';

const ROOT = join(__dirname, '..', '..', '..');

/** The file where a remote declares its pages (docs/parts.md, « Pages »). */
export const pagesSource = (folder: string) => join(ROOT, folder, 'src', 'pages.json');

/**
 * The site's table as the server assembles it from every remote's declarations, read from the
 * sources: what tests that need the real pages run with (tools/jest/setup-dom.ts).
 */
export function declaredPages(): PageRef[] {
  return pageTable(
    Object.fromEntries(
      // A remote that renders no page (the player) has no declarations.
      REMOTE_PARTS.filter((part) => existsSync(pagesSource(part.folder))).map((part) => [
        part.name,
        readPageDeclarations(JSON.parse(readFileSync(pagesSource(part.folder), 'utf8')), part.name),
      ]),
    ),
  );
}
