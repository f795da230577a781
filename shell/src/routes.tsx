import { Navigate, PAGES, type PageRef, type RouteObject } from '@collectif/shared';
import { RemoteArea } from './federation/RemoteArea';
import { PageMeta } from './layout/PageMeta';

/** Every page of the table (shared/src/pages.ts, docs/site.md « Routes and titles »). */
export const pageRoutes = Object.values(PAGES) as readonly PageRef[];

export function buildRoutes(): RouteObject[] {
  return [
    ...pageRoutes.map((route) => ({
      path: route.path,
      element: (
        <>
          <PageMeta title={route.title} description={route.description} />
          {/* Keyed by route: a failed page must not leave its error state on the next one. */}
          <RemoteArea key={route.path} {...route} label={route.area} />
        </>
      ),
    })),
    { path: '*', element: <Navigate to="/" replace /> },
  ];
}
