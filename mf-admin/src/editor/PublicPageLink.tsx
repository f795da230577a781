import type { ReactNode } from 'react';
import { PageLink, usePageHref, type PageModule } from '@collectif/shared/addresses';
import { isPublicSiteElsewhere, onPublicSite } from './publicSite';

/**
 * A link to a public page from the editor: the router's link when the editor is a part of the public
 * site, an address on the public origin when it has an origin of its own (its router has no public
 * page). No link, its text alone, when the table lacks the page.
 */
export function PublicPageLink({
  page,
  params,
  children,
}: {
  page: PageModule;
  params?: Readonly<Record<string, string>>;
  children: ReactNode;
}) {
  const path = usePageHref()(page, params);
  if (!isPublicSiteElsewhere()) {
    return (
      <PageLink page={page} {...(params === undefined ? {} : { params })}>
        {children}
      </PageLink>
    );
  }
  return path === null ? <span>{children}</span> : <a href={onPublicSite(path)}>{children}</a>;
}
