import type { FastifyReply, FastifyRequest } from 'fastify';
import { negotiate } from '@fastify/accept-negotiator';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { answeredNotModified } from '../../http/conditional';
import { invalidAddressPage } from './document';

/**
 * The answer to a page request: its status, its headers and its body (docs/rendering.md, « Cache »
 * for the ETag and the page's own brotli; « How a page is rendered » for the answers that are not a
 * rendered page). Each function here only writes the reply; what the page is was decided before.
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

/** A page rendered on the server as it is sent: from the renderers or from the page cache alike. */
export interface SentPage {
  status: number;
  html: string;
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
export function sendPage(request: FastifyRequest, reply: FastifyReply, { status, html, csp, brotli, etag }: SentPage) {
  reply.header('content-security-policy', csp);
  if (answeredNotModified(request, reply, { etag })) return reply;
  reply.code(status).type('text/html; charset=utf-8');
  if (acceptsBrotli(request)) {
    return reply.header('Content-Encoding', 'br').header('Vary', 'accept-encoding').send(brotli);
  }
  return reply.send(html);
}

/**
 * Sends the shell's page for the browser to render, with its own policy. It is revalidated on every
 * use (`no-cache`): the next request may be rendered on the server.
 */
export function sendBrowserPage(reply: FastifyReply, { html, csp }: { html: string; csp: string }) {
  return reply
    .header('Cache-Control', 'no-cache')
    .header('content-security-policy', csp)
    .type('text/html; charset=utf-8')
    .send(html);
}

/**
 * Sends a redirect, revalidated on every use (`no-cache`): the table of pages that decided it changes
 * when a part is deployed.
 */
export function sendRedirect(reply: FastifyReply, location: string, status: 301 | 302) {
  return reply.header('Cache-Control', 'no-cache').redirect(location, status);
}

/** Sends the French « Adresse invalide » page (400) for an address whose parameters cannot be decoded. */
export function sendInvalidAddress(reply: FastifyReply) {
  return reply
    .header('Cache-Control', 'no-cache')
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
