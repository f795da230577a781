// The shell's server module, exposed as `./server` by its server container
// (dist/server/remoteEntry.js, docs/rendering.md « Server containers »): the site's renderers load it
// with the federation runtime, like a remote's modules, and render the page it returns. Never part of
// the browser's download.
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  type ShellServerContainer,
} from '@collectif/shared/server';
import { AppFrame, appRoutes } from './App';
import { pageRouteId } from './routes';
import type { PageLoaderData } from './pages/lifecycle';

export const renderApp: ShellServerContainer['renderApp'] = async ({
  url,
  store,
  modules,
  definitions,
  environment,
  origin,
  dataDeadlineMs,
}) => {
  const handler = createStaticHandler(
    appRoutes(environment.pages, {
      store,
      definitionOf: (page) => Promise.resolve(definitions.get(`${page.remote}/${page.module}`)),
      origin: () => origin,
      radio: environment.radio,
      pages: environment.pages,
      dataDeadlineMs,
    }),
  );
  // The router runs the page: its loader loads its data into this request's store.
  const context = await handler.query(new Request(url));
  // A loader answers data, never a Response (a redirect): unknown paths are sent home before.
  if (context instanceof Response) throw new Error(`Route inattendue : ${url}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const page = environment.pages.find((entry) => context.loaderData[pageRouteId(entry)] !== undefined);
  const loaded = page === undefined ? undefined : (context.loaderData[pageRouteId(page)] as PageLoaderData);
  return {
    element: (
      <AppFrame store={store} modules={modules} pages={{ definitions, origin }} environment={environment}>
        {/* Its hydration data goes in a JSON element of the page (no inline script for the CSP). */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppFrame>
    ),
    status: context.statusCode,
    head: loaded?.head ?? {},
    preloads: loaded?.preloads ?? [],
    // Which routes have loaded, not what: the browser's components read the data from the store
    // (its state is in the page) and compute the head from it; a copy would only weigh.
    hydration: {
      loaderData: Object.fromEntries(Object.keys(context.loaderData).map((id) => [id, null])),
      errors: context.errors,
    },
  };
};
