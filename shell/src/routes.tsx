import { Navigate, PAGES, type RemoteModuleRef, type RouteObject } from '@collectif/shared';
import { RemoteArea } from './federation/RemoteArea';
import { PageMeta } from './layout/PageMeta';

type PageRoute = RemoteModuleRef & {
  path: string;
  label: string;
  title: string;
  description?: string;
};

/** The route table of SPEC section 2 (shared/src/pages.ts), with the name of each page's area. */
export const pageRoutes = [
  { ...PAGES.home, label: "La page d'accueil" },
  { ...PAGES.about, label: 'La page À propos' },
  { ...PAGES.residences, label: 'La liste des résidences' },
  { ...PAGES.residence, label: 'La page de la résidence' },
  { ...PAGES.label, label: 'La page du label' },
] as const satisfies readonly PageRoute[];

export function buildRoutes(): RouteObject[] {
  return [
    ...pageRoutes.map((route) => ({
      path: route.path,
      element: (
        <>
          <PageMeta title={route.title} description={'description' in route ? route.description : undefined} />
          {/* Keyed by route: a failed page must not leave its error state on the next one. */}
          <RemoteArea key={route.path} {...route} />
        </>
      ),
    })),
    { path: '*', element: <Navigate to="/" replace /> },
  ];
}
