import type { FastifyInstance } from 'fastify';

/**
 * Headers that only mean something on a document (docs/server.md, « Security headers »): left off
 * scripts, styles, images and API answers.
 */
export const DOCUMENT_ONLY_HEADERS = ['content-security-policy', 'cross-origin-opener-policy', 'origin-agent-cluster'];

/**
 * Leaves the document-only headers (about 700 bytes) off every answer that is not a document: they
 * mean nothing there, and a page makes some thirty of those requests. A hook of the app itself, on
 * every answer: its own short file, so that the app's setup (app.ts) is not on a page's way
 * (docs/rendering.md, « A page's way »).
 */
export function leaveDocumentHeadersToDocuments(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
    }
    return payload;
  });
}
