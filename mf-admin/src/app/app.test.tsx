import { act, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { configureApiBase, providePages } from '@collectif/shared';
import { EDITOR_CONFIG_ID, editorConfigJson } from '@collectif/shared/editor-config';
import { declaredPages, json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import { setPublicOrigin } from '../editor/publicSite';
import { startEditorApp } from './start';

// The editor app as its document starts it on the editor's origin (docs/content.md, « The editor app »):
// its configuration read from the element the server writes, its pages at their addresses, and the
// French line that says what is wrong when the configuration is.

const PUBLIC = 'https://www.example.org';

let api: FakeServer;
let root: Root | null = null;

beforeEach(async () => {
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*' },
    // Signed out (docs/content.md, « Signing in »).
    routes: { '/api/editor/me': json(null) },
  });
  configureApiBase(`${api.origin}/api`);
  const element = document.createElement('div');
  element.id = 'root';
  document.body.append(element);
});

afterEach(async () => {
  act(() => {
    root?.unmount();
  });
  root = null;
  document.getElementById('root')?.remove();
  document.getElementById(EDITOR_CONFIG_ID)?.remove();
  setPublicOrigin(null);
  providePages(declaredPages());
  jest.restoreAllMocks();
  await api.close();
});

/** Opens the app at `path` with `head` written into the document's head (the server's part). */
function start(path: string, head: string) {
  window.history.replaceState(null, '', path);
  document.head.insertAdjacentHTML('beforeend', head);
  act(() => {
    root = startEditorApp(document);
  });
}

/** The configuration's element, as the server's page writes it (server/src/site/editor-document.ts). */
const config = () =>
  `<script type="application/json" id="${EDITOR_CONFIG_ID}">${editorConfigJson({ publicOrigin: PUBLIC, pages: declaredPages() })}</script>`;

describe('the editor app', () => {
  it('shows the French line, and no editor, when the server wrote no configuration', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    start('/admin', '');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'La configuration de l’éditeur (#editor-config) manque à cette page : rechargez la page ; si cela continue, prévenez l’équipe du site.',
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Espace des bénévoles');
    expect(screen.queryByRole('button', { name: /Se connecter/ })).not.toBeInTheDocument();
  });

  it('shows the French line naming the field when the configuration is wrong', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    start(
      '/admin',
      `<script type="application/json" id="${EDITOR_CONFIG_ID}">${JSON.stringify({ publicOrigin: 'www.example.org', pages: [] })}</script>`,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^La configuration de l’éditeur \(#editor-config\) est invalide, champ \/publicOrigin : origine invalide/,
    );
    expect(screen.queryByRole('button', { name: /Se connecter/ })).not.toBeInTheDocument();
  });

  it('shows a JSON it cannot read as such', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    start('/admin', `<script type="application/json" id="${EDITOR_CONFIG_ID}">{ publicOrigin: </script>`);
    expect(await screen.findByRole('alert')).toHaveTextContent(/est illisible \(pas du JSON\)/);
  });

  it('renders the editor at /admin, in its main landmark, with a way back to the public site', async () => {
    // As the server writes it (server/src/site/editor-origin.ts): a field the app does not read is left.
    const written = { publicOrigin: PUBLIC, editorOrigin: 'https://edition.example.org', pages: declaredPages() };
    start('/admin', `<script type="application/json" id="${EDITOR_CONFIG_ID}">${JSON.stringify(written)}</script>`);
    expect(await screen.findByRole('button', { name: 'Se connecter avec une clé d’accès' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toContainElement(screen.getByRole('heading', { level: 1 }));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Espace des bénévoles');
    expect(screen.getByRole('link', { name: 'Retour au site public' })).toHaveAttribute('href', `${PUBLIC}/`);
    expect(document.title).toBe('Espace des bénévoles');
  });

  it('renders the invitation at /admin/invitation, and the editor at any other of its addresses', async () => {
    start('/admin/invitation#jeton', config());
    expect(await screen.findByRole('heading', { level: 1, name: 'Invitation' })).toBeInTheDocument();
    expect(screen.getByLabelText('Nom du compte')).toBeInTheDocument();
    expect(document.title).toBe('Invitation · Espace des bénévoles');
    act(() => {
      root?.unmount();
    });
    start('/admin/ailleurs', '');
    expect(await screen.findByRole('button', { name: 'Se connecter avec une clé d’accès' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/admin');
  });
});
