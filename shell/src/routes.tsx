import { Navigate, type PageRef, type RouteObject } from '@collectif/shared';
import { RemoteArea } from './federation/RemoteArea';
import { PageHead } from './layout/PageHead';

/** Every page of the table the remotes declare (docs/parts.md, « Pages »; docs/site.md « Routes and titles »). */
export function buildRoutes(pages: readonly PageRef[]): RouteObject[] {
  return [
    ...pages.map((route) => ({
      path: route.path,
      element: (
        <>
          <PageHead route={route} />
          {/* Keyed by route: a failed page must not leave its error state on the next one. */}
          <RemoteArea key={route.path} remote={route.remote} module={route.module} label={route.area} />
        </>
      ),
    })),
    { path: '*', element: <Navigate to="/" replace /> },
  ];
}
