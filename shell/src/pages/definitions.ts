import { createContext, use, useContext } from 'react';
import type { PageDefinition, PageRef } from '@collectif/shared';
import { load } from '../federation/RemoteArea';
import type { LoadedModule } from '../federation/remotes';

/**
 * Where a page's definition comes from (its module's `page`: data, head, first images): on the
 * server, from the part's server container, given with the request's origin; in the browser, from the
 * module federation loads, once per attempt (federation/RemoteArea.tsx).
 */

export interface ServerPages {
  /** The definitions of the page being rendered, keyed `remote/Module`. */
  definitions: ReadonlyMap<string, PageDefinition>;
  /** The site's public origin (SITE_ORIGIN). */
  origin: string;
}

/** Given on the server only; null in the browser. */
export const ServerPagesContext = createContext<ServerPages | null>(null);

const keyOf = (page: Pick<PageRef, 'remote' | 'module'>) => `${page.remote}/${page.module}`;

/**
 * A promise of each load's definition that never rejects, for `use`: once settled it says so as
 * React reads it (`status`, `value`), so that a page whose module has arrived renders at once.
 */
type Settled = Promise<PageDefinition | undefined> &
  ({ status?: undefined } | { status: 'fulfilled'; value: PageDefinition | undefined });
const settling = new WeakMap<Promise<LoadedModule>, Settled>();

function settled(loading: Promise<LoadedModule>): Settled {
  let promise = settling.get(loading);
  if (promise === undefined) {
    const made: Settled = loading.then(
      (module) => module.page,
      () => undefined,
    );
    void made.then((page) => Object.assign(made, { status: 'fulfilled', value: page }));
    promise = made;
    settling.set(loading, promise);
  }
  return promise;
}

/** The page's definition in the browser; rejects when its module cannot be loaded. */
export function pageDefinition(page: PageRef): Promise<PageDefinition | undefined> {
  const loading = load(page);
  void settled(loading);
  return loading.then((module) => module.page);
}

/**
 * The page's definition for a component: at once on the server and, in the browser, once its module
 * is loaded (a route's loader has loaded it before its page shows; during hydration the component
 * waits for it, its server HTML kept). Undefined when it has none or its module cannot be loaded.
 */
export function usePageDefinition(page: PageRef): PageDefinition | undefined {
  const server = useContext(ServerPagesContext);
  if (server !== null) return server.definitions.get(keyOf(page));
  return use(settled(load(page)));
}
