import type { PagePreload, PageRef, RemotesConfig } from '@collectif/shared';
import { siteConfig, type RadioSettings } from '@collectif/shared/config';
import { headElements, type HeadElement } from '@collectif/shared/seo';
import { contentSecurityPolicy } from '../headers';
import { pageMeta, type HintsFor } from '../hints';
import {
  createStyleReader,
  documentPolicy,
  iconReader,
  pageModel,
  renderDocument,
  shellAssetsReader,
  shellSheetFile,
  type ShellAssets,
} from './document';
import type { RenderOutcome } from './protocol';

/**
 * A page's document and its policy, written from its one model (docs/rendering.md, « The document »,
 * « Styles in the page »): the shell's files as its build lists them, its sheets written in, what the
 * page announces, and the site's policy with the hash of each sheet written in and of the loader.
 */

export interface PageWriterOptions {
  /** The shell's built files (its sheets are read from there). */
  shellDir: string;
  /** The remote map written into every page. */
  remotes: RemotesConfig;
  /** The radio's run-time settings, written into every page. */
  radio: RadioSettings;
  /** The shell's list of its entry's scripts, styles, fonts and loader (document.ts). */
  assetsPath: string;
  /** What a page announces, and its areas' sheets (site/hints.ts). */
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
  const policy = contentSecurityPolicy(remotes, radio, editorOrigin);

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
   * The whole page and its policy, from its one model (document.ts, `pageModel`): both are made once
   * per page, and kept together in the cache.
   */
  function write(pathname: string, { assets, head, pages, images = [], rendered }: PageContent): WrittenPage {
    const model = pageModel({
      assets,
      shellStyles: shellStyles(assets),
      head,
      pages,
      radio,
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
