import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import type { AppStore } from '@collectif/shared';
import { Layout } from './layout/Layout';
import { buildRoutes } from './routes';

export function createRouter() {
  return createBrowserRouter([{ element: <Layout />, children: buildRoutes() }]);
}

export function App({ store, router }: { store: AppStore; router: ReturnType<typeof createRouter> }) {
  return (
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  );
}
