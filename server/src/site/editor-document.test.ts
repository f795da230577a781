import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { declaredPages } from '@collectif/shared/testing';
import { editorDocument } from './editor-document';
import { editorOrigin } from './editor-origin';

// The editor's document (docs/content.md, « The editor app »): written by the pages' Document from
// its build's list, or a French page while there is none.

const SITE = 'https://radio.example.org';
const EDITOR = 'https://edition.radio.example.org';
const assets = { scripts: ['/mf-admin/editor/main.js'], styles: [], fonts: [] };

describe('the editor’s document', () => {
  it('refuses a configuration that is not one, naming the field, rather than write it', () => {
    expect(() => editorDocument(assets, { publicOrigin: 'javascript:alert(1)', pages: declaredPages() })).toThrow(
      /champ \/publicOrigin/,
    );
  });

  it('writes a hostile page title as data that cannot end its element', () => {
    const pages = declaredPages().map((page, index) =>
      index === 0 ? { ...page, title: '</script><script>alert(1)</script>' } : page,
    );
    const { html } = editorDocument(assets, { publicOrigin: SITE, pages });
    expect(html).not.toContain('<script>alert(1)');
    expect(html.match(/<script/g)).toHaveLength(2);
  });

  it('is a French page with status 503 while the editor is not built, under the editor’s policy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'editeur-'));
    const app = Fastify();
    try {
      await app.register(editorOrigin, {
        siteOrigin: SITE,
        editorOrigin: EDITOR,
        adminDir: dir,
        pages: () => Promise.resolve(declaredPages()),
      });
      const res = await app.inject({ url: '/admin', headers: { host: new URL(EDITOR).host } });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<title>Espace des bénévoles</title>');
      expect(res.body).toContain('L’éditeur n’est pas construit sur ce serveur');
      expect(res.headers['content-security-policy']).toContain("script-src 'self';");
      expect(res.headers['cache-control']).toBe('no-store');
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
