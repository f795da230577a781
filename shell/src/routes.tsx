import { Navigate, useLocation, useParams, type PageRef, type RouteObject } from '@collectif/shared';
import { fillPath } from '@collectif/shared/addresses';
import { RemoteArea } from './federation/RemoteArea';
import { PageHead } from './layout/PageHead';
import { PAGE_ZONE } from './layout/Layout';
import { pageLoader, type PageLifecycle } from './pages/lifecycle';

/** A page's former path, reached in the browser: its current one, same parameters and query. */
function MovedPage({ page }: { page: PageRef }) {
  const params = useParams();
  const { search, hash } = useLocation();
  return <Navigate to={`${fillPath(page.path, params)}${search}${hash}`} replace />;
}

/** A page's route id: the same on the server and in the browser, whose hydration data it keys. */
export const pageRouteId = (page: PageRef): string => `page:${page.remote}/${page.module}:${page.path}`;

/**
 * Every page of the table the remotes declare (docs/parts.md, « Pages »; docs/site.md « Routes and
 * titles »), each a data route whose loader runs the page (pages/lifecycle.ts).
 */
export function buildRoutes(pages: readonly PageRef[], lifecycle: PageLifecycle): RouteObject[] {
  const paths = new Set(pages.map((page) => page.path));
  return [
    ...pages.map((route) => ({
      id: pageRouteId(route),
      path: route.path,
      loader: pageLoader(route, lifecycle),
      element: (
        <>
          <PageHead route={route} />
          {/* Keyed by route: a failed page must not leave its error state on the next one. */}
          <RemoteArea
            key={route.path}
            remote={route.remote}
            module={route.module}
            label={route.area}
            zone={PAGE_ZONE}
          />
        </>
      ),
    })),
    // Former paths (docs/parts.md, « Addresses »): the server answers them with a 301; a link
    // followed in the page goes to the same place. A path a page has today stays that page's.
    ...pages.flatMap((page) =>
      (page.aliases ?? [])
        .filter((alias) => !paths.has(alias))
        .map((alias) => ({ id: `alias:${alias}`, path: alias, element: <MovedPage page={page} /> })),
    ),
    { id: 'unknown', path: '*', element: <Navigate to="/" replace /> },
  ];
}
