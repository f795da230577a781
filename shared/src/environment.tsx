import { createContext, useContext } from 'react';
import { radioSettings, type RadioSettings } from './config/radio';
import { sitePages, type PageRef } from './pages';

/**
 * What a render depends on besides its data (docs/rendering.md, « State per request »): the radio's
 * settings and the page table. On the server
 * they are the rendering app's, passed down the React tree for each request, never set on a module:
 * two apps in one process (or one app with new settings) each render with their own. In the browser
 * there is one page, and each is read from it.
 */
export interface SiteEnvironment {
  radio: RadioSettings;
  pages: readonly PageRef[];
}

export const SiteEnvironmentContext = createContext<SiteEnvironment | null>(null);

/** The environment of the page being rendered: the request's on the server, the page's in the browser. */
export function useSiteEnvironment(): SiteEnvironment {
  const provided = useContext(SiteEnvironmentContext);
  if (provided !== null) return provided;
  if (typeof window === 'undefined') {
    throw new Error('Rendu serveur : aucun environnement fourni (SiteEnvironmentContext)');
  }
  return { radio: radioSettings(), pages: sitePages() };
}

export const useRadioSettings = (): RadioSettings => useSiteEnvironment().radio;
export const usePages = (): readonly PageRef[] => useSiteEnvironment().pages;
