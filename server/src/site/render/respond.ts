import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { aliasTarget, findAlias, findPage, type PageMatch } from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import type { TrialTask } from '../../deploy/trial';
import {
  isPrivatePage,
  isProposalForm,
  PAGE_CACHE_CONTROL,
  pageToKeep,
  pageVersion,
  PRIVATE_PAGE_CACHE_CONTROL,
  sendBrowserPage,
  sendInvalidAddress,
  sendNotBuilt,
  sendPage,
  sendRedirect,
  type PageCache,
} from './answer';
import type { ServerContainers } from './containers';
import type { PageWriter } from './page-writer';
import type { RenderPool } from './render-pool';
import type { ShellAssets } from './shell-assets';
import type { SitePages } from './site-pages';
import { partsOfPage, type VersionsInUse } from './versions-in-use';

/**
 * A page request's way on the server's side (docs/rendering.md, « A page's way, file by file »): the
 * route hands the address to `respond`, which reads the table of pages, answers a moved page, a file
 * or an unbuilt site, then takes the page from the cache or has the renderers render it. What it
 * crosses is made once, at start, by responder.ts; each step's rules are in the module named by its
 * job: versions-in-use.ts (the trials a new version waits for), answer.ts (what a kept page was made
 * from, its ETag; the headers, the brotli), page-writer.ts (the document and its policy).
 */

/** An address that names a file (its last segment has an extension), not a page. */
const FILE_NAME = /\.[a-z0-9]+$/i;

/** What a request crosses, made once per server by `createPageResponder` (responder.ts). */
export interface Responder {
  app: FastifyInstance;
  ssr: boolean;
  /** What every render is given besides its page and the radio's settings: the site's and the deadlines. */
  settings: Omit<TrialTask, 'trial' | 'pages' | 'radio'>;
  /** The radio's settings as they are now (where « Nous soutenir » leads may change). */
  radio: () => RadioSettings;
  pool: Pick<RenderPool, 'render'>;
  containers: Pick<ServerContainers, 'get' | 'versions'>;
  versions: Pick<VersionsInUse, 'trusted' | 'allUsable'>;
  cache: PageCache;
  writer: PageWriter;
  browserRenders: BrowserRenders;
}

/** The page route's answer (site/page-routes.ts), over what `createPageResponder` made at start. */
export function responderOf(responder: Responder) {
  return (request: FastifyRequest, reply: FastifyReply, pathname: string, route: { file?: () => FastifyReply } = {}) =>
    respond(responder, request, reply, pathname, route);
}

/**
 * Answers an address no other route takes (docs/rendering.md, « How a page is rendered »): the page of
 * the table it names, matched once; a page's former path, moved for good (301); else the shell's file
 * it names (`file`, when the address has an extension); else what an unknown page gets (home, or
 * « Adresse invalide »). No page without the shell's build (503); under SSR=off, every page is the
 * shell's, for the browser to render. Whatever a private address is answered, nobody keeps it
 * (answer.ts, `isPrivatePage`).
 */
async function respond(
  responder: Responder,
  request: FastifyRequest,
  reply: FastifyReply,
  pathname: string,
  { file }: { file?: () => FastifyReply },
) {
  // The pages as the remotes declare them now: the shell's routes, the server's and the hints'.
  const table = await responder.app.sitePages();
  const match = findPage(pathname, table.pages);
  const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  const secret = isPrivatePage(match, search, table.pages);
  // A proposal's form: the visitor's own token with it, so the answer is theirs (the page is everyone's).
  const own = secret || isProposalForm(match, table.pages);
  if (own && !secret && request.method === 'GET') {
    void reply.header('Set-Cookie', responder.app.proposals.formCookie(request.protocol === 'https'));
  }
  const revalidated = own ? PRIVATE_PAGE_CACHE_CONTROL : 'no-cache';
  // Its address holds a secret: a Referer of its origin alone, even to the site itself (nginx's log).
  // Not `no-referrer`, under which a form posted from the page says `Origin: null`, which the
  // proposals' routes refuse as another site's (docs/api.md, « Forms only from the site »).
  if (secret) void reply.header('Referrer-Policy', 'strict-origin');
  // A page's former path: where it is now, for good (docs/parts.md, « Addresses »).
  const moved = match === null ? findAlias(pathname, table.pages) : null;
  if (moved !== null) return sendRedirect(reply, `${aliasTarget(moved)}${search}`, 301, revalidated);
  if (match === null && file !== undefined && FILE_NAME.test(pathname)) return file();
  const assets = responder.writer.shellAssets();
  if (assets === null) return sendNotBuilt(reply);
  if (!responder.ssr) {
    return sendBrowserPage(reply, responder.writer.browserPage(pathname, assets, table.pages), revalidated);
  }
  return serverPage(responder, request, reply, { pathname, search, match, assets, table, secret, own });
}

/**
 * A page rendered on the server (docs/rendering.md, « Cache »): the one kept for its URL while what it
 * was made from is current, else rendered now and kept. Shared caches may keep it briefly; browsers
 * revalidate it every time (ETag). A page made while a remote's pages could not be read lacks that
 * remote's routes and menu links, and one made while a part waited for its trial lacks that part's
 * area: nobody keeps either, this server nor a browser (which would show it once more, « stale while
 * revalidate »), so the next request gets the whole site. Nor a private page (`secret`), rendered for
 * each request and kept by no cache (docs/proposals.md, « Private pages »).
 */
async function serverPage(
  { app, settings, radio, pool, containers, versions, cache, writer, browserRenders }: Responder,
  request: FastifyRequest,
  reply: FastifyReply,
  {
    pathname,
    search,
    match,
    assets,
    table,
    secret,
    own,
  }: {
    pathname: string;
    search: string;
    match: PageMatch | null;
    assets: ShellAssets;
    table: SitePages;
    /** One visitor's page: rendered for them alone. */
    secret: boolean;
    /** One visitor's answer: kept by no cache but this server's (`secret`, or a form with its token). */
    own: boolean;
  },
) {
  const { pages, complete } = table;
  const key = `${pathname}${search}`;
  const revalidated = own ? PRIVATE_PAGE_CACHE_CONTROL : 'no-cache';
  await versions.trusted;
  const parts = partsOfPage(match);
  const version = await pageVersion({ containers, parts, pagesVersion: table.version, content: app.content });
  const whole = (await versions.allUsable(parts, pages)) && complete;
  reply.header('Cache-Control', own ? PRIVATE_PAGE_CACHE_CONTROL : whole ? PAGE_CACHE_CONTROL : 'no-store');
  const cached = secret ? null : cache.get(key, version);
  if (cached !== null) return sendPage(request, reply, cached);

  const outcome = await pool.render({ pathname, match, search, pages, ...settings, radio: radio() });
  switch (outcome.kind) {
    case 'redirect':
      return sendRedirect(reply, outcome.location, 302, revalidated);
    case 'invalid':
      return sendInvalidAddress(reply, revalidated);
    case 'browser':
      browserRenders.browser(pathname, outcome.reason);
      return sendBrowserPage(reply, writer.browserPage(pathname, assets, pages), revalidated);
    case 'page': {
      browserRenders.server();
      const kept = await pageToKeep(outcome.status, writer.renderedPage(pathname, assets, pages, outcome), version);
      if (whole && !secret) cache.set(key, kept);
      return sendPage(request, reply, kept);
    }
  }
}

export type BrowserRenders = ReturnType<typeof browserRenderLog>;

/**
 * Why pages render in the browser, said once per reason, then at debug for each page: a missing shell
 * server container would otherwise fill the log. A page rendered on the server again ends the reason: a later
 * failure is said again.
 */
export function browserRenderLog(log: FastifyBaseLogger) {
  let lastReason: string | null = null;
  return {
    browser(pathname: string, reason: string): void {
      if (reason === lastReason) log.debug(`Page ${pathname} rendue dans le navigateur`);
      else log.warn(`Pages rendues dans le navigateur (${pathname} d'abord) : ${reason}`);
      lastReason = reason;
    },
    server(): void {
      lastReason = null;
    },
  };
}
