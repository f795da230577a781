import { siteConfig } from './config';
import type { RemoteContract, RemoteName } from './remotes';

/** A remote and one of the modules it exposes, checked against the contract. */
export type RemoteModuleRef = {
  [R in RemoteName]: { remote: R; module: keyof RemoteContract[R] & string };
}[RemoteName];

export type PageRef = RemoteModuleRef & {
  path: string;
  title: string;
  description?: string;
  /** How the shell names the page's area in its messages (« … est momentanément indisponible »). */
  area: string;
  /** Its label in the main menu; pages without one are not in the menu. */
  menu?: string;
  /** The path of the page the navbar's back button leads to from this one; home when absent. */
  back?: string;
};

/** The meta description of a page that has none of its own. */
export const DEFAULT_DESCRIPTION = "Web radio, replays, résidences, label et évènements d'un collectif de Toulouse.";

/**
 * The one table of pages (docs/site.md, « Routes and titles »; docs/parts.md): which remote module
 * renders each route, its title and meta description, its menu entry (the menu lists them in this
 * order) and its back button. The shell builds its routes and menu from it; the server writes the
 * title and description into the page and tells the browser what the route will need.
 */
export const PAGES = {
  home: { path: '', remote: 'radio', module: 'HomePage', title: 'Accueil', area: "La page d'accueil" },
  residences: {
    path: 'residences',
    remote: 'radio',
    module: 'ResidencesPage',
    title: 'Résidences',
    area: 'La liste des résidences',
    menu: 'Résidences',
  },
  residence: {
    path: 'residences/:id',
    remote: 'radio',
    module: 'ResidencePage',
    title: 'Résidence',
    area: 'La page de la résidence',
    back: 'residences',
  },
  label: {
    path: 'label',
    remote: 'label',
    module: 'LabelPage',
    title: 'Label',
    description: 'Liste des releases du label',
    area: 'La page du label',
    menu: 'Label',
  },
  about: {
    path: 'a-propos',
    remote: 'about',
    module: 'AboutPage',
    title: `${siteConfig.name} À Propos`,
    description: 'Qui sommes-nous ?',
    area: 'La page À propos',
    menu: 'À propos',
  },
} as const satisfies Record<string, PageRef>;

/** A page's address, its parameters filled in: `href(PAGES.residence, { id })`. */
export function href(page: PageRef, params: Record<string, string> = {}): string {
  return `/${page.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))}`;
}

export interface MenuLink {
  to: string;
  label: string;
  /** The page behind the link, warmed when the visitor points at it. */
  page: RemoteModuleRef;
}

/** The main menu: the pages that have a menu label, in the table's order. */
export const MENU: readonly MenuLink[] = (Object.values(PAGES) as PageRef[]).flatMap((page) =>
  page.menu === undefined
    ? []
    : [{ to: href(page), label: page.menu, page: { remote: page.remote, module: page.module } as RemoteModuleRef }],
);

export interface PageMatch {
  page: PageRef;
  params: Record<string, string>;
}

/**
 * The page that renders `pathname`, with its parameters, or null for a path no page has (the site
 * redirects it home) or whose parameters cannot be decoded. Trailing slashes are ignored, as the
 * router does.
 */
export function findPage(pathname: string): PageMatch | null {
  const segments = pathname.split('/').filter((s) => s !== '');
  for (const page of Object.values(PAGES) as PageRef[]) {
    const pattern = page.path.split('/').filter((s) => s !== '');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      const segment = segments[i] ?? '';
      if (part.startsWith(':')) {
        try {
          params[part.slice(1)] = decodeURIComponent(segment);
        } catch {
          return false;
        }
        return true;
      }
      return part === segment;
    });
    if (matches) return { page, params };
  }
  return null;
}

/** The page that renders `pathname`; an unknown path is the home page, where the shell redirects it. */
export function matchPage(pathname: string): PageMatch {
  return findPage(pathname) ?? { page: PAGES.home, params: {} };
}

/** Where the navbar's back button leads from `pathname`: a resident show to the grid, anything else home. */
export function backTarget(pathname: string): string {
  const { back } = matchPage(pathname).page;
  return `/${back ?? ''}`;
}
