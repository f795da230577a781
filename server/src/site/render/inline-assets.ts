import { join } from 'node:path';
import { watchedFile, type WatchedFile } from '../../files/watched-file';

// What is written into a page rather than fetched: its style sheets and the tab's icon.

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
