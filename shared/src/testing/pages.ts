import { join } from 'node:path';
import { declaredRoutes } from '../../build/pages.mjs';
import { pageTable, readPageDeclarations, type PageRef } from '../pages';
import { REMOTE_PARTS } from '../remotes';
import { hrefOf, type HrefOf } from '../addresses/paths';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * A remote's `pages.json` as its build writes it, from the `route` its page modules export
 * (docs/parts.md, « Pages »).
 */
export function pagesJson(folder: string): string {
  const part = REMOTE_PARTS.find((candidate) => candidate.folder === folder);
  if (part === undefined) throw new Error(`pas de partie « ${folder} »`);
  return `${JSON.stringify(declaredRoutes(join(ROOT, folder), part.exposes), null, 2)}\n`;
}

/**
 * The site's table as the server assembles it from every remote's declarations, read from the
 * sources: what tests that need the real pages run with (tools/jest/setup-dom.ts).
 */
export function declaredPages(): PageRef[] {
  return pageTable(
    Object.fromEntries(
      REMOTE_PARTS.map((part) => [
        part.name,
        readPageDeclarations(declaredRoutes(join(ROOT, part.folder), part.exposes), part.name),
      ]),
    ),
  );
}

/** Addresses from the pages the modules declare, as a page's context gives them (`PageContext.href`). */
export const declaredHref: HrefOf = hrefOf(declaredPages());
