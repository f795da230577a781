import { StrictMode, type ComponentType, type ReactNode } from 'react';
import { StoreProvider, createBrowserRouter, RouterProvider, type AppStore, type RouteObject } from '@collectif/shared';
import { ServerModulesContext } from './federation/RemoteArea';
import { Layout } from './layout/Layout';
import { buildRoutes } from './routes';

/** The whole route tree: the layout around every page of the table. */
export function appRoutes(): RouteObject[] {
  return [{ element: <Layout />, children: buildRoutes() }];
}

export function createRouter() {
  return createBrowserRouter(appRoutes());
}

const NO_MODULES: ReadonlyMap<string, ComponentType> = new Map();

/**
 * What wraps the router, the same on the server and in the browser so that hydration finds the
 * tree it expects: the store, and the modules the server has loaded (none in the browser).
 */
export function AppFrame({
  store,
  modules = NO_MODULES,
  children,
}: {
  store: AppStore;
  modules?: ReadonlyMap<string, ComponentType>;
  children: ReactNode;
}) {
  return (
    <StrictMode>
      <StoreProvider store={store}>
        <ServerModulesContext value={modules}>{children}</ServerModulesContext>
      </StoreProvider>
    </StrictMode>
  );
}

export function App({ store, router }: { store: AppStore; router: ReturnType<typeof createRouter> }) {
  return (
    <AppFrame store={store}>
      <RouterProvider router={router} />
    </AppFrame>
  );
}
