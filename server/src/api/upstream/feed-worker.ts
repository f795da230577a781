import type { MessagePort } from 'node:worker_threads';
import { ThreadClient } from '../thread-client';
import { UpstreamError, type UpstreamFailure } from '../errors';
import { FeedDigest, type Digester, type FeedData } from './rss';

/**
 * The feed worker: decoding, validating, parsing and mapping a feed take about 1.4 s of CPU for
 * 10 MB, and on the event loop every other request waited that long (docs/feed.md, « Large
 * feeds »). One worker thread per server digests the pages; the event loop only fetches, and gets
 * back the XML text and the podcasts.
 */

type Request =
  | { id: number; kind: 'page'; session: number; feedUrl: string; body: Uint8Array; contentType: string | null }
  | { id: number; kind: 'result'; session: number; keepTrackUrns: boolean }
  | { id: number; kind: 'drop'; session: number };

type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; failure: UpstreamFailure | null; message: string };

/** The worker's side: one FeedDigest per load in progress. */
export function serveDigests(port: MessagePort): void {
  const sessions = new Map<number, FeedDigest>();
  port.on('message', (request: Request) => {
    let reply: Reply;
    try {
      let value: unknown;
      if (request.kind === 'page') {
        let digest = sessions.get(request.session);
        if (digest === undefined) {
          digest = new FeedDigest(request.feedUrl);
          sessions.set(request.session, digest);
        }
        value = digest.addPage(request.body, request.contentType);
      } else if (request.kind === 'result') {
        const digest = sessions.get(request.session) ?? new FeedDigest('');
        sessions.delete(request.session);
        value = digest.result(request.keepTrackUrns);
      } else {
        sessions.delete(request.session);
      }
      reply = { id: request.id, ok: true, value };
    } catch (error) {
      sessions.delete(request.session);
      reply = {
        id: request.id,
        ok: false,
        failure: error instanceof UpstreamError ? error.failure : null,
        message: error instanceof UpstreamError ? error.detail : String(error),
      };
    }
    port.postMessage(reply);
  });
}

/** The server's side: a Digester whose pages are digested by the worker thread. */
export class FeedWorker implements Digester {
  private nextSession = 1;
  private readonly client = new ThreadClient<Request, Reply>(
    new URL('./feed-thread.mjs', import.meta.url),
    (reply) =>
      reply.ok
        ? { value: reply.value }
        : { error: new UpstreamError('feed', reply.failure ?? 'invalid', reply.message) },
    (cause) => new UpstreamError('feed', 'invalid', `lecture du flux interrompue (${cause.message})`),
  );

  start(feedUrl: string): ReturnType<Digester['start']> {
    const session = this.nextSession++;
    return {
      addPage: async (body, contentType) =>
        (await this.client.call({ kind: 'page', session, feedUrl, body, contentType })) as string | undefined,
      result: async (keepTrackUrns) => (await this.client.call({ kind: 'result', session, keepTrackUrns })) as FeedData,
      drop: () => {
        if (this.client.running) void this.client.call({ kind: 'drop', session }).catch(() => undefined);
      },
    };
  }

  /** Stops the thread (the server is closing). */
  close(): Promise<void> {
    return this.client.close();
  }
}
