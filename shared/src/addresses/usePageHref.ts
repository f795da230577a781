import { useMemo } from 'react';
// The page table of the page being rendered comes from the shared singleton (its environment).
import { usePages } from '@collectif/shared';
import { hrefOf, type HrefOf } from './paths';

/**
 * Builds the addresses of the site's pages from the table the remotes declare, the request's on
 * the server, the page's in the browser: `usePageHref()(PAGES.episode, { slug })`. Null for a page
 * the table lacks (its remote is down or has not declared it): show the text without a link.
 */
export function usePageHref(): HrefOf {
  const pages = usePages();
  return useMemo(() => hrefOf(pages), [pages]);
}
