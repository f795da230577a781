import { readFileSync, statSync } from 'node:fs';
import { createElement as h, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { colors, SSR_STATE_ID } from '@collectif/shared';
import type { HeadElement } from '@collectif/shared/seo';
import { inlineHash } from '../headers';

/**
 * The page as sent (docs/rendering.md, « The document »): a React component that writes the whole
 * document from data, never from the build's HTML. The shell's build says which scripts, style
 * sheets and fonts its entry has (`document.json`); the page says its head and, when rendered on the
 * server, its HTML and the store's state. The browser takes over `#root` only; the rest is static.
 */

/** What the shell's build lists in `document.json` (shared/build/webpack.mjs, DocumentAssetsPlugin). */
export interface ShellAssets {
  scripts: string[];
  styles: string[];
  fonts: string[];
  /**
   * The loader a page rendered on the server starts with (shell/src/boot/loader.ts) and its CSP hash,
   * both made by the shell's build; null for a shell built before it (its pages load the entry at once).
   */
  loader: { source: string; hash: string } | null;
}

/** Where the shell's build writes its assets' list, in its dist/. */
export const DOCUMENT_ASSETS = 'document.json';

const SITE_PATH = /^\/(?!\/)[A-Za-z0-9/_.%-]*$/;

/** The shell's list, checked: addresses of this site only. Throws what is wrong. */
export function readShellAssets(data: unknown): ShellAssets {
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const list = (name: keyof ShellAssets): string[] => {
    const value = record[name];
    if (
      !Array.isArray(value) ||
      !value.every((item): item is string => typeof item === 'string' && SITE_PATH.test(item))
    ) {
      throw new Error(`${DOCUMENT_ASSETS} : « ${name} » doit être une liste d'adresses du site`);
    }
    return value;
  };
  return { scripts: list('scripts'), styles: list('styles'), fonts: list('fonts'), loader: readLoader(record.loader) };
}

/** The build's loader, checked: its hash must be its text's, or the policy would refuse it. */
function readLoader(value: unknown): ShellAssets['loader'] {
  if (value === undefined) return null;
  const loader = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const { source, hash } = loader;
  if (typeof source !== 'string' || typeof hash !== 'string' || inlineHash(source) !== hash) {
    throw new Error(`${DOCUMENT_ASSETS} : « loader » doit avoir son texte et le hachage de ce texte`);
  }
  if (/<\/script|<!--/i.test(source))
    throw new Error(`${DOCUMENT_ASSETS} : « loader » ne peut pas être écrit dans une page`);
  return { source, hash };
}

/** The shell's assets from its build, read again when the file changes; null when it cannot be used. */
export function shellAssetsReader(file: string, warn: (message: string) => void) {
  let cached: { mtimeMs: number; assets: ShellAssets | null } | null = null;
  return function shellAssets(): ShellAssets | null {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return null;
    }
    if (cached?.mtimeMs === mtimeMs) return cached.assets;
    let assets: ShellAssets | null = null;
    try {
      assets = readShellAssets(JSON.parse(readFileSync(file, 'utf8')));
    } catch (error) {
      warn(`Page du shell impossible à écrire : ${error instanceof Error ? error.message : String(error)}`);
    }
    cached = { mtimeMs, assets };
    return assets;
  };
}

export interface DocumentProps {
  assets: ShellAssets;
  /** The page's head: its own elements, then the data and hints its scripts read. */
  head: readonly HeadElement[];
  /**
   * The page rendered on the server, when it was: its HTML and the state of the store it was
   * rendered from, as JSON safe inside a script element (`scriptJson`), made where it was rendered.
   */
  rendered?: { body: string; state: string };
  /**
   * The shell's sheets' texts by address, written into the page (render/styles.ts); a sheet not in
   * it is linked.
   */
  styles?: ReadonlyMap<string, string>;
}

/** HTML attributes whose React name differs (React writes the attribute from it). */
const REACT_NAMES: Readonly<Record<string, string>> = {
  crossorigin: 'crossOrigin',
  fetchpriority: 'fetchPriority',
  imagesizes: 'imageSizes',
  imagesrcset: 'imageSrcSet',
};

function element({ tag, attributes, text, html }: HeadElement, key: number): ReactElement {
  const props: Record<string, unknown> = {
    key,
    ...Object.fromEntries(attributes.map(([name, value]) => [REACT_NAMES[name] ?? name, value])),
  };
  if (html !== undefined) props.dangerouslySetInnerHTML = { __html: html };
  return h(tag, props, html === undefined ? text : undefined);
}

/**
 * The whole page. A page rendered on the server starts its scripts once painted: the loader of
 * render/boot.ts, written into the page after its content (no request before the paint) and given
 * the entry; a page the browser renders loads the entry at once.
 */
export function Document({ assets, head, rendered, styles }: DocumentProps): ReactElement {
  const [entry] = assets.scripts;
  // A page rendered on the server starts with the loader, which fetches the scripts once painted; a
  // page the browser renders, or a shell built without a loader, fetches them at once.
  const loader = rendered === undefined ? null : assets.loader;
  const scripts = loader === null ? assets.scripts.map((src) => h('script', { key: src, defer: true, src })) : [];
  return h(
    'html',
    { lang: 'fr' },
    h(
      'head',
      null,
      h('meta', { charSet: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1, viewport-fit=cover' }),
      h('meta', { name: 'theme-color', content: colors.bg }),
      h('link', { rel: 'icon', href: '/assets/images/logo.svg', type: 'image/svg+xml' }),
      h('link', { rel: 'manifest', href: '/manifest.webmanifest' }),
      h('link', { rel: 'apple-touch-icon', href: '/assets/images/icon-192.png' }),
      // The shell's sheets before the areas' (in the page's head elements): the order a page reached
      // in the browser has, where the shell's are there first and each area's are added when its
      // module loads. A rule of an area then wins over the shell's of the same weight alike on
      // every page, written by the server or not.
      assets.styles.map((href) => {
        const css = styles?.get(href);
        // As the areas' sheets (render/styles.ts): its text under its file's address.
        return css === undefined
          ? h('link', { key: href, rel: 'stylesheet', href })
          : h('style', { key: href, 'data-href': href, dangerouslySetInnerHTML: { __html: css } });
      }),
      head.map(element),
      assets.fonts.map((href) =>
        h('link', { key: href, rel: 'preload', href, as: 'font', type: 'font/woff2', crossOrigin: '' }),
      ),
      scripts,
    ),
    h(
      'body',
      null,
      h('div', { id: 'root', dangerouslySetInnerHTML: { __html: rendered?.body ?? '' } }),
      rendered === undefined
        ? null
        : element(
            {
              tag: 'script',
              attributes: [
                ['type', 'application/json'],
                ['id', SSR_STATE_ID],
              ],
              html: rendered.state,
            },
            -1,
          ),
      loader === null ? null : h('script', { 'data-src': entry, dangerouslySetInnerHTML: { __html: loader.source } }),
      h(
        'noscript',
        null,
        h('p', { className: 'noscript' }, 'La radio en direct et les replays ont besoin de JavaScript.'),
      ),
    ),
  );
}

/** The page as HTML. */
export function renderDocument(props: DocumentProps): string {
  return `<!doctype html>${renderToStaticMarkup(h(Document, props))}`;
}

/** A French page for an address that cannot be read (undecodable characters), with status 400. */
export function invalidAddressPage(): string {
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Adresse invalide</title></head><body><main><h1>Adresse invalide</h1><p>Cette adresse contient des caractères illisibles.</p><p><a href="/">Retour à l'accueil</a></p></main></body></html>`;
}
