import { createHash } from 'node:crypto';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { dirname, join, posix, sep } from 'node:path';
import { createElement as h, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import * as v from 'valibot';
import {
  DEFAULT_DESCRIPTION,
  matchPage,
  SSR_STATE_ID,
  PAGES_CONFIG_ID,
  REMOTES_CONFIG_ID,
  ROUTER_STATE_ID,
  type PagePreload,
  type PageRef,
  type RemoteName,
  type RemotesConfig,
} from '@collectif/shared';
import { colors } from '@collectif/shared/tokens';
import { headElement, headElements, type HeadElement, scriptJson } from '@collectif/shared/seo';
import { watchedFile, type WatchedFile } from '../../files/watched-file';
import { BOOT_ID, MANIFEST_PATH, PAGE_TABLE_PATH, type BootPreload } from '@collectif/shared/boot';
import { PREVIEW_CONFIG_ID } from '@collectif/shared/preview';
import { RADIO_SETTINGS_ID, siteConfig, type RadioSettings } from '@collectif/shared/config';
import type { RenderOutcome } from './protocol';

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
 * what the shell's build lists (below) and the images a page announces (`createHints`, below).
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
 * (`createPageWriter`, below, for the site's pages) and written by `Document` alone; the page's
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
  /** What the page announces and, rendered on the server, its areas' sheets (`createHints`, below). */
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
 * The style sheets of a page rendered on the server are written into it (docs/first-screen.md,
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
 * The tab's icon of the pages (docs/first-screen.md, « The first screen's budget »): the logo written
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

/**
 * What the HTML of a page tells the browser before any script runs: `<link rel="preload">` for what
 * the route will need: the manifest,
 * remote entry, chunks and styles of the page's module and of the player, and the page's largest
 * image. Without them, each of these is discovered only when the previous one has run.
 *
 * Hints are read from the built remotes that this server serves (their `mf-manifest.json`), again
 * whenever a remote is redeployed, and the image from the page's definition (`preloads`, given by
 * the render). A remote hosted elsewhere only gets a preconnect. A missing or unreadable file
 * means fewer hints, never a broken page; a manifest redeployed unreadable leaves its last readable
 * version's in use (watched-file.ts).
 */

interface Link {
  rel: 'preload' | 'preconnect' | 'stylesheet' | 'inline-style';
  href: string;
  as?: 'script' | 'style' | 'fetch' | 'image';
  crossorigin?: 'anonymous';
  imagesrcset?: string;
  imagesizes?: string;
  fetchpriority?: 'high';
  /** An `inline-style`'s text: the sheet written into the page (`createStyleReader`, above). */
  css?: string;
}

interface ManifestAssets {
  js: string[];
  css: string[];
}

interface RemoteBuild {
  /** The remote entry's path, relative to the manifest. */
  entry: string;
  exposes: Map<string, ManifestAssets>;
}

export interface HintsOptions {
  remotes: RemotesConfig;
  /** Each remote's URL prefix on this server and the directory it is served from. */
  served: Record<RemoteName, { prefix: string; dir: string }>;
  assetsDir: string;
  warn?: (message: string) => void;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Reads the parts of a remote's manifest the hints need; anything else in it is ignored. */
export function readManifest(data: unknown): Pick<RemoteBuild, 'entry' | 'exposes'> {
  const manifest = record(data);
  const entry = record(record(manifest.metaData).remoteEntry);
  const name = typeof entry.name === 'string' ? entry.name : '';
  if (name === '') throw new Error('metaData.remoteEntry.name manquant');
  const exposes = new Map<string, ManifestAssets>();
  for (const item of Array.isArray(manifest.exposes) ? manifest.exposes : []) {
    const expose = record(item);
    if (typeof expose.name !== 'string') continue;
    const assets = record(expose.assets);
    exposes.set(expose.name, { js: strings(record(assets.js).sync), css: strings(record(assets.css).sync) });
  }
  const path = typeof entry.path === 'string' ? entry.path : '';
  return { entry: path === '' ? name : posix.join(path, name), exposes };
}

/**
 * The images a page's definition announces (`preloads`), as links: paths of this site only, never
 * an address elsewhere or text that could leave the attribute; an image under /assets/ that does not
 * exist is left out (announcing it would only cost a failed request).
 */
function imageLinks(images: readonly PagePreload[], assetsDir: string, warn: (message: string) => void): Link[] {
  const links: Link[] = [];
  for (const image of images) {
    if (!v.is(sitePath, image.href)) {
      warn(`Préchargement refusé : seules des images du site peuvent être annoncées (${JSON.stringify(image.href)})`);
      continue;
    }
    if (image.href.startsWith('/assets/') && !existsSync(join(assetsDir, image.href.slice('/assets/'.length))))
      continue;
    links.push({
      rel: 'preload',
      as: 'image',
      href: image.href,
      ...(typeof image.imagesrcset === 'string' ? { imagesrcset: image.imagesrcset } : {}),
      ...(typeof image.imagesizes === 'string' ? { imagesizes: image.imagesizes } : {}),
      ...(image.fetchpriority === 'high' ? { fetchpriority: 'high' as const } : {}),
    });
  }
  return links;
}

/**
 * The route's title and meta description, for a page the browser renders: what reads the page
 * without running scripts (link previews, some crawlers) gets them; the shell sets the same ones
 * once it runs.
 */
export function pageMeta(pathname: string, pages: readonly PageRef[]): HeadElement[] {
  const page = matchPage(pathname, pages)?.page;
  return [
    { tag: 'title', attributes: [], text: page?.title ?? siteConfig.name },
    {
      tag: 'meta',
      attributes: [
        ['name', 'description'],
        ['content', page?.description ?? DEFAULT_DESCRIPTION],
      ],
    },
  ];
}

/** What a page is told to fetch early, for its model (`createPageWriter`, below). */
export interface PageHints {
  /** `<link>`s: the page's first image, then preconnects and preloads. */
  links: HeadElement[];
  /**
   * The areas' sheets of a page rendered on the server, in order: written into it (`css`), or
   * linked when they cannot be (`css` null).
   */
  sheets: Sheet[];
  /** What the loader fetches once the page is painted (a page rendered on the server), else null. */
  boot: BootPreload[] | null;
}

export function linkElement(link: Link): HeadElement {
  return {
    tag: 'link',
    attributes: Object.entries(link).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  };
}

/** What a page announces, for the page at `pathname` (`createHints`). */
export type HintsFor = ReturnType<typeof createHints>;

export function createHints({ remotes, served, assetsDir, warn = () => undefined }: HintsOptions) {
  /** Each remote's manifest, read again when it changes (watched-file.ts). */
  const manifests = new Map<string, WatchedFile<RemoteBuild>>();
  const readStyle = createStyleReader();

  function manifestAt(file: string): RemoteBuild | null {
    let manifest = manifests.get(file);
    if (manifest === undefined) {
      manifest = watchedFile(file, (text) => readManifest(JSON.parse(text)), {
        warn,
        what: 'Manifeste de remote (indications de préchargement)',
      });
      manifests.set(file, manifest);
    }
    return manifest();
  }

  /** The build behind a remote's configured manifest URL, when this server serves it. */
  function localBuild(name: RemoteName): { build: RemoteBuild; base: string } | null {
    const url = remotes[name];
    const { prefix, dir } = served[name];
    if (!url.startsWith(prefix) || !url.endsWith('.json')) return null;
    const relative = url.slice(prefix.length);
    if (relative.split('/').some((segment) => segment === '..')) return null;
    const manifest = manifestAt(join(dir, relative));
    if (manifest === null) return null;
    const base = posix.dirname(url);
    return { build: manifest, base };
  }

  function moduleLinks(name: RemoteName, module: string, rendered: boolean): Link[] {
    const local = localBuild(name);
    if (local === null) {
      const url = remotes[name];
      return /^https?:\/\//.test(url) ? [{ rel: 'preconnect', href: new URL(url).origin }] : [];
    }
    const { build, base } = local;
    const at = (file: string) => posix.join(base, file);
    const assets = build.exposes.get(module) ?? { js: [], css: [] };
    const { prefix, dir } = served[name];
    // A rendered page's sheets are written into it; one that cannot be read stays a link.
    const sheet = (href: string): Link => {
      const relative = href.startsWith(prefix) ? href.slice(prefix.length) : null;
      // The same rule as the shell's sheets: a clean path, inside the part's folder once resolved.
      const css = relative === null ? null : readStyle(shellSheetFile(dir, `/${relative}`));
      return css === null ? { rel: 'stylesheet', href } : { rel: 'inline-style', href, css };
    };
    const links: Link[] = [
      { rel: 'preload', href: remotes[name], as: 'fetch', crossorigin: 'anonymous' },
      { rel: 'preload', href: at(build.entry), as: 'script' },
      ...assets.js.map((file): Link => ({ rel: 'preload', href: at(file), as: 'script' })),
      ...assets.css.map((file): Link => (rendered ? sheet(at(file)) : { rel: 'preload', href: at(file), as: 'style' })),
    ];
    return links;
  }

  /**
   * What the page at `pathname` announces. A page rendered on the server (`rendered`) carries its
   * areas' styles, written into it (`createStyleReader`, above): its HTML is on screen before any script loads
   * them, and no sheet blocks its first paint; its scripts and manifests are fetched by the loader
   * once the page is painted.
   */
  return function hintsFor(
    pathname: string,
    {
      rendered = false,
      pages,
      images = [],
    }: { rendered?: boolean; pages: readonly PageRef[]; images?: readonly PagePreload[] },
  ): PageHints {
    const match = matchPage(pathname, pages);
    const links = [
      // The page's image first: it is the largest paint, and the browser queues in document order.
      ...imageLinks(images, assetsDir, warn),
      ...(match === null ? [] : moduleLinks(match.page.remote, match.page.module, rendered)),
      ...moduleLinks('player', 'Player', rendered),
    ];
    const unique = [...new Map(links.map((link) => [`${link.rel} ${link.href}`, link])).values()];
    const sheets = unique.flatMap((link): Sheet[] => {
      if (link.rel === 'inline-style' && link.css !== undefined) return [{ href: link.href, css: link.css }];
      return link.rel === 'stylesheet' ? [{ href: link.href, css: null }] : [];
    });
    const announced = unique.filter((link) => link.rel !== 'inline-style' && link.rel !== 'stylesheet');
    if (!rendered) return { links: announced.map(linkElement), sheets, boot: null };
    const later = (link: Link) => link.rel === 'preload' && (link.as === 'script' || link.as === 'fetch');
    return {
      links: announced.filter((link) => !later(link)).map(linkElement),
      sheets,
      boot: announced.filter(later).map(({ href, as, crossorigin }): BootPreload => ({
        href,
        as: as === 'fetch' ? 'fetch' : 'script',
        ...(crossorigin === undefined ? {} : { crossorigin }),
      })),
    };
  };
}

function origin(url: string): string | null {
  return /^https?:\/\//.test(url) ? new URL(url).origin : null;
}

/**
 * The Content-Security-Policy: exactly what the site loads. Third parties: the Twitch player
 * (script and frames), the calendar and map frames, the chat widget and the live stream of the
 * run-time settings; remotes hosted elsewhere (REMOTES_CONFIG) are added to the script, style and
 * connect sources.
 */
export function contentSecurityPolicy(
  remotes: RemotesConfig,
  radio: RadioSettings,
  editorOrigin: string | null = null,
): Record<string, string[]> {
  const remoteOrigins = [
    ...new Set(
      Object.values(remotes)
        .map(origin)
        .filter((o): o is string => o !== null),
    ),
  ];
  // A remote served by a dev server on http also needs its hot-reload socket.
  const devSockets = remoteOrigins.filter((o) => o.startsWith('http://')).map((o) => o.replace(/^http/, 'ws'));
  const chatOrigin = new URL(radio.chatEmbedUrl.replace('{room}', 'x')).origin;
  const stream = origin(radio.liveStreamUrl);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", 'https://embed.twitch.tv', ...remoteOrigins],
    'style-src': ["'self'", ...remoteOrigins],
    'img-src': ["'self'", 'data:', 'https:'],
    'font-src': ["'self'"],
    // Replays come from the feed's audio hosts and HLS segments are fetched by hls.js.
    'media-src': ["'self'", 'blob:', 'https:', ...(stream === null ? [] : [stream])],
    'connect-src': ["'self'", 'https:', ...remoteOrigins, ...devSockets],
    'worker-src': ["'self'", 'blob:'],
    // 'self': the player's own iframe (/embed/lecteur), previewed by « Intégrer le lecteur ».
    'frame-src': [
      "'self'",
      'https://embed.twitch.tv',
      'https://player.twitch.tv',
      'https://calendar.google.com',
      'https://www.google.com',
      chatOrigin,
    ],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    // The editor's origin frames a public page for its preview (docs/content.md, « Preview »).
    'frame-ancestors': ["'self'", ...(editorOrigin === null ? [] : [editorOrigin])],
  };
}

/**
 * A source expression allowing exactly this text written into a page, a `<style>` or a `<script>`
 * (CSP Level 2 hash).
 */
export function inlineHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** A Content-Security-Policy as directives and their sources. */
export type PolicyDirectives = Record<string, string[]>;

/**
 * The policy with these hashes added to a directive: `style-src` for the styles written into a page
 * (`createStyleReader`, above), `script-src` for its loader (shell/src/boot/loader.ts).
 */
export function withHashes(
  directives: PolicyDirectives,
  directive: 'style-src' | 'script-src',
  hashes: readonly string[],
): Record<string, string[]> {
  return { ...directives, [directive]: [...(directives[directive] ?? []), ...hashes] };
}

/** The policy as its header says it. */
export function serializePolicy(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * A page's document and its policy, written from its one model (docs/rendering.md, « The document »;
 * docs/first-screen.md, « Styles in the page »): the shell's files as its build lists them, its sheets written in, what the
 * page announces, and the site's policy with the hash of each sheet written in and of the loader.
 */

export interface PageWriterOptions {
  /** The shell's built files (its sheets are read from there). */
  shellDir: string;
  /** The remote map written into every page. */
  remotes: RemotesConfig;
  /**
   * The radio's run-time settings as they are now, written into every page: read at each page made
   * (where « Nous soutenir » leads changes when an admin turns HelloAsso on or off).
   */
  radio: () => RadioSettings;
  /** The shell's list of its entry's scripts, styles, fonts and loader (`readShellAssets`, above). */
  assetsPath: string;
  /** What a page announces, and its areas' sheets (`createHints`, above). */
  hints: HintsFor;
  warn: (message: string) => void;
  /** The editor's own origin, which may frame a page for its preview (EDITOR_ORIGIN). */
  editorOrigin?: string | null;
  /** The site's pictures (ASSETS_DIR): the logo, the tab's icon, is written into the pages from there. */
  assetsDir?: string;
}

/** A page as written: its HTML and the policy made from the same model. */
export interface WrittenPage {
  html: string;
  csp: string;
}

/** What a page is written from besides its address. */
interface PageContent {
  assets: ShellAssets;
  head: readonly HeadElement[];
  pages: readonly PageRef[];
  images?: readonly PagePreload[];
  rendered?: { body: string; state: string; router: string };
}

/**
 * The writer of the site's pages. `shellAssets` is the shell's list of files as last read (null while
 * it cannot be used: no page then); `browserPage` and `renderedPage` write a page from it.
 */
export function createPageWriter({
  shellDir,
  remotes,
  radio,
  assetsPath,
  hints,
  warn,
  editorOrigin = null,
  assetsDir,
}: PageWriterOptions) {
  const shellAssets = shellAssetsReader(assetsPath, warn);
  const icon = assetsDir === undefined ? undefined : iconReader(assetsDir);
  const readStyle = createStyleReader();
  // The stream's and the chat's origins: the radio's settings of start-up, as the server's own header.
  const policy = contentSecurityPolicy(remotes, radio(), editorOrigin);

  /** The shell's sheets that can be written into the page, by address. */
  function shellStyles(assets: ShellAssets): Map<string, string> {
    const styles = new Map<string, string>();
    for (const href of assets.styles) {
      const css = readStyle(shellSheetFile(shellDir, href));
      if (css !== null) styles.set(href, css);
    }
    return styles;
  }

  /**
   * The whole page and its policy, from its one model (`pageModel`, above): both are made once
   * per page, and kept together in the cache.
   */
  function write(pathname: string, { assets, head, pages, images = [], rendered }: PageContent): WrittenPage {
    const model = pageModel({
      assets,
      shellStyles: shellStyles(assets),
      head,
      pages,
      radio: radio(),
      remotes,
      hints: hints(pathname, { rendered: rendered !== undefined, pages, images }),
      ...(rendered === undefined ? {} : { rendered }),
      editorOrigin,
      ...(icon === undefined ? {} : { icon: icon() }),
    });
    return { html: renderDocument(model), csp: documentPolicy(model, policy) };
  }

  return {
    shellAssets,
    /** The shell alone, for the browser to render, with the route's title and description from the table. */
    browserPage: (pathname: string, assets: ShellAssets, pages: readonly PageRef[]): WrittenPage =>
      write(pathname, { assets, head: pageMeta(pathname, pages), pages }),
    /** A page the renderers rendered: its head, its first images, its HTML, the store's state and the router's data. */
    renderedPage: (
      pathname: string,
      assets: ShellAssets,
      pages: readonly PageRef[],
      outcome: Extract<RenderOutcome, { kind: 'page' }>,
    ): WrittenPage =>
      write(pathname, {
        assets,
        head: headElements(outcome.head, siteConfig.name),
        pages,
        images: outcome.preloads,
        rendered: { body: outcome.body, state: outcome.state, router: outcome.router },
      }),
  };
}

export type PageWriter = ReturnType<typeof createPageWriter>;
