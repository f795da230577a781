import { Suspense, useCallback, useContext, useMemo, useSyncExternalStore } from 'react';
import {
  fullHead,
  siteConfig,
  useAppStore,
  useLocation,
  usePages,
  useParams,
  useRadioSettings,
  type PageHeadParts,
  type PageRef,
} from '@collectif/shared';
import { HeadTags, JsonLd } from '@collectif/shared/seo';
import { hrefOf } from '@collectif/shared/addresses';
import { ServerPagesContext, usePageDefinition } from '../pages/definitions';

/**
 * The head of the page on screen (docs/head.md, « One head »), rendered by React from the page's
 * definition (its module's `head`, from the store's data, completed from the page table), the same
 * function the server's page loader calls. Its title, description, canonical, alternates and cards
 * are written into the document's head by the server's Document; in the browser React 19 keeps the
 * same elements in the head (it takes over those the server wrote and changes them after a
 * navigation or when the page's data arrives). Its JSON-LD is rendered where the page is, on both
 * sides.
 */

let origin: string | undefined;

/**
 * The site's public origin as the server wrote it in the canonical address (SITE_ORIGIN), read
 * before the head is first changed: the page may be opened at another name than its public one.
 */
export function siteOrigin(): string {
  origin ??= new URL(document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href ?? window.location.href)
    .origin;
  return origin;
}

function PageHeadOf({ route }: { route: PageRef }) {
  const server = useContext(ServerPagesContext);
  const definition = usePageDefinition(route);
  const { pathname, search } = useLocation();
  const params = useParams();
  const store = useAppStore();
  const radio = useRadioSettings();
  const pages = usePages();
  // The API's answers: the head is computed again when one arrives (the page's data).
  const subscribe = useCallback((listener: () => void) => store.subscribe(listener), [store]);
  const answers = useSyncExternalStore(
    subscribe,
    () => store.getState().api,
    () => store.getState().api,
  );
  const paramsKey = JSON.stringify(params);
  const siteAddress = server?.origin ?? siteOrigin();

  const head = useMemo(() => {
    const context = {
      params: JSON.parse(paramsKey) as Record<string, string>,
      origin: siteAddress,
      query: new URLSearchParams(search),
      radio,
      href: hrefOf(pages),
    };
    let parts: PageHeadParts = {};
    try {
      parts = definition?.head?.({ ...context, state: { ...store.getState(), api: answers } }) ?? {};
    } catch (error) {
      // On the server the page's loader has said so already.
      if (server === null) console.error(`En-tête de « ${route.path || '/'} »`, error);
    }
    return fullHead(route, pathname, siteAddress, parts);
  }, [definition, pathname, search, paramsKey, siteAddress, radio, pages, store, route, server, answers]);

  return (
    <>
      {/* On the server the Document writes these into the head, from the page loader's head. */}
      {server === null && <HeadTags head={head} siteName={siteConfig.name} />}
      <JsonLd head={head} />
    </>
  );
}

export function PageHead({ route }: { route: PageRef }) {
  // While the page's module loads (hydration), the server's elements stay as they are.
  return (
    <Suspense fallback={null}>
      <PageHeadOf route={route} />
    </Suspense>
  );
}
