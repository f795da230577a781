import { watchedFile, type WatchedFile } from '../../watched-file';

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
 * Reads built sheets, again when a file changes (a part redeployed; watched-file.ts). Null for a
 * file that is missing, too large, or whose text could end the `<style>` element (`</style`): that
 * sheet stays a link.
 */
export function createStyleReader(): (file: string) => string | null {
  const sheets = new Map<string, WatchedFile<string | null>>();
  const inline = (text: string, { size }: { size: number }) =>
    size > INLINE_STYLE_MAX_BYTES || /<\/style/i.test(text) ? null : text;
  return function read(file) {
    let sheet = sheets.get(file);
    if (sheet === undefined) {
      sheet = watchedFile(file, inline);
      sheets.set(file, sheet);
    }
    return sheet();
  };
}
