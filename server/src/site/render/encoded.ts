import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyRequest } from 'fastify';

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
