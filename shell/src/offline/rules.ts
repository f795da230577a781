/**
 * What the service worker does with a request (docs/published.md, « Installable »), as one pure
 * function read by the worker, the offline page and their tests. `null`: the worker leaves the
 * request alone, and the browser fetches it as if there were no worker.
 */

/** Where the worker is served, and its scope: every page of the site. */
export const SERVICE_WORKER_URL = '/sw.js';
/** The offline page, precached: what a page asked for without network answers when none is kept. */
export const OFFLINE_PAGE = '/hors-ligne.html';

/** The caches the worker fills as the visitor browses (the precache has its own, Workbox's). */
export const CACHES = {
  /** Pages seen, network first: the last ones, for the offline page and a visit without network. */
  pages: 'collectif-pages',
  /**
   * Content-hashed files of every part: a name never changes content, so the cache answers first,
   * once the file is checked against its name (integrity.ts).
   */
  hashed: 'collectif-fichiers',
  /** The site's pictures, network first (the browser's cache answers within its day): the cache only offline. */
  images: 'collectif-images',
  /** The table of pages, sent by the shell at each visit, for the offline page's links. */
  offline: 'collectif-hors-ligne',
} as const;

/**
 * Caches earlier workers filled and this one drops: the parts' entries (`remoteEntry.js`,
 * `mf-manifest.json`), which their names cannot check, kept only for the pages opened without
 * network, which now run no script (docs/published.md, « What a page's script cannot forge »).
 */
export const RETIRED_CACHES = ['collectif-entrees'] as const;

/** How many of each the worker keeps (oldest dropped first). */
export const KEPT = { pages: 20, hashed: 300, images: 80 } as const;
/** Where the worker keeps the table of pages, in CACHES.offline. */
export const PAGE_TABLE_KEY = '/hors-ligne/pages.json';

/**
 * The shell's message that hands the worker the table of pages it read (register.ts): the worker
 * writes it into its cache, so that the page's thread never opens a cache: a page's first
 * `caches.open` was one of the home page's long tasks after the paint (bench/long-tasks.mjs).
 */
export const PAGE_TABLE_MESSAGE = 'collectif:table-des-pages';
/** The most pages a table holds, and its longest text: the site has a few dozen pages. */
export const PAGE_TABLE_MAX = { pages: 500, chars: 200_000 } as const;

/**
 * The text the worker keeps of a message, or null when it is not the shell's table: another shape,
 * too many pages or too long. Any script of the site may send it, as any may write the cache itself;
 * the offline page reads each page's fields again before making a link of it.
 */
export function pageTableText(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const { kind, pages } = data as { kind?: unknown; pages?: unknown };
  if (kind !== PAGE_TABLE_MESSAGE || !Array.isArray(pages)) return null;
  if (pages.length === 0 || pages.length > PAGE_TABLE_MAX.pages) return null;
  let text: string;
  try {
    text = JSON.stringify(pages);
  } catch {
    return null;
  }
  return text.length > PAGE_TABLE_MAX.chars ? null : text;
}

export type RequestKind = 'page' | 'hashed' | 'image';

/** What the worker reads of a request (a `Request` has all of it). */
export interface RequestFacts {
  url: string;
  method: string;
  mode: string;
  destination: string;
  referrer: string;
  headers: { get: (name: string) => string | null };
}

/**
 * A file whose name carries its content's hash, long enough to be checked (`main.<32 hex>.js`,
 * `files/x.<32 hex>.woff2`; integrity.ts). A name of 10 hex digits (a part built before the names
 * were 128 bits) is left to the browser's cache: a page's script could forge a file to match it.
 */
const HASHED = /\.[0-9a-f]{32}\.(?!map$)[a-z0-9]+$/;

/** A path of the partner embed (`/embed/lecteur`, `/embed/collectif-player.js`): never the worker's. */
const isEmbed = (path: string) => path === '/embed' || path.startsWith('/embed/');

function pathOf(address: string, origin: string): string | null {
  try {
    const url = new URL(address, origin);
    return url.origin === origin ? url.pathname : null;
  } catch {
    return null;
  }
}

/**
 * How the worker answers a request of the site at `origin`, or null when it leaves it alone: anything
 * but GET, another origin, the embed's addresses and whatever an embed's page asks for (its referrer),
 * a file whose referrer is no page of the site (the tab's icon), every `/api` address (the
 * now-playing and its live channel among them), audio and video (the streams, replays) and ranges,
 * event streams, the parts' entries (`remoteEntry.js`, `mf-manifest.json`: revalidated by the
 * browser at each visit) and any file whose name carries no hash it can check.
 */
export function requestKind(request: RequestFacts, origin: string): RequestKind | null {
  if (request.method !== 'GET') return null;
  const path = pathOf(request.url, origin);
  if (path === null || isEmbed(path) || path === '/api' || path.startsWith('/api/')) return null;
  // A file asked for by a page of the site names it as its referrer; one that names none (the
  // browser's icon of a tab, the embed's included) or an embed's page is left alone.
  const from = request.referrer === '' ? null : pathOf(request.referrer, origin);
  if (from !== null ? isEmbed(from) : request.mode !== 'navigate') return null;
  if (['audio', 'video', 'track'].includes(request.destination)) return null;
  if (request.headers.get('range') !== null) return null;
  if ((request.headers.get('accept') ?? '').includes('text/event-stream')) return null;
  if (request.mode === 'navigate') return request.destination === 'document' ? 'page' : null;
  if (HASHED.test(path)) return 'hashed';
  if (path.startsWith('/assets/images/')) return 'image';
  return null;
}

/**
 * Whether a page's answer may be kept for a visit without network: `no-store` (a page rendered with
 * part of its data, docs/rendering.md) and `private` answers are not.
 */
export function isStorable(cacheControl: string | null): boolean {
  const directives = (cacheControl ?? '').toLowerCase().split(',');
  return !directives.some((directive) => ['no-store', 'private'].includes(directive.trim()));
}
