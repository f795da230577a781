import { createElement as h, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import * as v from 'valibot';
import {
  SSR_STATE_ID,
  PAGES_CONFIG_ID,
  REMOTES_CONFIG_ID,
  ROUTER_STATE_ID,
  type PageRef,
  type RemotesConfig,
} from '@collectif/shared';
import { colors } from '@collectif/shared/tokens';
import { headElement, type HeadElement, scriptJson } from '@collectif/shared/seo';
import { watchedFile, type WatchedFile } from '../../files/watched-file';
import { inlineHash, serializePolicy, withHashes, type PolicyDirectives } from '../headers';
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { BOOT_ID, MANIFEST_PATH, PAGE_TABLE_PATH, type BootPreload } from '@collectif/shared/boot';
import { PREVIEW_CONFIG_ID } from '@collectif/shared/preview';
import { RADIO_SETTINGS_ID, type RadioSettings } from '@collectif/shared/config';
import type { PageHints } from '../hints';

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
 * what the shell's build lists (below) and the images a page announces (hints.ts).
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
function fileInside(dir: string, href: string): string | null {
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
 * The page as sent (docs/rendering.md, « The document »): one model of the page, and one React
 * component that writes the whole document from it, never from the build's HTML. The shell's build
 * says which scripts, style sheets and fonts its entry has and its loader (`document.json`); the
 * page says its head and, when rendered on the server, its HTML and the store's state. The browser
 * takes over `#root` only; the rest is static. Every HTML page the site sends is written here: its
 * pages, the page of an address that cannot be read, the framed player.
 */

/** What the shell's build lists in `document.json` (shared/build/webpack.mjs, DocumentAssetsPlugin). */
export interface ShellAssets {
  scripts: string[];
  styles: string[];
  fonts: string[];
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
export function readShellAssets(
  data: unknown,
  { dir, warn = () => undefined }: ReadShellAssetsOptions = {},
): ShellAssets {
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
  return {
    scripts: list('scripts'),
    styles: list('styles'),
    fonts: list('fonts'),
    loader: readLoader(record.loader),
    pageTable: record.pageTable === 'file' ? 'file' : 'page',
    manifest: record.manifest === 'loader' ? 'loader' : 'page',
  };
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

/**
 * A sheet of the page: its address, and its text when it is written into the page (`createStyleReader`, below);
 * a page's own style (the framed player's) has no address.
 */
export type Sheet = InlineStyle | { href: string; css: null } | { href: null; css: string };

/** A data element of the page (`<script type="application/json" id>`), its JSON safe in a script. */
export interface DataScript {
  id: string;
  /** `scriptJson` of the value. */
  json: string;
}

/**
 * Everything a page is made of (docs/rendering.md, « The document »), built in one place
 * (render/page-writer.ts for the site's pages) and written by `Document` alone; the page's
 * Content-Security-Policy is computed from it (`documentPolicy`), never from the HTML.
 */
export interface DocumentModel {
  /**
   * `site`: a page of the site (its icons, manifest and colour, the notice for a browser without
   * JavaScript); `frame`: the player made to be framed by other sites (docs/embed.md).
   */
  kind: 'site' | 'frame';
  /** The tab's icon: the logo written into the page (`data:`) when it is small (`iconReader`), else its file. */
  icon: string;
  /** Whether the page names its web app manifest (one whose loader names it does not). */
  manifest: boolean;
  /** The page's own head: title, description, canonical, alternates, cards (its JSON-LD is in its body). */
  head: readonly HeadElement[];
  /**
   * The page's sheets in the order they apply (the shell's before the areas'): each written into
   * the page (its text, `css`), or linked when it could not be (`css` null).
   */
  sheets: readonly Sheet[];
  /** What the page's scripts read: the page table, the radio's settings, the remote map… */
  data: readonly DataScript[];
  /** `<link>`s that announce what the page needs: its first image, then preconnects and preloads. */
  links: readonly HeadElement[];
  /**
   * Fonts to preload: a page the browser renders only. A page rendered on the server asks for the
   * display face once its first screen is painted (its loader, docs/interface.md « Typography »).
   */
  fonts: readonly string[];
  /** Scripts fetched at once (deferred). */
  scripts: readonly string[];
  /**
   * A page rendered on the server starts with the shell's loader (written at the end of the body,
   * given the entry), which fetches the scripts once the page is painted; null otherwise.
   */
  loader: { source: string; hash: string; entry: string } | null;
  /**
   * The body: the app's root, with its HTML when rendered on the server and the store's state
   * (`SSR_STATE_ID`, JSON safe in a script); or HTML of its own (a page without the app).
   */
  body: { app: string; state?: string } | { html: string };
}

const dataElement = ({ id, json }: DataScript): ReactElement =>
  h('script', { key: id, type: 'application/json', id, dangerouslySetInnerHTML: { __html: json } });

/** The icons, the manifest and the colour of every page of the site (docs/published.md, « Installable »). */
const siteFurniture = ({ icon, manifest }: DocumentModel) => [
  h('meta', { key: 'theme', name: 'theme-color', content: colors.bg }),
  h('link', { key: 'icon', rel: 'icon', href: icon, type: 'image/svg+xml' }),
  // With the page's credentials: a manifest asked for without them takes a connection of its own
  // (Chromium keeps those apart), a second handshake while the page's largest picture is on its way.
  manifest
    ? h('link', { key: 'manifest', rel: 'manifest', href: MANIFEST_PATH, crossOrigin: 'use-credentials' })
    : null,
  h('link', { key: 'touch', rel: 'apple-touch-icon', href: '/assets/images/icon-192.png' }),
];

/** The whole page, from its model. */
export function Document({ model }: { model: DocumentModel }): ReactElement {
  const { kind, body, loader } = model;
  return h(
    'html',
    kind === 'frame' ? { lang: 'fr', 'data-collectif-cadre': '' } : { lang: 'fr' },
    h(
      'head',
      null,
      h('meta', { charSet: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1, viewport-fit=cover' }),
      kind === 'site'
        ? siteFurniture(model)
        : [
            h('meta', { key: 'robots', name: 'robots', content: 'noindex' }),
            h('link', { key: 'icon', rel: 'icon', href: model.icon, type: 'image/svg+xml' }),
          ],
      // The shell's sheets before the areas': the order a page reached in the browser has, where the
      // shell's are there first and each area's are added when its module loads. A rule of an area
      // then wins over the shell's of the same weight alike on every page.
      // A sheet written in carries its file's address (`data-href`): webpack's and the federation
      // runtime's loaders find it there and do not fetch it again.
      model.sheets.map(({ href, css }, index) =>
        css === null
          ? h('link', { key: href, rel: 'stylesheet', href })
          : h('style', {
              key: href ?? `style-${String(index)}`,
              ...(href === null ? {} : { 'data-href': href }),
              dangerouslySetInnerHTML: { __html: css },
            }),
      ),
      model.head.map(headElement),
      model.data.map(dataElement),
      model.links.map((link, index) => headElement(link, `link-${String(index)}`)),
      model.fonts.map((href) =>
        h('link', { key: href, rel: 'preload', href, as: 'font', type: 'font/woff2', crossOrigin: '' }),
      ),
      model.scripts.map((src) => h('script', { key: src, defer: true, src })),
    ),
    'app' in body
      ? h(
          'body',
          null,
          h('div', { id: 'root', dangerouslySetInnerHTML: { __html: body.app } }),
          body.state === undefined ? null : dataElement({ id: SSR_STATE_ID, json: body.state }),
          loader === null
            ? null
            : h('script', { 'data-src': loader.entry, dangerouslySetInnerHTML: { __html: loader.source } }),
          h(
            'noscript',
            null,
            h('p', { className: 'noscript' }, 'La radio en direct et les replays ont besoin de JavaScript.'),
          ),
        )
      : h('body', { dangerouslySetInnerHTML: { __html: body.html } }),
  );
}

/** The page as HTML. */
export function renderDocument(model: DocumentModel): string {
  return `<!doctype html>${renderToStaticMarkup(h(Document, { model }))}`;
}

/**
 * The page's policy: the site's (or the frame's), with the hash of each sheet written into it in
 * `style-src` and the loader's in `script-src`, from the model, never by reading the HTML.
 */
export function documentPolicy(model: DocumentModel, base: PolicyDirectives): string {
  const styles = [...new Set(model.sheets.flatMap(({ css }) => (css === null ? [] : [inlineHash(css)])))];
  const withStyles = withHashes(base, 'style-src', styles);
  return serializePolicy(
    model.loader === null ? withStyles : withHashes(withStyles, 'script-src', [model.loader.hash]),
  );
}

/** An empty model of a page of the site, to be filled in. */
export const emptyModel = (body: DocumentModel['body']): DocumentModel => ({
  kind: 'site',
  icon: LOGO_PATH,
  manifest: true,
  head: [],
  sheets: [],
  data: [],
  links: [],
  fonts: [],
  scripts: [],
  loader: null,
  body,
});

/** A French page for an address that cannot be read (undecodable characters), with status 400. */
export function invalidAddressPage(): string {
  return renderDocument({
    ...emptyModel({
      html: '<main><h1>Adresse invalide</h1><p>Cette adresse contient des caractères illisibles.</p><p><a href="/">Retour à l\'accueil</a></p></main>',
    }),
    head: [{ tag: 'title', attributes: [], text: 'Adresse invalide' }],
  });
}

/**
 * The model of a page of the site (docs/rendering.md, « The document »), made here and nowhere
 * else: its head, the data its scripts read, the sheets written into it, what it announces, its
 * scripts or the loader, and its body. `Document` writes it; its policy is computed from it.
 */

export interface PageModelInput {
  /** The shell's build: its scripts, sheets, fonts and loader. */
  assets: ShellAssets;
  /** The shell's sheets that can be written into the page, by address (`createStyleReader`, below). */
  shellStyles: ReadonlyMap<string, string>;
  /** The page's own head: its definition's (rendered), or the table's title and description. */
  head: readonly HeadElement[];
  pages: readonly PageRef[];
  radio: RadioSettings;
  /** The remote map the browser loads the parts from. */
  remotes: RemotesConfig;
  /** What the page announces and, rendered on the server, its areas' sheets (site/hints.ts). */
  hints: PageHints;
  /**
   * The page rendered on the server: its HTML, the store's state and the router's hydration data
   * (each `scriptJson`), made where it was.
   */
  rendered?: { body: string; state: string; router: string };
  /** The editor's own origin (EDITOR_ORIGIN), whose preview may frame the page; null: none. */
  editorOrigin?: string | null;
  /** The tab's icon (`iconReader`); the logo's file without it. */
  icon?: string;
}

const data = (id: string, value: unknown): DataScript => ({ id, json: scriptJson(value) });

export function pageModel({
  assets,
  shellStyles,
  head,
  pages,
  radio,
  remotes,
  hints,
  rendered,
  editorOrigin = null,
  icon = LOGO_PATH,
}: PageModelInput): DocumentModel {
  const [entry] = assets.scripts;
  // A page rendered on the server starts with the loader, which fetches the scripts once painted; a
  // page the browser renders fetches them at once.
  const loader = rendered === undefined || entry === undefined ? null : assets.loader;
  const sheets: Sheet[] = [
    ...assets.styles.map((href) => ({ href, css: shellStyles.get(href) ?? null })),
    ...hints.sheets,
  ];
  // The table of pages: in the page for a shell that reads it there; else a file the page asks for
  // with its scripts (the loader's first, or announced beside the scripts of a page the browser
  // renders), revalidated at each visit, rather than 600 bytes of every document (« The document »).
  const tableInPage = assets.pageTable === 'page';
  const table: BootPreload = { href: PAGE_TABLE_PATH, as: 'fetch', crossorigin: 'anonymous' };
  const boot = tableInPage || hints.boot === null ? hints.boot : [table, ...hints.boot];
  return {
    ...emptyModel(rendered === undefined ? { app: '' } : { app: rendered.body, state: rendered.state }),
    icon,
    // Named by the loader once the first screen is shown, when the shell's loader does so: the browser
    // asks for a page's manifest as the page loads, before its largest picture may be shown.
    manifest: loader === null || assets.manifest !== 'loader',
    head,
    // A sheet two areas share is written once.
    sheets: [...new Map(sheets.map((sheet) => [sheet.href, sheet])).values()],
    data: [
      ...(tableInPage ? [data(PAGES_CONFIG_ID, pages)] : []),
      data(RADIO_SETTINGS_ID, radio),
      data(REMOTES_CONFIG_ID, remotes),
      // The editor's origin, from which the page takes a preview's content (shell's PreviewBridge).
      ...(editorOrigin === null ? [] : [data(PREVIEW_CONFIG_ID, { editorOrigin })]),
      ...(rendered === undefined ? [] : [{ id: ROUTER_STATE_ID, json: rendered.router }]),
      ...(loader === null || boot === null ? [] : [data(BOOT_ID, { preloads: boot })]),
    ],
    links:
      tableInPage || loader !== null
        ? hints.links
        : [
            ...hints.links,
            {
              tag: 'link',
              attributes: [
                ['rel', 'preload'],
                ['href', table.href],
                ['as', table.as],
                ['crossorigin', 'anonymous'],
              ],
            },
          ],
    fonts: loader === null ? assets.fonts : [],
    scripts: loader === null ? assets.scripts : [],
    loader: loader === null || entry === undefined ? null : { ...loader, entry },
  };
}

/**
 * Where a shell sheet named by its address is on disk: the real path of its file inside the shell's
 * folder; null (nothing to read, the sheet stays a link) when the address is not a clean site path
 * (`sitePathProblem`), the file is missing, or it resolves outside the folder's real path. Checked at
 * each use, whatever the list said when it was read: a link made later is not followed out either.
 */
export const shellSheetFile = (shellDir: string, href: string): string | null =>
  sitePathProblem(href) === null ? fileInside(shellDir, href) : null;

/**
 * The style sheets of a page rendered on the server are written into it (docs/rendering.md,
 * « Styles in the page »): the first screen needs no round trip for them. Each `<style>` carries
 * the sheet's address (`data-href`), so that webpack's and the federation runtime's loaders find it
 * there and do not block on it again; the page's Content-Security-Policy allows each by its hash,
 * never with 'unsafe-inline'.
 */

/** A built sheet as read from disk: its address on the site and its text. */
export interface InlineStyle {
  href: string;
  css: string;
}

/** Past this a sheet stays a link: the page would carry more than it saves (60 KB). */
export const INLINE_STYLE_MAX_BYTES = 60 * 1024;

/**
 * Reads built sheets, again when a file changes (a part redeployed; watched-file.ts). Null for no
 * file (null: its address was refused), a file that is missing, too large, or whose text could end
 * the `<style>` element (`</style`): that sheet stays a link.
 */
export function createStyleReader(): (file: string | null) => string | null {
  const sheets = new Map<string, WatchedFile<string | null>>();
  const inline = (text: string, { size }: { size: number }) =>
    size > INLINE_STYLE_MAX_BYTES || /<\/style/i.test(text) ? null : text;
  return function read(file) {
    // No file to read (`shellSheetFile` refused the address): the sheet stays a link.
    if (file === null) return null;
    let sheet = sheets.get(file);
    if (sheet === undefined) {
      sheet = watchedFile(file, inline);
      sheets.set(file, sheet);
    }
    return sheet();
  };
}

/** The site's logo, the tab's icon of every page (docs/published.md, « Installable »). */
export const LOGO_PATH = '/assets/images/logo.svg';

/** Past this the logo stays a file: written into every page, it would cost more than its request. */
export const INLINE_ICON_MAX_BYTES = 1024;

/**
 * The tab's icon of the pages (docs/rendering.md, « The first screen's budget »): the logo written
 * into the page as a `data:` address when it is a small SVG, read again when it changes. The browser
 * asks for a page's icon as the page loads, before its largest picture may be shown, and Lighthouse's
 * slow 4G counted that request in the largest paint; written in, nothing is asked for. A larger logo,
 * one that is not SVG, or none, stays its file.
 */
export function iconReader(assetsDir: string): () => string {
  const logo = watchedFile(join(assetsDir, ...LOGO_PATH.slice('/assets/'.length).split('/')), (text, { size }) =>
    size <= INLINE_ICON_MAX_BYTES && /^\s*<svg[\s>]/.test(text)
      ? `data:image/svg+xml,${svgAddress(text.trim())}`
      : null,
  );
  return () => logo() ?? LOGO_PATH;
}

/**
 * An SVG as the text of a `data:` address, escaped only where an address needs it (`%`, `#`, tabs
 * and line ends, which the address parser drops); its double quotes become single ones, unless it has
 * single ones of its own. About 100 to 140 bytes of a page's brotli for the site's logo.
 */
function svgAddress(svg: string): string {
  const hex = (character: string) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  // `%` with the others, in one pass: no escape is escaped again.
  const escaped = svg.replace(/[%#\t\r\n]/g, hex);
  return svg.includes("'") ? escaped.replace(/["']/g, hex) : escaped.replaceAll('"', "'");
}
