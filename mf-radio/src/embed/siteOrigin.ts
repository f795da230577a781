import { useState } from 'react';
import { useAppStore, type AppDispatch, type StoreExtra } from '@collectif/shared';

const originOf = (href: string | undefined | null): string | null => {
  if (href === undefined || href === null || href === '') return null;
  try {
    const { origin } = new URL(href);
    return /^https?:/.test(origin) ? origin : null;
  } catch {
    return null;
  }
};

/**
 * The site's public origin (SITE_ORIGIN), for the code a partner pastes, the same on the server and
 * in the browser so that the page hydrates as it was sent. A page's view is not given the origin
 * its definition's `head` gets (PageContext), so it is read where each side has it: on the server,
 * from the request's store, whose /api base the server makes absolute on SITE_ORIGIN (StoreExtra,
 * docs/rendering.md « State per request »); in the browser, from the canonical address the server
 * wrote (as the shell's PageHead reads it), else the page's own origin.
 */
export function readSiteOrigin(dispatch: AppDispatch, document: Document | undefined): string {
  const base = dispatch((_dispatch, _getState, extra: StoreExtra) => extra.api?.base);
  return (
    originOf(base) ??
    originOf(document?.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href) ??
    originOf(document?.location.href) ??
    ''
  );
}

/** The site's public origin during render (read once per mount: it does not change). */
export function useSiteOrigin(): string {
  const store = useAppStore();
  // No document on the server: there the store's /api base gives it.
  const [origin] = useState(() =>
    readSiteOrigin(store.dispatch, typeof document === 'undefined' ? undefined : document),
  );
  return origin;
}
