import { StrictMode, type ComponentType, type ReactNode } from 'react';
import {
  SiteEnvironmentContext,
  StoreProvider,
  createBrowserRouter,
  RouterProvider,
  sitePages,
  type AppStore,
  type PageRef,
  type RouteObject,
  type SiteEnvironment,
} from '@collectif/shared';
import { ServerModulesContext } from './federation/RemoteArea';
import { Layout } from './layout/Layout';
import { buildRoutes } from './routes';

/** The whole route tree: the layout around every page of the table. */
export function appRoutes(pages: readonly PageRef[]): RouteObject[] {
  return [{ element: <Layout />, children: buildRoutes(pages) }];
}

/** The browser's router, from the page table the server wrote into the page. */
export function createRouter() {
  return createBrowserRouter(appRoutes(sitePages()));
}

const NO_MODULES: ReadonlyMap<string, ComponentType> = new Map();

/**
 * What wraps the router, the same on the server and in the browser so that hydration finds the
 * tree it expects: the store, the modules the server has loaded (none in the browser) and, on the
 * server, the request's environment (the browser reads its own page).
 */
export function AppFrame({
  store,
  modules = NO_MODULES,
  environment = null,
  children,
}: {
  store: AppStore;
  modules?: ReadonlyMap<string, ComponentType>;
  environment?: SiteEnvironment | null;
  children: ReactNode;
}) {
  return (
    <StrictMode>
      <SiteEnvironmentContext value={environment}>
        <StoreProvider store={store}>
          <ServerModulesContext value={modules}>{children}</ServerModulesContext>
        </StoreProvider>
      </SiteEnvironmentContext>
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
