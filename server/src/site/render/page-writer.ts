import {
  DEFAULT_DESCRIPTION,
  matchPage,
  PAGES_CONFIG_ID,
  REMOTES_CONFIG_ID,
  ROUTER_STATE_ID,
  type PagePreload,
  type PageRef,
  type RemotesConfig,
} from '@collectif/shared';
import { headElements, type HeadElement, scriptJson } from '@collectif/shared/seo';
import { BOOT_ID, PAGE_TABLE_PATH, type BootPreload } from '@collectif/shared/boot';
import { PREVIEW_CONFIG_ID } from '@collectif/shared/preview';
import { RADIO_SETTINGS_ID, siteConfig, type RadioSettings } from '@collectif/shared/config';
import { contentSecurityPolicy, documentPolicy } from './csp';
import { emptyModel, renderDocument, type DataScript, type DocumentModel, type Sheet } from './document';
import type { HintsFor, PageHints } from './hints';
import { createStyleReader, iconReader, LOGO_PATH } from './inline-assets';
import type { RenderOutcome } from './protocol';
import { shellAssetsReader, type ShellAssets } from './shell-assets';
import { shellSheetFile } from './site-paths';

/**
 * The model of a page of the site (docs/rendering.md, « The document »), made here and nowhere
 * else: its head, the data its scripts read, the sheets written into it, what it announces, its
 * scripts or the loader, and its body. `Document` writes it; its policy is computed from it.
 */

export interface PageModelInput {
  /** The shell's build: its scripts, sheets, fonts and loader. */
  assets: ShellAssets;
  /** The shell's sheets that can be written into the page, by address (inline-assets.ts, `createStyleReader`). */
  shellStyles: ReadonlyMap<string, string>;
  /** The page's own head: its definition's (rendered), or the table's title and description. */
  head: readonly HeadElement[];
  pages: readonly PageRef[];
  radio: RadioSettings;
  /** The remote map the browser loads the parts from. */
  remotes: RemotesConfig;
  /** What the page announces and, rendered on the server, its areas' sheets (hints.ts, `createHints`). */
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
  /** The shell's list of its entry's scripts, styles, fonts and loader (shell-assets.ts, `readShellAssets`). */
  assetsPath: string;
  /** What a page announces, and its areas' sheets (hints.ts, `createHints`). */
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
