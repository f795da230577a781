import { declaredPages } from '@collectif/shared/testing';
import {
  EDITOR_CONFIG_ID,
  editorConfigElement,
  parseEditorConfig,
  readEditorConfig,
  writeEditorConfig,
  type EditorConfig,
} from './editor-config';

// The editor app's configuration, as the server writes it into the editor's document and the editor
// reads it (docs/content.md, « The editor »).

const config: EditorConfig = { publicOrigin: 'https://www.example.org', pages: declaredPages() };

/** A document with `html` in its head. */
function documentWith(html: string): Document {
  const doc = document.implementation.createHTMLDocument('éditeur');
  doc.head.innerHTML = html;
  return doc;
}

describe('the editor’s configuration', () => {
  it('is read from its JSON element, never run, and checked', () => {
    const doc = documentWith(editorConfigElement(config));
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

  it('is written by the server before the document’s head ends, as JSON that cannot end its element', () => {
    const hostile: EditorConfig = {
      ...config,
      pages: config.pages.map((page, index) => (index === 0 ? { ...page, title: '</script><script>alert(1)' } : page)),
    };
    const html = writeEditorConfig(
      '<!doctype html><html><head><title>Éditeur</title></head><body></body></html>',
      hostile,
    );
    expect(html).not.toContain('</script><script>');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).toMatch(
      /<title>Éditeur<\/title><script type="application\/json" id="editor-config">.*<\/script><\/head>/,
    );
    const doc = new DOMParser().parseFromString(html, 'text/html');
    expect(readEditorConfig(doc)).toEqual({ ok: true, config: hostile });
    expect(() => writeEditorConfig('<body></body>', config)).toThrow('</head> une fois');
    expect(() => writeEditorConfig(html, config)).toThrow('a déjà #editor-config');
    expect(() => editorConfigElement({ ...config, publicOrigin: 'www.example.org' })).toThrow(/champ \/publicOrigin/);
  });
});
