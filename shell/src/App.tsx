import { StoreProvider, createBrowserRouter, RouterProvider, type AppStore } from '@collectif/shared';
import { Layout } from './layout/Layout';
import { buildRoutes } from './routes';

export function createRouter() {
  return createBrowserRouter([{ element: <Layout />, children: buildRoutes() }]);
}

export function App({ store, router }: { store: AppStore; router: ReturnType<typeof createRouter> }) {
  return (
    <StoreProvider store={store}>
      <RouterProvider router={router} />
    </StoreProvider>
  );
}
