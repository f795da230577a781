import { lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { watchedFile } from '../../files/watched-file';
import { inlineHash } from './csp';
import { fileInside, sitePathProblem } from './site-paths';

// The shell's assets (docs/rendering.md, « The document »): what its build lists for its page, checked
// and read again when it changes.

/**
 * What a build lists in `document.json` (shared/build/webpack.mjs, DocumentAssetsPlugin) for its
 * page: the shell's, and a standalone app's (the editor's, docs/content.md « The editor app »).
 */
export interface AssetLists {
  scripts: string[];
  styles: string[];
  fonts: string[];
}

/** What the shell's build lists in `document.json`: its files, and its loader. */
export interface ShellAssets extends AssetLists {
  /**
   * The loader a page rendered on the server starts with (shell/src/boot/loader.ts) and its CSP hash,
   * both made by the shell's build. Every shell of contract 2.5.0 or later has one; a list without it
   * (a shell built before) is refused since contract 3.0.0 (docs/contract.md, « 3.0.0 »).
   */
  loader: { source: string; hash: string };
  /**
   * Where the shell reads the table of pages: `file`, from `PAGE_TABLE_PATH` (the page does not
   * carry it, docs/rendering.md « The document »); `page`, from the page itself (a shell built before,
   * whose list says nothing).
   */
  pageTable: 'file' | 'page';
  /**
   * Who names the web app manifest in a page that starts with the loader: `loader`, once the first
   * screen is shown (the page does not carry its link); `page`, the page itself (a shell built before).
   */
  manifest: 'loader' | 'page';
}

/** Where the shell's build writes its assets' list, in its dist/. */
export const DOCUMENT_ASSETS = 'document.json';

export interface ReadShellAssetsOptions {
  /**
   * The shell's folder: an address whose file is there but resolves outside its real path (a link
   * out of it) is left out too.
   */
  dir?: string;
  /** Told of each address left out, in French, naming it. */
  warn?: (message: string) => void;
}

/**
 * The shell's list, checked (docs/deploy.md, « The checks »). Every address is a clean path of the
 * shell's folder (`sitePathProblem`; with `dir`, its file not a link out of it): one that is not is
 * left out, and `warn` names it, so that the page is still written, without it, and its file is never
 * read. Throws what is wrong with the list itself (not a list of texts, no usable loader).
 */
export function readShellAssets(data: unknown, options: ReadShellAssetsOptions = {}): ShellAssets {
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  return {
    ...readAssetLists(record, options),
    loader: readLoader(record.loader),
    pageTable: record.pageTable === 'file' ? 'file' : 'page',
    manifest: record.manifest === 'loader' ? 'loader' : 'page',
  };
}

/** A build's three lists, checked as `readShellAssets` says; the rest of `data` is not read. */
export function readAssetLists(
  data: unknown,
  { dir, warn = () => undefined }: ReadShellAssetsOptions = {},
): AssetLists {
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const list = (name: 'scripts' | 'styles' | 'fonts'): string[] => {
    const value = record[name];
    if (!Array.isArray(value) || !value.every((href) => typeof href === 'string')) {
      throw new Error(`${DOCUMENT_ASSETS} : « ${name} » doit être une liste d'adresses du site`);
    }
    return value.filter((href: string) => {
      const problem =
        sitePathProblem(href) ??
        (dir !== undefined && fileInside(dir, href) === null && fileNamed(dir, href)
          ? 'mène hors du dossier du shell (lien)'
          : null);
      if (problem !== null) warn(`${DOCUMENT_ASSETS} : « ${href} » (${name}) ${problem}`);
      return problem === null;
    });
  };
  return { scripts: list('scripts'), styles: list('styles'), fonts: list('fonts') };
}

/** Whether something is at a clean site path under `dir`, a link to nowhere included (never read). */
function fileNamed(dir: string, href: string): boolean {
  try {
    lstatSync(join(dir, ...href.slice(1).split('/')));
    return true;
  } catch {
    return false;
  }
}

/** The build's loader, checked: its hash must be its text's, or the policy would refuse it. */
function readLoader(value: unknown): ShellAssets['loader'] {
  if (value === undefined) {
    throw new Error(`${DOCUMENT_ASSETS} : « loader » manque (un shell construit avant le contrat 2.5.0)`);
  }
  const loader = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const { source, hash } = loader;
  if (typeof source !== 'string' || typeof hash !== 'string' || inlineHash(source) !== hash) {
    throw new Error(`${DOCUMENT_ASSETS} : « loader » doit avoir son texte et le hachage de ce texte`);
  }
  if (/<\/script|<!--/i.test(source))
    throw new Error(`${DOCUMENT_ASSETS} : « loader » ne peut pas être écrit dans une page`);
  return { source, hash };
}

/**
 * The shell's assets from its build, read again when the file changes (watched-file.ts). Null while
 * the file is missing or has never had a usable version (the site answers 503); a version that
 * cannot be used is logged once and the last usable one stays in use.
 */
export function shellAssetsReader(file: string, warn: (message: string) => void): () => ShellAssets | null {
  const assets = watchedFile(
    file,
    (text) =>
      readShellAssets(JSON.parse(text), {
        dir: dirname(file),
        warn: (message) => {
          warn(`Liste des fichiers du shell (${file}) : ${message} ; adresse ignorée`);
        },
      }),
    { warn, what: 'Liste des fichiers du shell' },
  );
  return () => assets();
}
