import type { FastifyReply, FastifyRequest } from 'fastify';
import { negotiate } from '@fastify/accept-negotiator';
import { LRUCache } from 'lru-cache';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import type { PageMatch, PageRef, PartName } from '@collectif/shared';
import { PAGES, pagePattern } from '@collectif/shared/addresses';
import { CONTENT_KIND_NAMES } from '../../content/kinds';
import type { ContentStore } from '../../content/store';
import { answeredNotModified, etagOf } from '../../http/conditional';
import type { ServerContainers } from './containers';
import { invalidAddressPage } from './document';

/**
 * The answer to a page request: its status, its headers and its body (docs/rendering.md, « Cache »
 * for the ETag and the page's own brotli; « How a page is rendered » for the answers that are not a
 * rendered page). Each function that sends only writes the reply; what the page is was decided
 * before. The rendered pages kept for a while, and what each was made from, are below (`createPageCache`).
 */

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
export async function brotliPage(bytes: Buffer): Promise<Buffer> {
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

/** A page rendered on the server as it is sent: from the renderers or from the page cache alike. */
export interface SentPage {
  status: number;
  /**
   * The HTML in UTF-8, encoded once when the page was rendered: an answer from the cache neither
   * measures nor encodes a string again (a third of a cached answer's CPU when it was a string), and
   * the cache holds a byte a character where a string with one character past Latin-1 holds two.
   */
  body: Buffer;
  /** Its own Content-Security-Policy, which allows the sheets written into it by their hashes. */
  csp: string;
  /** The HTML in brotli, made once when the page was rendered (`brotliPage`). */
  brotli: Buffer;
  /** A weak ETag of the HTML (http/conditional.ts, `etagOf`). */
  etag: string;
}

/**
 * Sends a page rendered on the server with its own policy. A request whose `If-None-Match` names its
 * ETag gets 304, with the same validators and comparison as /api and the feeds (one conditional GET:
 * http/conditional.ts). A client that accepts brotli gets the page's own brotli; any other gets the
 * HTML, which the compression plugin gzips or sends as it is (it leaves alone an answer that already
 * names its encoding). The caller has set `Cache-Control`.
 */
export function sendPage(request: FastifyRequest, reply: FastifyReply, { status, body, csp, brotli, etag }: SentPage) {
  reply.header('content-security-policy', csp);
  if (answeredNotModified(request, reply, { etag })) return reply;
  reply.code(status).type('text/html; charset=utf-8');
  if (acceptsBrotli(request)) {
    return reply.header('Content-Encoding', 'br').header('Vary', 'accept-encoding').send(brotli);
  }
  return reply.send(body);
}

/**
 * Sends the shell's page for the browser to render, with its own policy. It is revalidated on every
 * use (`no-cache`): the next request may be rendered on the server. A private page's is kept by nobody.
 */
export function sendBrowserPage(
  reply: FastifyReply,
  { html, csp }: { html: string; csp: string },
  cacheControl = 'no-cache',
) {
  return reply
    .header('Cache-Control', cacheControl)
    .header('content-security-policy', csp)
    .type('text/html; charset=utf-8')
    .send(html);
}

/**
 * Sends a redirect, revalidated on every use (`no-cache`): the table of pages that decided it changes
 * when a part is deployed. A private page's (its address carries a secret) is kept by nobody.
 */
export function sendRedirect(reply: FastifyReply, location: string, status: 301 | 302, cacheControl = 'no-cache') {
  return reply.header('Cache-Control', cacheControl).redirect(location, status);
}

/** Sends the French « Adresse invalide » page (400) for an address whose parameters cannot be decoded. */
export function sendInvalidAddress(reply: FastifyReply, cacheControl = 'no-cache') {
  return reply
    .header('Cache-Control', cacheControl)
    .code(400)
    .type('text/html; charset=utf-8')
    .send(invalidAddressPage());
}

/** Sends 503 while the shell's build cannot be used: no page can be answered without it. */
export function sendNotBuilt(reply: FastifyReply) {
  return reply
    .code(503)
    .type('text/plain; charset=utf-8')
    .send('Le site n’est pas construit : lancez « npm run build ».');
}

/**
 * Rendered pages kept per URL for a short time (docs/rendering.md, « Cache »): a burst of visitors on
 * one page costs one render. An entry serves only while what it was made from is current (the parts'
 * server containers, the declared pages, the content), so a redeployed part or a saved residence
 * shows on the next request. Bounded by entries and by bytes (lru-cache): a crawler walking
 * thousands of distinct searches keeps the memory bounded.
 */

/** What a rendered page may be kept for (docs/rendering.md, « Cache »; docs/deploy.md). */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=10, stale-while-revalidate=60';

/** What a private page may be kept for: nowhere, neither by a shared cache nor by the browser. */
export const PRIVATE_PAGE_CACHE_CONTROL = 'private, no-store';

/** A query argument that makes any page one visitor's own: a refused form's draft, a deletion link's secret. */
const PRIVATE_ARGUMENTS = ['brouillon', 'jeton'];

/** The proposal pages, whose addresses but their form are one proposer's (« Merci ! », the deletion). */
const PROPOSAL_PAGES = [PAGES.proposeShow, PAGES.sendDemo];

/**
 * Whether a page is one visitor's own (docs/proposals.md, « Private pages »): any address with a
 * `brouillon` or `jeton` argument (the draft shows what was typed, the deletion link's token is a
 * secret), and a proposal page's addresses other than its form, read from the page table. Sent
 * `PRIVATE_PAGE_CACHE_CONTROL`, and never kept in the page cache.
 */
export function isPrivatePage(match: PageMatch | null, search: string, table: readonly PageRef[]): boolean {
  const query = new URLSearchParams(search);
  if (PRIVATE_ARGUMENTS.some((name) => query.has(name))) return true;
  if (match === null) return false;
  const { page } = match;
  return PROPOSAL_PAGES.some(
    (form) => form.remote === page.remote && form.module === page.module && page.path !== pagePattern(table, form),
  );
}

/**
 * Whether a page is a proposal's form itself (docs/proposals.md, « Spam »): the same page for every
 * visitor, kept by the page cache, but answered with the visitor's own single-use token (a cookie),
 * so sent `PRIVATE_PAGE_CACHE_CONTROL` too.
 */
export function isProposalForm(match: PageMatch | null, table: readonly PageRef[]): boolean {
  if (match === null) return false;
  const { page } = match;
  return PROPOSAL_PAGES.some(
    (form) => form.remote === page.remote && form.module === page.module && page.path === pagePattern(table, form),
  );
}

/** The site's page cache keeps at most this many pages. */
export const PAGE_CACHE_ENTRIES = 500;
/**
 * The site's page cache keeps at most this many bytes: each page's HTML (its UTF-8 bytes) and its
 * brotli. A crawler walking every search fills this, not the
 * memory: measured with 8,000 distinct searches (`node bench/memory.mjs`), the server's PSS 50 MB lower
 * than with twice this bound and the API's memo at twice its own (docs/rendering.md, « Memory »).
 */
export const PAGE_CACHE_BYTES = 16 * 1024 * 1024;

/** A rendered page as it is kept: as it is sent, and the versions it was made from. */
export interface CachedPage extends SentPage {
  /** What it was rendered from (`pageVersion`). */
  version: string;
}

export interface PageCacheOptions {
  /** How long an entry serves; 0 turns the cache off. */
  ttlMs: number;
  /** Entries kept at most; the least recently used goes first. */
  maxEntries: number;
  /** Bytes kept at most: the HTML's bytes, its brotli and its policy (a string: two bytes a code unit). */
  maxBytes: number;
  now?: () => number;
}

/**
 * The pages kept by URL (the path and the query). `get` answers a page only in the version asked for,
 * and lets go of one made in another; with a time of 0 nothing is kept.
 */
export function createPageCache({ ttlMs, maxEntries, maxBytes, now }: PageCacheOptions) {
  const entries =
    ttlMs > 0
      ? new LRUCache<string, CachedPage>({
          max: maxEntries,
          maxSize: maxBytes,
          sizeCalculation: (page) => Math.max(1, page.body.length + page.csp.length * 2 + page.brotli.length),
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

export type PageCache = ReturnType<typeof createPageCache>;

/**
 * What a page is made from, as one string: the versions of its parts' server containers, of the
 * remotes' declared pages and of the content volunteers edit (docs/content.md). A kept page serves
 * only in this version: a part deployed anew, a page declared anew or a residence saved is in the
 * next page, not one the cache kept from before it. The parts' files are read (or checked) first, so
 * their versions are the current ones.
 */
export async function pageVersion({
  containers,
  parts,
  pagesVersion,
  content,
}: {
  containers: Pick<ServerContainers, 'get' | 'versions'>;
  parts: readonly PartName[];
  pagesVersion: string;
  content: Pick<ContentStore, 'current'>;
}): Promise<string> {
  await Promise.all(parts.map((name) => containers.get(name)));
  const inUse = containers.versions();
  const edited = CONTENT_KIND_NAMES.map((kind) => content.current(kind).id).join(',');
  return `${inUse}|${pagesVersion}|${edited}`;
}

/**
 * A page just written, made ready to send and to keep: its ETag (a weak hash of its HTML) and its
 * brotli are made once here, so every answer from the cache costs neither.
 */
export async function pageToKeep(
  status: number,
  { html, csp }: { html: string; csp: string },
  version: string,
): Promise<CachedPage> {
  const etag = etagOf(html);
  const body = Buffer.from(html, 'utf8');
  const brotli = await brotliPage(body);
  return { status, body, csp, brotli, etag, version };
}
