import { StrictMode, type ComponentType, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
// Imported by package name so that the standalone page uses the same singleton as the pages.
import { makeStore } from '@collectif/shared';
import { showDisplayFace } from '../boot';
import '../styles/fonts.css';
import '../styles/tokens.css';
import '../styles/base.css';

export interface StandaloneOptions {
  /**
   * What surrounds every page (its landmarks, its title): a remote's dev page shows its pages bare;
   * mf-admin's editor app, a document of its own, gives them their `<main>` (docs/content.md,
   * « The editor app »).
   */
  layout?: ComponentType<{ children: ReactNode }>;
}

/**
 * A remote's pages alone, with a real store and router: its dev server's page, and mf-admin's editor
 * app on the editor's origin (its pages with React and this package bundled in, no shell). Its React
 * root, which a test unmounts.
 */
export function renderStandalone(
  routes: Record<string, ComponentType>,
  { layout: Layout }: StandaloneOptions = {},
): Root {
  const root = document.getElementById('root');
  if (root === null) throw new Error('#root manquant');
  // The display face, made as every page of the site makes it (docs/interface.md, « Typography »):
  // the editor's preview shows a name as the site draws it, and the file its document announces is used.
  showDisplayFace();
  const pages = (
    <Routes>
      {Object.entries(routes).map(([path, Page]) => (
        <Route key={path} path={path} element={<Page />} />
      ))}
    </Routes>
  );
  const react = createRoot(root);
  react.render(
    <StrictMode>
      <Provider store={makeStore()}>
        <BrowserRouter>{Layout === undefined ? pages : <Layout>{pages}</Layout>}</BrowserRouter>
      </Provider>
    </StrictMode>,
  );
  return react;
}
