import type { MouseEventHandler, ReactNode } from 'react';
// The router's Link, the radio settings and the page table from the shared singleton (PageLink.tsx says why).
import { Link, useRadioSettings } from '@collectif/shared';
import { ExternalLink } from '../ui/ExternalLink';
import { PAGES, type PageSearch } from './paths';
import { usePageHref } from './usePageHref';

/**
 * « Nous soutenir » wherever the site offers it (docs/support.md, « The links »): the site's page
 * while HelloAsso takes payments on it (the run-time `support.page`, contract 3.3) and the page
 * table has it; otherwise the collective's external page in a new tab, as before, or nothing when
 * `external` is false (a residence's « Soutenir … », which only the site's page can name).
 */
export function SupportLink({
  children,
  search,
  className,
  onClick,
  external = true,
}: {
  children: ReactNode;
  search?: PageSearch;
  className?: string;
  onClick?: MouseEventHandler<HTMLAnchorElement>;
  external?: boolean;
}) {
  const { support } = useRadioSettings();
  const to = usePageHref()(PAGES.support, {}, search);
  if (support.page !== '' && to !== null) {
    return (
      <Link to={to} className={className} onClick={onClick}>
        {children}
      </Link>
    );
  }
  if (!external) return null;
  return (
    <ExternalLink href={support.external} className={className} onClick={onClick}>
      {children}
    </ExternalLink>
  );
}
