// What the site's server and the parts' server bundles agree on (docs/rendering.md). Never imported
// by browser code: the router's static rendering stays out of the visitor's download.
import type { ReactElement } from 'react';
import type { PageHead } from '../seo/head';
import type { ServerModules } from '../ssr';
import type { AppDispatch, AppStore, RootState } from '../store/store';

export { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';

/** What a page's server code is told about the request. */
export interface ServerPageContext {
  /** The route's parameters, decoded. */
  params: Readonly<Record<string, string>>;
  /** The site's public origin, e.g. `https://radio.example.org`, for absolute URLs. */
  origin: string;
  /** The request's query string, read (`?q=jungle&page=2`). */
  query: URLSearchParams;
}

/** A page's head as its part computes it; the server fills in what is missing from the page table. */
export type ServerHead = Partial<Omit<PageHead, 'canonical'>> & {
  /** 404 for a page whose subject does not exist (an unknown residence). */
  status?: number;
  /** The canonical address's path and query when it is not the request's path (`/emissions?page=2`). */
  canonicalPath?: string;
};

/** The server side of one page of a part: the data it needs and its head. */
export interface ServerPage {
  /** The queries to run before rendering (RTK Query `initiate` thunks, dispatched by the part). */
  load?: (context: ServerPageContext & { dispatch: AppDispatch }) => readonly PromiseLike<unknown>[];
  /** Title, description, image, JSON-LD and status, from the data loaded. */
  head?: (context: ServerPageContext & { state: RootState }) => ServerHead;
}

/** A remote's server bundle (`dist/server/ssr.js`): its modules, and its pages' server code by module name. */
export interface RemoteServerBundle {
  modules: ServerModules;
  pages?: Readonly<Record<string, ServerPage>>;
}

/** What the shell's server bundle gives the site's server: the whole page as a React element. */
export interface ShellServerBundle {
  createServerApp: (options: {
    /** The full request URL (origin + path + query). */
    url: string;
    store: AppStore;
    /** Every module the page renders, keyed `remote/Module`; a missing one renders in the browser. */
    modules: ReadonlyMap<string, ServerModules[string]>;
  }) => Promise<ReactElement>;
}
