import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
// Imported by package name so that the standalone page uses the same singleton as the pages.
import { makeStore } from '@collectif/shared';
import '../styles/fonts.css';
import '../styles/tokens.css';
import '../styles/base.css';

/** A remote's dev server shows its pages alone, with a real store and router. */
export function renderStandalone(routes: Record<string, ComponentType>): void {
  const root = document.getElementById('root');
  if (root === null) throw new Error('#root manquant');
  createRoot(root).render(
    <StrictMode>
      <Provider store={makeStore()}>
        <BrowserRouter>
          <Routes>
            {Object.entries(routes).map(([path, Page]) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
          </Routes>
        </BrowserRouter>
      </Provider>
    </StrictMode>,
  );
}
