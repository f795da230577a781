import { declaredPages } from '@collectif/shared/testing';
import {
  EDITOR_CONFIG_ID,
  editorConfigJson,
  parseEditorConfig,
  readEditorConfig,
  type EditorConfig,
} from './editor-config';

// The editor app's configuration, as the server writes it into the editor's document and the editor
// reads it (docs/content.md, « The editor »).

const config: EditorConfig = { publicOrigin: 'https://www.example.org', pages: declaredPages() };

/** The element as the server's page writes it (server/src/site/editor-document.ts). */
const element = (json: string) => `<script type="application/json" id="${EDITOR_CONFIG_ID}">${json}</script>`;

/** A document with `html` in its head. */
function documentWith(html: string): Document {
  const doc = document.implementation.createHTMLDocument('éditeur');
  doc.head.innerHTML = html;
  return doc;
}

describe('the editor’s configuration', () => {
  it('is read from its JSON element, never run, and checked', () => {
    const doc = documentWith(element(editorConfigJson(config)));
    expect(doc.getElementById(EDITOR_CONFIG_ID)?.getAttribute('type')).toBe('application/json');
    expect(readEditorConfig(doc)).toEqual({ ok: true, config });
  });

  it('takes the fields it knows and leaves any other (a newer server)', () => {
    expect(parseEditorConfig(JSON.stringify({ ...config, later: true }))).toEqual({ ok: true, config });
  });

  it('says in French what is missing or wrong', () => {
    expect(readEditorConfig(documentWith(''))).toEqual({
      ok: false,
      error:
        'La configuration de l’éditeur (#editor-config) manque à cette page : rechargez la page ; si cela continue, prévenez l’équipe du site.',
    });
    // Another element with the id is not the configuration (a script of another type would run).
    expect(readEditorConfig(documentWith(`<meta id="${EDITOR_CONFIG_ID}" content="{}">`)).ok).toBe(false);
    expect(parseEditorConfig('{ pas du json')).toEqual({
      ok: false,
      error:
        'La configuration de l’éditeur (#editor-config) est illisible (pas du JSON) : rechargez la page ; si cela continue, prévenez l’équipe du site.',
    });
    const refused = (value: unknown) => {
      const read = parseEditorConfig(JSON.stringify(value));
      return read.ok ? null : read.error;
    };
    expect(refused({ ...config, publicOrigin: 'https://www.example.org/' })).toMatch(
      /^La configuration de l’éditeur \(#editor-config\) est invalide, champ \/publicOrigin : origine invalide/,
    );
    expect(refused({ ...config, publicOrigin: 'javascript:alert(1)' })).toMatch(/champ \/publicOrigin/);
    expect(refused({ publicOrigin: config.publicOrigin })).toMatch(/champ \/pages : champ manquant ;/);
    expect(refused({ ...config, pages: {} })).toMatch(/champ \/pages : une liste de pages est attendue ;/);
    expect(refused({ ...config, pages: [...config.pages, { path: '/admin', module: 'AdminPage' }] })).toMatch(
      new RegExp(`champ /pages/${String(config.pages.length)} : page invalide`),
    );
    expect(refused('texte')).toMatch(/est invalide : un objet JSON est attendu ;/);
  });

  it('is written by the server as JSON that cannot end its element, and checked first', () => {
    const hostile: EditorConfig = {
      ...config,
      pages: config.pages.map((page, index) => (index === 0 ? { ...page, title: '</script><script>alert(1)' } : page)),
    };
    const json = editorConfigJson(hostile);
    expect(json).not.toMatch(/<\/script/i);
    const html = `<!doctype html><html><head><title>Éditeur</title>${element(json)}</head><body></body></html>`;
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    const doc = new DOMParser().parseFromString(html, 'text/html');
    expect(readEditorConfig(doc)).toEqual({ ok: true, config: hostile });
    expect(() => editorConfigJson({ ...config, publicOrigin: 'www.example.org' })).toThrow(/champ \/publicOrigin/);
  });
});
