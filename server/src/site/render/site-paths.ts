import { realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import * as v from 'valibot';

// The site's paths (docs/deploy.md, « The checks »): the addresses a page may name, and the files
// they name on disk.

/**
 * Why `href` is not a clean address of this site, in French, or null. A clean address is a path from
 * the root: one `/`, then segments of letters, digits, `_`, `-`, `.` and `%`-escapes, none empty
 * (`//`: another host, or a folder's name dropped), none `.` or `..`, and no escape of a dot, a slash,
 * a backslash, a nul or a percent sign (`%2e`, `%2f`, `%5c`, `%00`, `%25`, either case). So no reader
 * of it climbs out of where it points: not the server joining it to a folder (a shell sheet read from
 * disk), not the static server or a browser, which decode escapes and resolve dot segments before
 * they look. Nor can it leave the attribute it is written in: no quote, space or angle bracket.
 */
export function sitePathProblem(href: unknown): string | null {
  if (typeof href !== 'string') return "n'est pas un texte";
  if (!href.startsWith('/') || href.startsWith('//')) return "n'est pas une adresse du site (un seul « / » au début)";
  if (/%(?:2e|2f|5c|00|25)/i.test(href)) {
    return 'contient un point, une barre, une barre inverse, un caractère nul ou un « % » encodés (%2e, %2f, %5c, %00, %25)';
  }
  if (!/^\/[A-Za-z0-9/_.%-]*$/.test(href)) {
    return 'contient un caractère interdit (lettres, chiffres, « _ », « - », « . », « % » et « / » seulement)';
  }
  const segments = href.slice(1).split('/');
  if (segments.some((segment) => segment === '.' || segment === '..')) return 'a un segment « . » ou « .. »';
  if (segments.some((segment) => segment === '')) return 'a un segment vide (« // » ou « / » à la fin)';
  return null;
}

/**
 * An address of this site that a page may name in an attribute (`sitePathProblem`). Written once for
 * what the shell's build lists (shell-assets.ts) and the images a page announces (hints.ts, `createHints`).
 */
export const sitePath = v.pipe(
  v.string(),
  v.check((href) => sitePathProblem(href) === null, 'adresse du site invalide'),
);

/**
 * The real path of the file a clean site path names inside `dir`, resolved through every link
 * (`dir` itself is one: a part's `live` version, or its version as built); null when it is missing,
 * or resolves outside `dir`'s real path (a link out of the folder).
 */
export function fileInside(dir: string, href: string): string | null {
  let root: string;
  let real: string;
  try {
    root = realpathSync(dir);
    real = realpathSync(join(root, ...href.slice(1).split('/')));
  } catch {
    return null;
  }
  return real.startsWith(`${root}${sep}`) ? real : null;
}

/**
 * Where a shell sheet named by its address is on disk: the real path of its file inside the shell's
 * folder; null (nothing to read, the sheet stays a link) when the address is not a clean site path
 * (`sitePathProblem`), the file is missing, or it resolves outside the folder's real path. Checked at
 * each use, whatever the list said when it was read: a link made later is not followed out either.
 */
export const shellSheetFile = (shellDir: string, href: string): string | null =>
  sitePathProblem(href) === null ? fileInside(shellDir, href) : null;
