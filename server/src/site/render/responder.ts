import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { aliasTarget, findAlias, findPage, type PageMatch, type PageRef, type PartName } from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import { remotesForServer, type SiteServerConfig } from '../../settings/config';
import { trialTask, tryVersion, type TrialOutcome, type TrialTask } from '../../deploy/trial';
import type { SitePages } from './site-pages';
import {
  createPageCache,
  isPrivatePage,
  isProposalForm,
  PAGE_CACHE_BYTES,
  PAGE_CACHE_CONTROL,
  PAGE_CACHE_ENTRIES,
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
import { SERVER_CONTAINER, type ServerContainers } from './containers';
import type { HintsFor } from './hints';
import { createPageWriter, type PageWriter } from './page-writer';
import { createPartFiles } from './part-files';
import { readinessOf } from './readiness';
import { createRenderPool, type RenderPool } from './render-pool';
import { visitorApi } from './renderer-requests';
import type { ShellAssets } from './shell-assets';
import { createVersionsInUse, partsOfPage, type VersionsInUse } from './versions-in-use';

/**
 * A page request's way on the server's side (docs/rendering.md, « A page's way, file by file »): the
 * route hands the address to `respond`, which reads the table of pages, answers a moved page, a file
 * or an unbuilt site, then takes the page from the cache or has the renderers render it. Each step's
 * rules are in the module named by its job: versions-in-use.ts (the trials a new version
 * waits for), answer.ts (what a kept page was made from, its ETag; the headers, the brotli),
 * page-writer.ts (the document and its policy), readiness.ts (`/readyz`).
 */

// What other modules have always imported from here (the app, the route, the tests).
export {
  acceptsBrotli,
  brotliPage,
  createPageCache,
  PAGE_BROTLI_QUALITY,
  PAGE_CACHE_CONTROL,
  RESPONSE_ENCODINGS,
  type CachedPage,
  type PageCacheOptions,
} from './answer';
export type { Readiness } from './readiness';
export { visitorApi } from './renderer-requests';

/** Past this, a page renders with the data that has arrived (docs/rendering.md, « Deadlines »). */
export const DATA_DEADLINE_MS = 1000;
/** Past this, what React has not rendered is left to the browser. */
export const RENDER_DEADLINE_MS = 2000;
/** A renderer's render is abandoned, and the renderer replaced, this long after both deadlines. */
const POOL_MARGIN_MS = 500;

/** An address that names a file (its last segment has an extension), not a page. */
const FILE_NAME = /\.[a-z0-9]+$/i;

export interface ResponderOptions {
  app: FastifyInstance;
  config: SiteServerConfig;
  /** The radio's run-time settings as they are now (read at each page: page-writer.ts, PageWriterOptions). */
  radio: () => RadioSettings;
  /** The shell's list of its entry's scripts, styles, fonts and loader (render/shell-assets.ts). */
  assetsPath: string;
  /** What a page announces, and its areas' sheets (hints.ts, `createHints`). */
  hints: HintsFor;
  dataDeadlineMs?: number;
}

/** What a request crosses, made once per server by `createPageResponder`. */
interface Responder {
  app: FastifyInstance;
  ssr: boolean;
  /** What every render and trial is given besides its page, now: the site's settings and the deadlines. */
  site: () => Omit<TrialTask, 'trial' | 'pages'>;
  pool: Pick<RenderPool, 'render'>;
  containers: Pick<ServerContainers, 'get' | 'versions'>;
  versions: Pick<VersionsInUse, 'trusted' | 'allUsable'>;
  cache: PageCache;
  writer: PageWriter;
  browserRenders: BrowserRenders;
}

/**
 * Answers every page of the site (docs/rendering.md): rendered on the server from the parts' server
 * containers, or, when the shell's cannot render, the shell's page as before, rendered by the browser.
 * Also what `/readyz` says, and the trial of a part's new version before a deploy makes it live.
 */
export function createPageResponder({
  app,
  config,
  radio,
  assetsPath,
  hints,
  dataDeadlineMs = DATA_DEADLINE_MS,
}: ResponderOptions) {
  // Where the server itself reads the parts' files: a remote in development from its dev server.
  const remotes = remotesForServer(config);
  const site: Responder['site'] = () => ({
    origin: config.siteOrigin,
    radio: radio(),
    remotes,
    distDirs: config.distDirs,
    dataDeadlineMs,
    renderDeadlineMs: RENDER_DEADLINE_MS,
  });
  const pool = startRenderPool(app, config, dataDeadlineMs);
  const containers = createPartFiles<Record<string, unknown>>({
    remotes,
    distDirs: config.distDirs,
    path: SERVER_CONTAINER,
    what: 'Conteneur serveur',
    // Its version only: its code runs in the renderers.
    read: () => ({}),
  });
  /** What a trial of a part's container on this server needs besides the part (its folder, the table). */
  const trialTaskOf = (part: PartName, dir: string, pages: readonly PageRef[]): TrialTask =>
    trialTask(site(), part, dir, pages);
  const versions = createVersionsInUse({
    containers,
    pool,
    remotes,
    distDirs: config.distDirs,
    trialTask: trialTaskOf,
  });
  const cache = createPageCache({
    ttlMs: config.pageCacheTtlMs,
    maxEntries: PAGE_CACHE_ENTRIES,
    maxBytes: PAGE_CACHE_BYTES,
  });
  const writer = createPageWriter({
    shellDir: config.distDirs.shell,
    remotes: config.remotes,
    radio,
    assetsPath,
    hints,
    editorOrigin: config.editorOrigin,
    assetsDir: config.assetsDir,
    warn: (message) => {
      app.log.warn(message);
    },
  });
  const responder: Responder = {
    app,
    ssr: config.ssr,
    site,
    pool,
    containers,
    versions,
    cache,
    writer,
    browserRenders: browserRenderLog(app.log),
  };

  return {
    respond: (
      request: FastifyRequest,
      reply: FastifyReply,
      pathname: string,
      route: { file?: () => FastifyReply } = {},
    ) => respond(responder, request, reply, pathname, route),
    readiness: () =>
      readinessOf({
        built: writer.shellAssets() !== null,
        serverRendering: config.ssr,
        containers,
        pool,
        trials: versions.trials,
        sitePages: () => app.sitePages(),
      }),
    /**
     * Tries a part's new version in `dir` before it goes live (a deploy): its server container evaluated
     * and its pages rendered once, in the trial's renderer, with the page table it would make.
     */
    trial: async (part: PartName, dir: string, pages: readonly PageRef[]): Promise<TrialOutcome> => {
      await versions.trusted;
      return tryVersion(pool, site(), part, dir, pages);
    },
  };
}

/**
 * The renderers of this server (docs/rendering.md, « Renderers »). The parts' server code runs in
 * renderer processes (RENDERERS), never in this one, which reads the containers' files for their
 * versions (the cache's key) only. A render is abandoned past both deadlines and a margin; a renderer
 * reads nothing beyond its code but the parts' folders and the deployed versions, and asks /api as a
 * visitor. The pool closes with the server.
 */
function startRenderPool(app: FastifyInstance, config: SiteServerConfig, dataDeadlineMs: number): RenderPool {
  const pool = createRenderPool({
    renderers: config.renderers,
    metrics: app.metrics.site,
    deadlineMs: dataDeadlineMs + RENDER_DEADLINE_MS + POOL_MARGIN_MS,
    recycleAfter: config.renderRecycleAfter,
    trialDeadlineMs: config.renderTrialMs,
    idleMs: config.renderIdleMs,
    keepOne: config.renderKeepOne,
    // Teams deploy: their code runs behind the operating system's walls, or the server does not start.
    requireWalls: config.deploy !== null,
    answerApi: visitorApi(app),
    distDirs: config.distDirs,
    env: config.rendererEnv,
    log: {
      warn: (message: string) => {
        app.log.warn(message);
      },
      debug: (message: string) => {
        app.log.debug(message);
      },
    },
  });
  app.addHook('onClose', async () => {
    await pool.close();
  });
  return pool;
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
  { app, site, pool, containers, versions, cache, writer, browserRenders }: Responder,
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

  const outcome = await pool.render({ pathname, match, search, pages, ...site() });
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

type BrowserRenders = ReturnType<typeof browserRenderLog>;

/**
 * Why pages render in the browser, said once per reason, then at debug for each page: a missing shell
 * server container would otherwise fill the log. A page rendered on the server again ends the reason: a later
 * failure is said again.
 */
function browserRenderLog(log: FastifyBaseLogger) {
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
