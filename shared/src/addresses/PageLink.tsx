import type { ReactNode } from 'react';
// The router's Link from the shared singleton: the page's one router (a copy bundled here would have
// no router around it, on the server where the part's bundle carries what is not provided).
import { Link } from '@collectif/shared';
import type { PageModule, PageSearch } from './paths';
import { usePageHref } from './usePageHref';

interface PageLinkProps {
  page: PageModule;
  params?: Readonly<Record<string, string>>;
  search?: PageSearch;
  className?: string;
  rel?: string;
  children: ReactNode;
}

/**
 * A link to a page of the site, its address from the page table. When the table has no such page
 * (its remote is down), its text is shown without a link rather than a link that leads nowhere.
 */
export function PageLink({ page, params, search, children, ...rest }: PageLinkProps) {
  const to = usePageHref()(page, params, search);
  return to === null ? (
    <span className={rest.className}>{children}</span>
  ) : (
    <Link to={to} {...rest}>
      {children}
    </Link>
  );
}
