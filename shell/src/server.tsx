// The shell's server bundle (dist/server/ssr.js, docs/rendering.md): the site's server loads it at
// run time, like a remote's, and renders the page it returns. Never part of the browser's download.
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  type ShellServerBundle,
} from '@collectif/shared/server';
import { AppFrame, appRoutes } from './App';

export const renderApp: ShellServerBundle['renderApp'] = async ({ url, store, modules, environment }) => {
  const handler = createStaticHandler(appRoutes(environment.pages));
  const context = await handler.query(new Request(url));
  // Only a loader or an action answers with a Response, and no route has one.
  if (context instanceof Response) throw new Error(`Route inattendue : ${url}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return (
    <AppFrame store={store} modules={modules} environment={environment}>
      {/* No hydration data: the routes have no loaders, and its inline script would need the CSP. */}
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppFrame>
  );
};
