import { join } from 'node:path';
import {
  PAGES_CONFIG_ID,
  REMOTES_CONFIG_ID,
  ROUTER_STATE_ID,
  type PageRef,
  type RemotesConfig,
} from '@collectif/shared';
import { BOOT_ID } from '@collectif/shared/boot';
import { RADIO_SETTINGS_ID, type RadioSettings } from '@collectif/shared/config';
import { scriptJson, type HeadElement } from '@collectif/shared/seo';
import type { PageHints } from '../hints';
import { emptyModel, type DataScript, type DocumentModel, type Sheet, type ShellAssets } from './document';

/**
 * The model of a page of the site (docs/rendering.md, « The document »), made here and nowhere
 * else: its head, the data its scripts read, the sheets written into it, what it announces, its
 * scripts or the loader, and its body. `Document` writes it; its policy is computed from it.
 */

export interface PageModelInput {
  /** The shell's build: its scripts, sheets, fonts and loader. */
  assets: ShellAssets;
  /** The shell's sheets that can be written into the page, by address (render/styles.ts). */
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
}: PageModelInput): DocumentModel {
  const [entry] = assets.scripts;
  // A page rendered on the server starts with the loader, which fetches the scripts once painted; a
  // page the browser renders fetches them at once.
  const loader = rendered === undefined || entry === undefined ? null : assets.loader;
  const sheets: Sheet[] = [
    ...assets.styles.map((href) => ({ href, css: shellStyles.get(href) ?? null })),
    ...hints.sheets,
  ];
  return {
    ...emptyModel(rendered === undefined ? { app: '' } : { app: rendered.body, state: rendered.state }),
    head,
    // A sheet two areas share is written once.
    sheets: [...new Map(sheets.map((sheet) => [sheet.href, sheet])).values()],
    data: [
      data(PAGES_CONFIG_ID, pages),
      data(RADIO_SETTINGS_ID, radio),
      data(REMOTES_CONFIG_ID, remotes),
      ...(rendered === undefined ? [] : [{ id: ROUTER_STATE_ID, json: rendered.router }]),
      ...(loader === null || hints.boot === null ? [] : [data(BOOT_ID, { preloads: hints.boot })]),
    ],
    links: hints.links,
    fonts: assets.fonts,
    scripts: loader === null ? assets.scripts : [],
    loader: loader === null || entry === undefined ? null : { ...loader, entry },
  };
}

/** Where a shell sheet named by its address is on disk. */
export const shellSheetFile = (shellDir: string, href: string): string => join(shellDir, ...href.slice(1).split('/'));
