import { siteConfig } from './config';
import type { RemoteContract, RemoteName } from './remotes';

/** A remote and one of the modules it exposes, checked against the contract. */
export type RemoteModuleRef = {
  [R in RemoteName]: { remote: R; module: keyof RemoteContract[R] & string };
}[RemoteName];

export type PageRef = RemoteModuleRef & { path: string; title: string; description?: string };

/** The meta description of a page that has none of its own. */
export const DEFAULT_DESCRIPTION = "Web radio, replays, résidences, label et évènements d'un collectif de Toulouse.";

/**
 * Which remote module renders each route, with its title and meta description (SPEC section 2).
 * The shell builds its routes from it; the server writes the title and description into the page
 * and tells the browser what the route will need.
 */
export const PAGES = {
  home: { path: '', remote: 'radio', module: 'HomePage', title: 'Accueil' },
  about: {
    path: 'a-propos',
    remote: 'about',
    module: 'AboutPage',
    title: `${siteConfig.name} À Propos`,
    description: 'Qui sommes-nous ?',
  },
  residences: { path: 'residences', remote: 'radio', module: 'ResidencesPage', title: 'Résidences' },
  residence: { path: 'residences/:id', remote: 'radio', module: 'ResidencePage', title: 'Résidence' },
  label: {
    path: 'label',
    remote: 'label',
    module: 'LabelPage',
    title: 'Label',
    description: 'Liste des releases du label',
  },
} as const satisfies Record<string, PageRef>;

export interface PageMatch {
  page: PageRef;
  params: Record<string, string>;
}

/**
 * The page that renders `pathname`, with its parameters; an unknown path is the home page, where
 * the shell redirects it. Trailing slashes are ignored, as the router does.
 */
export function matchPage(pathname: string): PageMatch {
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
  return { page: PAGES.home, params: {} };
}
