import { EDITOR_CONFIG_ID, editorConfigJson, type EditorConfig } from '@collectif/shared/editor-config';
import { documentPolicy, type PolicyDirectives } from './render/csp';
import { emptyModel, renderDocument, type DocumentModel } from './render/document';
import type { AssetLists } from './render/shell-assets';

// The editor's document (docs/content.md, « The editor app »): written by the `Document` component
// that writes every page, from the list of files mf-admin's build makes for it, with its
// configuration as data; its Content-Security-Policy by the pages' writer (`documentPolicy`).

/** The editor's title, and its line for a browser without JavaScript. */
export const EDITOR_TITLE = 'Espace des bénévoles';
const NO_SCRIPT = 'L’espace des bénévoles a besoin de JavaScript : activez-le, puis rechargez la page.';

/**
 * The editor's policy: its own scripts and sheets only, none written into the page; it frames the
 * public pages (its preview) and shows their pictures and fonts.
 */
export function editorDirectives(siteOrigin: string): PolicyDirectives {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:', siteOrigin],
    'font-src': ["'self'", siteOrigin],
    'connect-src': ["'self'"],
    'frame-src': [siteOrigin],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/** The editor's page as a model: its build's files, its configuration, no app rendered on the server. */
export function editorModel(assets: AssetLists, config: EditorConfig): DocumentModel {
  return {
    ...emptyModel({ html: `<noscript>${NO_SCRIPT}</noscript><div id="root"></div>` }),
    kind: 'app',
    // None: the editor's page loads nothing of the public origin, and its host serves only its files.
    icon: null,
    manifest: false,
    head: [{ tag: 'title', attributes: [], text: EDITOR_TITLE }],
    sheets: assets.styles.map((href) => ({ href, css: null })),
    data: [{ id: EDITOR_CONFIG_ID, json: editorConfigJson(config) }],
    fonts: assets.fonts,
    scripts: assets.scripts,
  };
}

/** A page of the editor's origin as sent: its status, its HTML and its policy. */
export interface EditorPage {
  status: 200 | 503;
  html: string;
  policy: string;
}

/** The editor's document and its policy; throws when the configuration is not one (naming the field). */
export function editorDocument(assets: AssetLists, config: EditorConfig): EditorPage {
  const model = editorModel(assets, config);
  return {
    status: 200,
    html: renderDocument(model),
    policy: documentPolicy(model, editorDirectives(config.publicOrigin)),
  };
}

/** What the editor's addresses answer while its files are not built, or their list cannot be used. */
export function unbuiltEditorPage(siteOrigin: string): EditorPage {
  const model: DocumentModel = {
    ...emptyModel({
      html: '<main><h1>Espace des bénévoles</h1><p>L’éditeur n’est pas construit sur ce serveur : <code>npm run build -- admin</code>, puis rechargez la page.</p></main>',
    }),
    kind: 'app',
    icon: null,
    manifest: false,
    head: [{ tag: 'title', attributes: [], text: EDITOR_TITLE }],
  };
  return { status: 503, html: renderDocument(model), policy: documentPolicy(model, editorDirectives(siteOrigin)) };
}
