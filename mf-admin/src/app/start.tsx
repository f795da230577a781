import type { ComponentType } from 'react';
import type { Root } from 'react-dom/client';
import { Navigate, providePages, type PageRoute } from '@collectif/shared';
import { readEditorConfig, type EditorConfigRead } from '@collectif/shared/editor-config';
import { renderStandalone } from '@collectif/shared/standalone';
import { StatusMessage } from '@collectif/shared/ui';
import AdminPage, { route as adminRoute } from '../exposed/AdminPage';
import InvitationPage, { route as invitationRoute } from '../exposed/InvitationPage';
import { setPublicOrigin } from '../editor/publicSite';
import { EditorLayout } from './EditorLayout';
import '../editor/admin.css';

/*
 * The editor app (docs/content.md, « The editor app »): mf-admin's two pages as a document of their own,
 * on the editor's origin, with React and the shared package bundled in and nothing of the other
 * parts. What it needs of the site, the server writes into the document as data
 * (`#editor-config`, read and checked by `readEditorConfig`): the page table (the addresses of the
 * pages it shows in its preview and links to) and the public site's origin.
 */

/** The paths of a page module's route, as its `route` says (the same the public site serves it at). */
const pathsOf = (route: PageRoute): string[] => ('path' in route ? [route.path] : route.map((each) => each.path));

/** Its pages at their paths; any other address of the app leads to the editor's first page. */
export function editorRoutes(): Record<string, ComponentType> {
  const [home = 'admin'] = pathsOf(adminRoute);
  const routes: Record<string, ComponentType> = {};
  for (const path of pathsOf(adminRoute)) routes[path] = AdminPage;
  for (const path of pathsOf(invitationRoute)) routes[path] = InvitationPage;
  routes['*'] = function Elsewhere() {
    return <Navigate to={`/${home}`} replace />;
  };
  return routes;
}

/** What shows instead of the editor when its configuration is missing or wrong: the French line that says so. */
export function ConfigProblem({ error }: { error: string }) {
  return (
    <div className="page admin-page">
      <h1>Espace des bénévoles</h1>
      <StatusMessage kind="error">{error}</StatusMessage>
    </div>
  );
}

/**
 * Reads the configuration, gives the page table and the public origin to the pages, and renders
 * them into `#root`; without a good configuration, the French line that says what is wrong.
 */
export function startEditorApp(doc: Document, read: EditorConfigRead = readEditorConfig(doc)): Root {
  if (!read.ok) {
    console.error(read.error);
    return renderStandalone(
      {
        '*': function Problem() {
          return <ConfigProblem error={read.error} />;
        },
      },
      { layout: EditorLayout },
    );
  }
  providePages(read.config.pages);
  setPublicOrigin(read.config.publicOrigin);
  return renderStandalone(editorRoutes(), { layout: EditorLayout });
}
