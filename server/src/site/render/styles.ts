import { readFileSync, statSync } from 'node:fs';
import type { HeadElement } from '@collectif/shared/seo';
import { inlineHash } from '../headers';

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
 * Reads built sheets, again when a file changes (a part redeployed). Null for a file that is
 * missing, too large, or whose text could end the `<style>` element (`</style`): that sheet stays a
 * link.
 */
export function createStyleReader(): (file: string) => string | null {
  const cache = new Map<string, { mtimeMs: number; css: string | null }>();
  return function read(file) {
    let mtimeMs: number;
    let size: number;
    try {
      ({ mtimeMs, size } = statSync(file));
    } catch {
      return null;
    }
    const cached = cache.get(file);
    if (cached?.mtimeMs === mtimeMs) return cached.css;
    let css: string | null = null;
    if (size <= INLINE_STYLE_MAX_BYTES) {
      try {
        const text = readFileSync(file, 'utf8');
        css = /<\/style/i.test(text) ? null : text;
      } catch {
        css = null;
      }
    }
    cache.set(file, { mtimeMs, css });
    return css;
  };
}

/**
 * The sheet as a head element: its text, under its file's address. Its file is not linked: a link,
 * even for print, is one more request before the first paint (Lighthouse's phone counts each), and a
 * later navigation's sheets are fetched by the scripts that need them (webpack's CSS loader finds
 * this element by its `data-href` and adds nothing).
 */
export function styleElements({ href, css }: InlineStyle): HeadElement[] {
  return [{ tag: 'style', attributes: [['data-href', href]], html: css }];
}

/** The hashes of every `<style>` among `elements`, once each. */
export function styleHashes(elements: readonly HeadElement[]): string[] {
  return [
    ...new Set(
      elements
        .filter((item) => item.tag === 'style' && item.html !== undefined)
        .map((item) => inlineHash(item.html ?? '')),
    ),
  ];
}
