import { createElement as h, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { SSR_STATE_ID } from '@collectif/shared';
import { colors } from '@collectif/shared/tokens';
import { headElement, type HeadElement } from '@collectif/shared/seo';
import { MANIFEST_PATH } from '@collectif/shared/boot';
import { LOGO_PATH, type InlineStyle } from './inline-assets';

/**
 * The page as sent (docs/rendering.md, « The document »): one model of the page, and one React
 * component that writes the whole document from it, never from the build's HTML. The shell's build
 * says which scripts, style sheets and fonts its entry has and its loader (`document.json`); the
 * page says its head and, when rendered on the server, its HTML and the store's state. The browser
 * takes over `#root` only; the rest is static. Every HTML page the site sends is written here: its
 * pages, the page of an address that cannot be read, the framed player, the editor's page.
 */

/**
 * A sheet of the page: its address, and its text when it is written into the page (inline-assets.ts, `createStyleReader`);
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
 * (page-writer.ts, `createPageWriter`, for the site's pages) and written by `Document` alone; the page's
 * Content-Security-Policy is computed from it (`documentPolicy`), never from the HTML.
 */
export interface DocumentModel {
  /**
   * `site`: a page of the site (its icons, manifest and colour, the notice for a browser without
   * JavaScript); `frame`: the player made to be framed by other sites (docs/embed.md); `app`: an app
   * of its own that the browser renders, kept out of search engines (the editor, docs/content.md).
   */
  kind: 'site' | 'frame' | 'app';
  /**
   * The tab's icon: the logo written into the page (`data:`) when it is small (`iconReader`), else its
   * file; null for none (the editor's page, which loads nothing of the public origin).
   */
  icon: string | null;
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

/** The tab's icon, if the page has one. */
const iconLink = (icon: string | null) =>
  icon === null ? null : h('link', { key: 'icon', rel: 'icon', href: icon, type: 'image/svg+xml' });

/** The icons, the manifest and the colour of every page of the site (docs/published.md, « Installable »). */
const siteFurniture = ({ icon, manifest }: DocumentModel) => [
  h('meta', { key: 'theme', name: 'theme-color', content: colors.bg }),
  iconLink(icon),
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
      h('meta', {
        name: 'viewport',
        content:
          kind === 'app'
            ? 'width=device-width, initial-scale=1'
            : 'width=device-width, initial-scale=1, viewport-fit=cover',
      }),
      kind === 'site'
        ? siteFurniture(model)
        : [h('meta', { key: 'robots', name: 'robots', content: 'noindex' }), iconLink(model.icon)],
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
