import {
  data,
  type AppStore,
  type LoaderFunctionArgs,
  type PageDefinition,
  type PageHeadParts,
  type PagePreload,
  type PageRef,
} from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import { hrefOf } from '@collectif/shared/addresses';

/**
 * A page's lifecycle, run by the router (docs/rendering.md, « The router runs the page »): its
 * route's loader finds the page's definition (from the part's server container on the server, through
 * federation in the browser), dispatches the page's queries into the request's store, waits for them
 * (`dataDeadlineMs` at most), and answers the page's status (404 for an unknown residence) with its
 * head and first images computed from the data. The server renders with that status and head; in the
 * browser a navigation runs the next page's loader before it shows, and hydration reuses what the
 * server loaded (the router's hydration data), loading nothing again.
 */

/**
 * How long a navigation waits for the next page's data before it shows the page (the server's own
 * deadline): past it, the page shows with its loading states (docs/rendering.md).
 */
export const NAVIGATION_DATA_DEADLINE_MS = 1000;

/** What the shell's routes are given to run pages, on either side. */
export interface PageLifecycle {
  /** The request's store (the server's per request; the page's in the browser). */
  store: AppStore;
  /** The page module's definition; undefined when it has none, or its part cannot be loaded. */
  definitionOf: (page: PageRef) => Promise<PageDefinition | undefined>;
  /** The site's public origin, for the head's absolute addresses. */
  origin: () => string;
  radio: RadioSettings;
  pages: readonly PageRef[];
  /** How long a page's data may take; past it, the page shows with what has arrived. */
  dataDeadlineMs: number;
  log?: (message: string, error: unknown) => void;
}

/** What a page's loader answers, and the server reads from the router's data. */
export interface PageLoaderData {
  head: PageHeadParts;
  preloads: readonly PagePreload[];
}

const wait = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    (timer as { unref?: () => void }).unref?.();
  });

/** The route loader of one page of the table. */
export function pageLoader(page: PageRef, lifecycle: PageLifecycle) {
  return async ({ params, request }: LoaderFunctionArgs) => {
    const { store, radio, pages, dataDeadlineMs } = lifecycle;
    const log = lifecycle.log ?? (() => undefined);
    const where = page.path === '' ? '/' : page.path;
    let definition: PageDefinition | undefined;
    try {
      definition = await lifecycle.definitionOf(page);
    } catch (error) {
      // Its area says so in French (RemoteArea); the page is still answered.
      log(`Page ${where} : module indisponible`, error);
    }
    const context = {
      params: Object.fromEntries(
        Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
      ),
      origin: lifecycle.origin(),
      query: new URL(request.url).searchParams,
      radio,
      href: hrefOf(pages),
    };
    const queries: PromiseLike<unknown>[] = [];
    try {
      queries.push(...(definition?.load?.({ ...context, dispatch: store.dispatch }) ?? []));
      await Promise.race([Promise.allSettled(queries), wait(dataDeadlineMs)]);
    } catch (error) {
      log(`Données de ${where} indisponibles`, error);
    }
    let head: PageHeadParts = {};
    let preloads: readonly PagePreload[] = [];
    try {
      head = definition?.head?.({ ...context, state: store.getState() }) ?? {};
      preloads = definition?.preloads?.({ ...context, state: store.getState() }) ?? [];
    } catch (error) {
      log(`En-tête de ${where}`, error);
    }
    // The queries' subscriptions end here: the page's own components hold theirs.
    for (const query of queries) (query as { unsubscribe?: () => void }).unsubscribe?.();
    return data<PageLoaderData>({ head, preloads }, { status: head.status ?? 200 });
  };
}
