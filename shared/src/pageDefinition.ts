import { siteConfig } from './config';
import type { RadioSettings } from './config/radio';
import type { HrefOf } from './addresses/paths';
import { DEFAULT_DESCRIPTION, type PageRef } from './pages';
import type { PageHead } from './seo/head';
import type { AppDispatch, RootState } from './store/store';

/**
 * What a page is besides its view (docs/head.md, « One head »): the data it needs for its route,
 * and its head from that data. Each exposed page module exports its definition as `page`, beside
 * its component; the server reads it from the part's server container before rendering, the browser
 * from the module the shell loaded, after hydration and after every navigation. One function, so
 * the head the browser keeps is the one the server wrote.
 */

/** What a page is told about the request or the current address. */
export interface PageContext {
  /** The route's parameters, decoded. */
  params: Readonly<Record<string, string>>;
  /** The site's public origin, e.g. `https://radio.example.org`, for absolute URLs. */
  origin: string;
  /** The query string, read (`?q=jungle&page=2`). */
  query: URLSearchParams;
  /** The radio's settings the page is rendered with (the rendering app's on the server). */
  radio: RadioSettings;
  /** The address of a page of the site, from the table the remotes declare (docs/parts.md, « Addresses »). */
  href: HrefOf;
}

/** A page's head as its part computes it; what is missing comes from the page table. */
export type PageHeadParts = Partial<Omit<PageHead, 'canonical'>> & {
  /** 404 for a page whose subject does not exist (an unknown residence). */
  status?: number;
  /** The canonical address's path and query when it is not the request's path (`/emissions?page=2`). */
  canonicalPath?: string;
};

/**
 * An image the page shows first and large (its largest paint), announced in the HTML's head with
 * the same attributes as the <img> the page renders, so the browser fetches it before any script.
 * A path of the site (`/assets/…`); anything else is refused by the server.
 */
export interface PagePreload {
  href: string;
  imagesrcset?: string;
  imagesizes?: string;
  fetchpriority?: 'high';
}

export interface PageDefinition {
  /** The queries to run before rendering on the server (RTK Query `initiate` thunks). */
  load?: (context: PageContext & { dispatch: AppDispatch }) => readonly PromiseLike<unknown>[];
  /** Title, description, image, JSON-LD and status, from the data loaded. */
  head?: (context: PageContext & { state: RootState }) => PageHeadParts;
  /** The images its first screen needs, from the same context as its head (an unknown subject: none). */
  preloads?: (context: PageContext & { state: RootState }) => readonly PagePreload[];
  /**
   * The queries (their endpoints' names) whose answers the page reads back from its own HTML when it
   * hydrates (docs/rendering.md, « The store's state in the page »): the server leaves them out of
   * the page's state, so that their texts come once. Every field of such an answer must be in the
   * HTML the page renders from it.
   */
  fromHtml?: readonly string[];
}

/** The whole head of a page: its part's, completed from the page table and the site's defaults. */
export function fullHead(
  page: Pick<PageRef, 'title' | 'description' | 'noindex'>,
  pathname: string,
  origin: string,
  head: PageHeadParts,
): PageHead {
  const { status: _status, canonicalPath, ...rest } = head;
  return {
    ...rest,
    title: head.title ?? page.title,
    // The page's declared description is its team's own words; the computed one fills in where
    // none is declared (a residence's first sentence).
    description: page.description ?? head.description ?? DEFAULT_DESCRIPTION,
    canonical: new URL(canonicalPath ?? pathname, origin).href,
    ...(page.noindex === true || head.noindex === true ? { noindex: true } : {}),
    image: head.image ?? { url: new URL('/assets/images/logo.svg', origin).href, alt: siteConfig.name },
  };
}
