import { StrictMode, type ComponentType, type ReactNode } from 'react';
import {
  SiteEnvironmentContext,
  StoreProvider,
  createBrowserRouter,
  RouterProvider,
  type AppStore,
  type HydrationState,
  type PageRef,
  type RouteObject,
  type SiteEnvironment,
} from '@collectif/shared';
import { ServerModulesContext } from './federation/RemoteArea';
import { Layout } from './layout/Layout';
import { buildRoutes } from './routes';
import type { PageLifecycle } from './pages/lifecycle';
import { ServerPagesContext, type ServerPages } from './pages/definitions';

/** The whole route tree: the layout around every page of the table. */
export function appRoutes(pages: readonly PageRef[], lifecycle: PageLifecycle): RouteObject[] {
  return [{ id: 'layout', element: <Layout />, children: buildRoutes(pages, lifecycle) }];
}

/**
 * The browser's router, from the page table the server wrote into the page; with the server's
 * hydration data, the page it rendered is not loaded again.
 */
export function createRouter(lifecycle: PageLifecycle, hydrationData?: HydrationState) {
  return createBrowserRouter(
    appRoutes(lifecycle.pages, lifecycle),
    hydrationData === undefined ? {} : { hydrationData },
  );
}

const NO_MODULES: ReadonlyMap<string, ComponentType> = new Map();

/**
 * What wraps the router, the same on the server and in the browser so that hydration finds the
 * tree it expects: the store, the modules and page definitions the server has loaded (none in the
 * browser) and, on the server, the request's environment (the browser reads its own page).
 */
export function AppFrame({
  store,
  modules = NO_MODULES,
  pages = null,
  environment = null,
  children,
}: {
  store: AppStore;
  modules?: ReadonlyMap<string, ComponentType>;
  pages?: ServerPages | null;
  environment?: SiteEnvironment | null;
  children: ReactNode;
}) {
  return (
    <StrictMode>
      <SiteEnvironmentContext value={environment}>
        <StoreProvider store={store}>
          <ServerModulesContext value={modules}>
            <ServerPagesContext value={pages}>{children}</ServerPagesContext>
          </ServerModulesContext>
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
