import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  aliasTarget,
  findAlias,
  findPage,
  PARTS,
  type PageMatch,
  type PagePreload,
  type PageRef,
  type PartName,
} from '@collectif/shared';
import { siteConfig, type RadioSettings } from '@collectif/shared/config';
import { headElements, type HeadElement } from '@collectif/shared/seo';
import { remotesForServer, type SiteServerConfig } from '../../settings/config';
import { pageMeta, type HintsFor } from '../hints';
import { contentSecurityPolicy } from '../headers';
import { CONTENT_KIND_NAMES } from '../../content/kinds';
import { createPartFiles, partFileSource, SERVER_BUNDLE, type PartFileStatus } from './containers';
import { createRenderPool, type PoolStatus } from './render-pool';
import type { TrialOutcome, TrialTask } from '../../deploy/trial';
import type { ApiAnswer } from './renderer';
import { answeredNotModified, etagOf } from '../../http/conditional';
import {
  createStyleReader,
  documentPolicy,
  invalidAddressPage,
  pageModel,
  renderDocument,
  shellAssetsReader,
  shellSheetFile,
  type ShellAssets,
} from './document';
import { LRUCache } from 'lru-cache';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';

/** What `/readyz` answers. */
export interface Readiness {
  /** `not-built`: no usable shell build, so no page can be answered (503). */
  status: 'ready' | 'not-built';
  /** SSR=off renders every page in the browser. */
  serverRendering: boolean;
  /** Each part's server container: in use, missing, refused (with why) or unreachable, and since when. */
  parts: Record<string, PartFileStatus>;
  /** The renderer processes (RENDER_WORKERS; none when pages render in the server's process). */
  workers: PoolStatus;
}

/** What a rendered page may be kept for (docs/rendering.md, « Cache »; docs/deploy.md). */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=10, stale-while-revalidate=60';

/** An address that names a file (its last segment has an extension), not a page. */
const FILE_NAME = /\.[a-z0-9]+$/i;

/** Past this, a page renders with the data that has arrived (docs/rendering.md, « Deadlines »). */
export const DATA_DEADLINE_MS = 1000;
/** Past this, what React has not rendered is left to the browser. */
export const RENDER_DEADLINE_MS = 2000;
/** A worker's render is abandoned, and its thread replaced, this long after both deadlines. */
const POOL_MARGIN_MS = 500;
const CACHE_ENTRIES = 500;
/** How long a page waits for the trial of a part's new server container before leaving its area to the browser. */
const TRIAL_WAIT_MS = 1500;

const wait = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });
// A page is 24 to 47 KB of HTML (twice that as a string): 350 to 700 pages. A crawler walking every
// search fills this, not the memory (docs/rendering.md, « Cache »).
const CACHE_BYTES = 32 * 1024 * 1024;

export interface ResponderOptions {
  app: FastifyInstance;
  config: SiteServerConfig;
  radio: RadioSettings;
  /** The shell's list of its entry's scripts, styles, fonts and loader (render/document.ts). */
  assetsPath: string;
  /** What a page announces, and its areas' sheets (site/hints.ts). */
  hints: HintsFor;
  dataDeadlineMs?: number;
}

/**
 * A renderer's /api requests, answered in-process (app.inject) exactly as to an anonymous visitor:
 * a GET of the site's /api, no cookie, no credential, no header of the renderer's (its code is a
 * part's: docs/rendering.md, « Renderers »). Any other address is refused (403).
 */
export function visitorApi(app: FastifyInstance) {
  return async (href: string): Promise<ApiAnswer> => {
    const url = new URL(href);
    if (!url.pathname.startsWith('/api/')) {
      return { status: 403, headers: {}, body: new TextEncoder().encode('{"error":"api"}') };
    }
    const answer = await app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { accept: 'application/json' },
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (typeof value === 'string') headers[name] = value;
    }
    return { status: answer.statusCode, headers, body: new Uint8Array(answer.rawPayload) };
  };
}

/**
 * Answers every page of the site (docs/rendering.md): rendered on the server from the parts' server
 * bundles, or, when the shell's cannot render, the shell's page as before, rendered by the browser.
 */
export function createPageResponder({
  app,
  config,
  radio,
  assetsPath,
  hints,
  dataDeadlineMs = DATA_DEADLINE_MS,
}: ResponderOptions) {
  const answerApi = visitorApi(app);
  const log = {
    warn: (message: string) => {
      app.log.warn(message);
    },
    debug: (message: string) => {
      app.log.debug(message);
    },
  };

  // Where the server itself reads the parts' files: a remote in development from its dev server.
  const remotes = remotesForServer(config);
  // The parts' server code runs in the renderer processes (RENDER_WORKERS, docs/rendering.md
  // « Renderers »), never here: this process reads the bundles' files for their versions (the
  // cache's key) only.
  const pool = createRenderPool({
    workers: config.renderWorkers,
    deadlineMs: dataDeadlineMs + RENDER_DEADLINE_MS + POOL_MARGIN_MS,
    recycleAfter: config.renderRecycleAfter,
    trialDeadlineMs: config.renderTrialMs,
    answerApi,
    // What a renderer may read beyond its code: the parts' folders, and the deployed versions.
    readable: [...Object.values(config.distDirs), ...(config.deploy === null ? [] : [config.deploy.root])],
    env: config.rendererEnv,
    log,
  });
  app.addHook('onClose', async () => {
    await pool.close();
  });
  const bundles = createPartFiles<Record<string, unknown>>({
    remotes,
    distDirs: config.distDirs,
    path: SERVER_BUNDLE,
    what: 'Conteneur serveur',
    // Its version only: its code runs in the renderers.
    read: () => ({}),
  });
  /** A part's container read from this server's files (the ones tried before use; docs/deploy.md). */
  const local = (name: PartName) => partFileSource(name, SERVER_BUNDLE, remotes, config.distDirs)?.file !== undefined;
  // The bundles there at start are the admin's: used as they are (a bundle that never finishes
  // evaluating is still disabled at the deadline). Any later version is tried first.
  const trusted = Promise.all(
    PARTS.map(async ({ name }) => {
      await bundles.get(name);
      const version = bundles.versionOf(name);
      if (version !== undefined && local(name)) pool.trust(name, version);
    }),
  );
  /** What a trial of a part's container on this server needs besides the part (its folder, the table). */
  const trialTask = (part: PartName, dir: string, pages: readonly PageRef[]): TrialTask => ({
    trial: { part, dir },
    origin: config.siteOrigin,
    radio,
    pages,
    remotes,
    distDirs: config.distDirs,
    dataDeadlineMs,
    renderDeadlineMs: RENDER_DEADLINE_MS,
  });
  /**
   * The parts whose bundle on this server is in a version not tried yet: each tried once, in the
   * background; what each trial answers.
   */
  /** Whether the serving renderers may load a part's container: none here, another host's, or allowed (tried, or trusted). */
  const usable = (name: PartName): boolean => {
    const version = bundles.versionOf(name);
    return version === undefined || !local(name) || pool.allowed(name, version);
  };
  function trials(names: readonly PartName[], pages: readonly PageRef[]): Map<PartName, Promise<unknown>> {
    const pending = new Map<PartName, Promise<unknown>>();
    for (const name of names) {
      const version = bundles.versionOf(name);
      if (version === undefined || usable(name)) continue;
      pending.set(
        name,
        pool.tryOnce(name, version, () => trialTask(name, config.distDirs[name], pages)),
      );
    }
    return pending;
  }
  /**
   * Whether a page's parts may all be rendered by the serving renderers: a part in a new version waits
   * for its trial a little (a good bundle's takes about a second); past that, its area renders in
   * the browser, and nobody keeps the page.
   */
  async function allUsable(match: PageMatch | null, pages: readonly PageRef[]): Promise<boolean> {
    const names: PartName[] = ['shell', 'player', ...(match === null ? [] : [match.page.remote])];
    const pending = trials(names, pages);
    if (pending.size === 0) return true;
    await Promise.race([Promise.all(pending.values()), wait(TRIAL_WAIT_MS)]);
    return names.every(usable);
  }
  const cache = createPageCache({ ttlMs: config.pageCacheTtlMs, maxEntries: CACHE_ENTRIES, maxBytes: CACHE_BYTES });

  const shellAssets = shellAssetsReader(assetsPath, log.warn);
  const readStyle = createStyleReader();
  const policy = contentSecurityPolicy(config.remotes, radio);

  /** The shell's sheets that can be written into the page, by address. */
  function shellStyles(assets: ShellAssets): Map<string, string> {
    const styles = new Map<string, string>();
    for (const href of assets.styles) {
      const css = readStyle(shellSheetFile(config.distDirs.shell, href));
      if (css !== null) styles.set(href, css);
    }
    return styles;
  }

  /**
   * The whole page and its policy, from its one model (render/model.ts): the site's policy with the
   * hash of each sheet written into it and of the loader. Both are made once per render and kept
   * together in the cache.
   */
  function writePage(
    pathname: string,
    {
      assets,
      head,
      pages,
      images = [],
      rendered,
    }: {
      assets: ShellAssets;
      head: readonly HeadElement[];
      pages: readonly PageRef[];
      images?: readonly PagePreload[];
      rendered?: { body: string; state: string; router: string };
    },
  ) {
    const model = pageModel({
      assets,
      shellStyles: shellStyles(assets),
      head,
      pages,
      radio,
      remotes: config.remotes,
      hints: hints(pathname, { rendered: rendered !== undefined, pages, images }),
      ...(rendered === undefined ? {} : { rendered }),
    });
    return { html: renderDocument(model), csp: documentPolicy(model, policy) };
  }

  function sendHtml(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    { html, csp, brotli }: { html: string; csp: string; brotli?: Buffer },
    etag?: string,
  ) {
    reply.header('content-security-policy', csp);
    // The same validators and comparison as /api and the feeds (one conditional GET: http/conditional.ts).
    if (etag !== undefined && answeredNotModified(request, reply, { etag })) return reply;
    reply.code(status).type('text/html; charset=utf-8');
    // A rendered page's own brotli (render/encoded.ts); gzip and the page as is, by the compression
    // plugin, which leaves an answer that already names its encoding alone.
    if (brotli !== undefined && acceptsBrotli(request)) {
      return reply.header('Content-Encoding', 'br').header('Vary', 'accept-encoding').send(brotli);
    }
    return reply.send(html);
  }

  /** The shell alone, rendered by the browser, with the route's title and description. */
  function browserPage(reply: FastifyReply, assets: ShellAssets, pathname: string, pages: readonly PageRef[]) {
    const { html, csp } = writePage(pathname, { assets, head: pageMeta(pathname, pages), pages });
    return reply
      .header('Cache-Control', 'no-cache')
      .header('content-security-policy', csp)
      .type('text/html; charset=utf-8')
      .send(html);
  }

  /** The parts a page's HTML depends on: their bundles' versions are the cache's key. */
  async function partsVersion(match: PageMatch | null): Promise<string> {
    const names: PartName[] = ['shell', 'player', ...(match === null ? [] : [match.page.remote])];
    await Promise.all(names.map((name) => bundles.get(name)));
    return bundles.versions();
  }

  /**
   * The content volunteers edit, by version (docs/content.md): a saved change is in the next page,
   * not one the cache kept from before it.
   */
  function contentVersion(): string {
    return CONTENT_KIND_NAMES.map((kind) => app.content.current(kind).id).join(',');
  }

  let lastBrowserReason: string | null = null;

  /**
   * Answers an address no other route takes (docs/rendering.md, « How a page is rendered »): the
   * page of the table it names, matched once; else the shell's file it names (`file`, when the
   * address has an extension); else what an unknown page gets (home, or « Adresse invalide »).
   */
  async function respond(
    request: FastifyRequest,
    reply: FastifyReply,
    pathname: string,
    { file }: { file?: () => FastifyReply } = {},
  ) {
    // The pages as the remotes declare them now: the shell's routes, the server's and the hints'.
    const { pages, version: pagesVersion, complete } = await app.sitePages();
    const match = findPage(pathname, pages);
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    // A page's former path: where it is now, for good (docs/parts.md, « Addresses »).
    const moved = match === null ? findAlias(pathname, pages) : null;
    if (moved !== null) {
      return reply.header('Cache-Control', 'no-cache').redirect(`${aliasTarget(moved)}${search}`, 301);
    }
    if (match === null && file !== undefined && FILE_NAME.test(pathname)) return file();
    const assets = shellAssets();
    if (assets === null) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('Le site n’est pas construit : lancez « npm run build ».');
    }
    if (!config.ssr) return browserPage(reply, assets, pathname, pages);

    const key = `${pathname}${search}`;
    // Shared caches may keep a page briefly; browsers revalidate it every time (ETag). A page made
    // while a remote's pages could not be read lacks that remote's routes and menu links: nobody
    // keeps it, this server nor a browser (which would show it once more, « stale while
    // revalidate »), so the next request, once the remote answers, gets the whole site.
    await trusted;
    const version = `${await partsVersion(match)}|${pagesVersion}|${contentVersion()}`;
    const whole = (await allUsable(match, pages)) && complete;
    reply.header('Cache-Control', whole ? PAGE_CACHE_CONTROL : 'no-store');
    const cached = cache.get(key, version);
    if (cached !== null) return sendHtml(request, reply, cached.status, cached, cached.etag);

    const outcome = await pool.render({
      pathname,
      match,
      search,
      origin: config.siteOrigin,
      radio,
      pages,
      remotes,
      distDirs: config.distDirs,
      dataDeadlineMs,
      renderDeadlineMs: RENDER_DEADLINE_MS,
    });
    switch (outcome.kind) {
      case 'redirect':
        return reply.header('Cache-Control', 'no-cache').redirect(outcome.location, 302);
      case 'invalid':
        return reply
          .header('Cache-Control', 'no-cache')
          .code(400)
          .type('text/html; charset=utf-8')
          .send(invalidAddressPage());
      case 'browser':
        // Said once per reason (a missing shell bundle would otherwise fill the log), then at debug.
        if (outcome.reason === lastBrowserReason) app.log.debug(`Page ${pathname} rendue dans le navigateur`);
        else app.log.warn(`Pages rendues dans le navigateur (${pathname} d'abord) : ${outcome.reason}`);
        lastBrowserReason = outcome.reason;
        return browserPage(reply, assets, pathname, pages);
      case 'page': {
        lastBrowserReason = null;
        const page = writePage(pathname, {
          assets,
          head: headElements(outcome.head, siteConfig.name),
          pages,
          images: outcome.preloads,
          rendered: { body: outcome.body, state: outcome.state, router: outcome.router },
        });
        const etag = etagOf(page.html);
        const brotli = await brotliPage(page.html);
        if (whole) cache.set(key, { status: outcome.status, ...page, brotli, etag, version });
        return sendHtml(request, reply, outcome.status, { ...page, brotli }, etag);
      }
    }
  }

  /**
   * Whether the site can answer pages, and which parts render on the server (docs/rendering.md,
   * « Readiness »): for an admin and for a load balancer.
   */
  async function readiness(): Promise<Readiness> {
    const built = shellAssets() !== null;
    const parts = await bundles.status(PARTS.map((part) => part.name));
    // What the workers found when evaluating (a bundle that throws, or never ends).
    for (const [name, found] of pool.problems()) {
      if (parts[name]?.state === 'ok' && bundles.versionOf(name) === found.version) parts[name] = found.status;
    }
    // A new version not tried yet is tried now, even before any page asks for it.
    const { pages } = await app.sitePages();
    for (const name of trials(
      PARTS.map((part) => part.name),
      pages,
    ).keys()) {
      if (parts[name]?.state === 'ok') parts[name] = { state: 'trying', where: 'ce serveur' };
    }
    return {
      status: built ? 'ready' : 'not-built',
      serverRendering: config.ssr,
      parts,
      workers: pool.status(),
    };
  }

  return {
    respond,
    readiness,
    /**
     * Tries a part's new version in `dir` before it goes live (a deploy): its server container evaluated
     * and its pages rendered once, on the trial thread, with the page table it would make.
     */
    trial: async (part: PartName, dir: string, pages: readonly PageRef[]): Promise<TrialOutcome> => {
      await trusted;
      return pool.trial(trialTask(part, dir, pages));
    },
  };
}

/**
 * Rendered pages kept per URL for a short time (docs/rendering.md, « Cache »): a burst of visitors
 * on one page costs one render. An entry serves only while the parts' server containers are the ones it
 * was rendered with, so a redeployed part shows on the next request. Bounded by entries and by
 * bytes (lru-cache): a crawler walking thousands of distinct searches keeps the memory bounded.
 */
export interface CachedPage {
  status: number;
  html: string;
  /** Its Content-Security-Policy, which allows the styles written into it by their hashes. */
  csp: string;
  /** The HTML in brotli, made once per rendered page (render/encoded.ts). */
  brotli: Buffer;
  etag: string;
  /** The server containers' versions it was rendered with. */
  version: string;
}

export interface PageCacheOptions {
  /** How long an entry serves; 0 turns the cache off. */
  ttlMs: number;
  /** Entries kept at most; the least recently used goes first. */
  maxEntries: number;
  /** Bytes kept at most: the HTML as strings in memory (two bytes a code unit), and its brotli. */
  maxBytes: number;
  now?: () => number;
}

export function createPageCache({ ttlMs, maxEntries, maxBytes, now }: PageCacheOptions) {
  const entries =
    ttlMs > 0
      ? new LRUCache<string, CachedPage>({
          max: maxEntries,
          maxSize: maxBytes,
          sizeCalculation: (page) => Math.max(1, (page.html.length + page.csp.length) * 2 + page.brotli.length),
          ttl: ttlMs,
          // A page past its time is never served, and its memory is released when its time ends,
          // not when the LRU next needs the room: pages of a part's former version (each redeploy
          // makes new ones) held up to 32 MiB after 100 redeploys otherwise.
          allowStale: false,
          ttlAutopurge: true,
          ...(now === undefined ? {} : { perf: { now }, ttlResolution: 0 }),
        })
      : null;
  return {
    get(key: string, version: string): CachedPage | null {
      const entry = entries?.get(key);
      if (entry === undefined) return null;
      if (entry.version !== version) {
        entries?.delete(key);
        return null;
      }
      return entry;
    },
    set(key: string, page: CachedPage): void {
      entries?.set(key, page);
    },
    get size(): number {
      return entries?.size ?? 0;
    },
  };
}

/**
 * The encodings the server compresses answers in, best first (app.ts gives them to
 * @fastify/compress; docs/rendering.md, « Cache »).
 */
export const RESPONSE_ENCODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];

/**
 * A rendered page's brotli quality. Quality 10 takes the home page from 13.6 KB (quality 5, what the
 * server compresses other answers at) to 12.8 KB: with its headers, every page then fits in TCP's
 * first window (about 14.6 KB), one round trip on a phone's network. It costs about 25 ms of CPU
 * against 1 ms, once per rendered page, in zlib's thread pool: the event loop goes on meanwhile.
 */
export const PAGE_BROTLI_QUALITY = 10;

const compress = promisify(brotliCompress);

/** The page's HTML in brotli, as it is kept with the page and sent to every client that asks for it. */
export async function brotliPage(html: string): Promise<Buffer> {
  const bytes = Buffer.from(html, 'utf8');
  return compress(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: PAGE_BROTLI_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

/**
 * Whether the client gets brotli, chosen as @fastify/compress chooses for every other answer
 * (`*` and `x-gzip` read as gzip, weights honoured, `br;q=0` refused, nothing compressed for a
 * request that sends `x-no-compression`).
 */
export function acceptsBrotli(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string' || request.headers['x-no-compression'] !== undefined) return false;
  return negotiate(header.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), RESPONSE_ENCODINGS) === 'br';
}
