// What the site's server and the parts' server containers agree on (docs/rendering.md). Never imported
// by browser code: the router's static rendering stays out of the visitor's download.
import type { ReactElement } from 'react';
import type { PageContext, PageDefinition, PageHeadParts, PagePreload } from '../pageDefinition';
import { QueryStatus } from '@reduxjs/toolkit/query';
import type { ServerModules, SsrState } from '../ssr';
import type { AppStore } from '../store/store';
import type { SiteEnvironment } from '../environment';

export { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';

/** A page's definition as the server reads it from a part's server container (../pageDefinition.ts). */
export type ServerPage = PageDefinition;
export type ServerHead = PageHeadParts;
export type ServerPageContext = PageContext;

/**
 * What a renderer reads of a remote's server container (`dist/server/remoteEntry.js`): its exposed
 * modules' components, and their page definitions, by module name.
 */
export interface RemoteServerContainer {
  modules: ServerModules;
  /** The page definitions its modules export as `page` (« pages » names the site's table of pages only). */
  definitions?: Readonly<Record<string, ServerPage>>;
}

/** What the shell's `renderApp` answers: the page as React renders it, and what its router decided. */
export interface ServerApp {
  element: ReactElement;
  /** The page's status, from its route's loader (404 for an unknown residence). */
  status: number;
  /** The page's head and first images, as its loader computed them from its data. */
  head: PageHeadParts;
  preloads: readonly PagePreload[];
  /** The router's hydration data (loader data by route id), for the browser's router. */
  hydration: unknown;
}

/**
 * What the shell's server container gives the site's server (docs/rendering.md, « The router runs the
 * page »): the page run by its router (each page's loader loads its data into the request's store
 * and says its status and head), and the whole page as a React element. A shell whose `renderApp`
 * answers an element alone (before « Each page lives once ») is rendered in the browser.
 */
export interface ShellServerContainer {
  renderApp: (options: {
    /** The full request URL (origin + path + query). */
    url: string;
    /** The request's store, which reaches /api its own way (`makeStore`'s `api`). */
    store: AppStore;
    /** Every module the page renders, keyed `remote/Module`; a missing one renders in the browser. */
    modules: ReadonlyMap<string, ServerModules[string]>;
    /** The pages' definitions from the parts' server containers, keyed `remote/Module`. */
    definitions: ReadonlyMap<string, PageDefinition>;
    /** The rendering app's radio settings, page table and window. */
    environment: SiteEnvironment;
    /** The site's public origin (SITE_ORIGIN). */
    origin: string;
    /** How long the page's data may take; past it, the page renders with what has arrived. */
    dataDeadlineMs: number;
  }) => Promise<ServerApp>;
}

/** An answer « not found » (404): the page said so, and the browser must show the same. */
const notFound = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'status' in error && error.status === 404;

/**
 * The state the browser starts from: answers that arrived (a « not found » too), never a request
 * still on its way nor a failure (the browser asks again). Each answer without the request's id and
 * start, which the browser never reads of an answer already there: random and unique, they are the
 * bytes of a page's state that compress worst (docs/first-screen.md, « The first screen's budget »). What
 * RTK Query takes from a hand-over is its answers (`queries`, `mutations`) and which tags they carry
 * (`provided`, so that a save still asks again for what it changed).
 */
export function handOver(store: AppStore, { fromHtml = [] }: { fromHtml?: readonly string[] } = {}): SsrState {
  const { api, feed } = store.getState();
  const left = new Set<string>();
  const queries = Object.fromEntries(
    Object.entries(api.queries).flatMap(([key, query]) => {
      // Read back from the page's HTML by the page itself (its definition's `fromHtml`).
      if (query?.endpointName !== undefined && fromHtml.includes(query.endpointName)) {
        left.add(key);
        return [];
      }
      if (
        query?.status !== QueryStatus.fulfilled &&
        !(query?.status === QueryStatus.rejected && notFound(query.error))
      ) {
        return [];
      }
      const { requestId: _request, startedTimeStamp: _started, ...answer } = query;
      return [[key, answer]];
    }),
  );
  // Not RTK Query's own settings and subscriptions (`config`, `subscriptions`): the browser's store
  // has its own, and nothing reads them from a hand-over; they were 100 bytes of every page.
  return { api: { queries, mutations: {}, provided: withoutKeys(api.provided, left) }, feed };
}

type Provided = ReturnType<AppStore['getState']>['api']['provided'];

/** Which tags the answers carry, without those of the answers left out. */
function withoutKeys(provided: Provided, left: ReadonlySet<string>): Provided {
  if (left.size === 0) return provided;
  const kept = (keys: readonly string[] | undefined) => (keys ?? []).filter((key) => !left.has(key));
  const tags: Record<string, Record<string, string[]>> = {};
  const byType: Readonly<Record<string, Readonly<Record<string, readonly string[] | undefined>> | undefined>> =
    provided.tags;
  for (const [type, ids] of Object.entries(byType)) {
    tags[type] = Object.fromEntries(Object.entries(ids ?? {}).map(([id, keys]) => [id, kept(keys)]));
  }
  const keys = Object.fromEntries(Object.entries(provided.keys).filter(([key]) => !left.has(key)));
  return { tags, keys };
}
