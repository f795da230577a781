import { useEffect, useState } from 'react';
import {
  fullHead,
  siteConfig,
  useAppStore,
  useLocation,
  usePages,
  useParams,
  useRadioSettings,
  type PageDefinition,
  type PageHeadParts,
  type PageRef,
} from '@collectif/shared';
import { headTags } from '@collectif/shared/seo';
import { hrefOf } from '@collectif/shared/addresses';
import { load } from '../federation/RemoteArea';

/**
 * The head of the page on screen (docs/head.md, « One head »), from the same definition the server
 * used: the page module's `head`, completed from the page table. Applied once the page's module is
 * loaded, again after each navigation and whenever the API's answers change (the page's data
 * arriving). The server's head, written from the same function and data, is left as it is.
 */

/** The elements a page's head is made of (seo/head.ts, `headTags`); nothing else is touched. */
const MANAGED =
  'title, meta[name="description"], link[rel="canonical"], link[rel="alternate"], meta[property^="og:"], meta[name^="twitter:"], script[type="application/ld+json"]';

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

const serialize = (elements: readonly Element[]) => elements.map((element) => element.outerHTML).join('');

/** Puts the head's tags in place of the managed ones, unless they already say the same. */
function applyHead(tags: string): void {
  const current = [...document.head.querySelectorAll(MANAGED)];
  const range = document.createRange();
  range.selectNodeContents(document.head);
  const next = range.createContextualFragment(tags);
  if (serialize(current) === serialize([...next.children])) return;
  const [first] = current;
  if (first === undefined) document.head.append(next);
  else first.before(next);
  for (const element of current) element.remove();
}

export function PageHead({ route }: { route: PageRef }) {
  const { pathname, search } = useLocation();
  const params = useParams();
  const store = useAppStore();
  const radio = useRadioSettings();
  const pages = usePages();
  // undefined while the module loads; null when it has no definition or could not load.
  const [definition, setDefinition] = useState<PageDefinition | null | undefined>(undefined);
  const paramsKey = JSON.stringify(params);

  useEffect(() => {
    let live = true;
    load({ remote: route.remote, module: route.module }).then(
      (module) => {
        if (live) setDefinition(module.page ?? null);
      },
      () => {
        if (live) setDefinition(null);
      },
    );
    return () => {
      live = false;
    };
  }, [route.remote, route.module]);

  useEffect(() => {
    if (definition === undefined) return undefined;
    const context = {
      params: JSON.parse(paramsKey) as Record<string, string>,
      origin: siteOrigin(),
      query: new URLSearchParams(search),
      radio,
      href: hrefOf(pages),
    };
    const apply = () => {
      let parts: PageHeadParts = {};
      try {
        parts = definition?.head?.({ ...context, state: store.getState() }) ?? {};
      } catch (error) {
        console.error(`En-tête de « ${route.path || '/'} »`, error);
      }
      applyHead(headTags(fullHead(route, pathname, context.origin, parts), siteConfig.name));
    };
    apply();
    let answers = store.getState().api;
    return store.subscribe(() => {
      const next = store.getState().api;
      if (next === answers) return;
      answers = next;
      apply();
    });
  }, [definition, pathname, search, paramsKey, store, route, radio, pages]);

  return null;
}
