import { Navigate, PAGES, siteConfig, type RouteObject } from '@collectif/shared';
import { RemoteArea, type RemoteModuleRef } from './federation/RemoteArea';
import { PageMeta } from './layout/PageMeta';

type PageRoute = RemoteModuleRef & {
  path: string;
  label: string;
  title: string;
  description?: string;
};

/** The route table of SPEC section 2; each page comes from a remote (shared/src/pages.ts). */
export const pageRoutes = [
  { ...PAGES.home, label: "La page d'accueil", title: 'Accueil' },
  {
    ...PAGES.about,
    label: 'La page À propos',
    title: `${siteConfig.name} À Propos`,
    description: 'Qui sommes-nous ?',
  },
  {
    ...PAGES.residences,
    label: 'La liste des résidences',
    title: 'Résidences',
  },
  {
    ...PAGES.residence,
    label: 'La page de la résidence',
    title: 'Résidence',
  },
  {
    ...PAGES.label,
    label: 'La page du label',
    title: 'Label',
    description: 'Liste des releases du label',
  },
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
