import { useEffect, type ReactNode } from 'react';
import { findPage, useLocation, usePages } from '@collectif/shared';
import { isPublicSiteElsewhere, publicOrigin } from '../editor/publicSite';

const TITLE = 'Espace des bénévoles';

/**
 * What the editor app puts around its pages, a document of its own (the shell's layout is the
 * public site's, not loaded here): the page's title from the table, a way back to the public site,
 * and the `<main>` landmark.
 */
export function EditorLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const title = findPage(pathname, usePages())?.page.title ?? TITLE;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <>
      {isPublicSiteElsewhere() ? (
        <header className="admin-app__header">
          <a href={`${publicOrigin()}/`}>Retour au site public</a>
        </header>
      ) : null}
      <main id="contenu">{children}</main>
    </>
  );
}
