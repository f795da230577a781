import { Worker, type MessagePort } from 'node:worker_threads';
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
  private worker: Worker | undefined;
  private nextId = 1;
  private nextSession = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private thread(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(new URL('./feed-thread.mjs', import.meta.url));
    // Waiting for a digest keeps the process alive, an idle worker does not.
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      if (waiting === undefined) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(new UpstreamError('feed', reply.failure ?? 'invalid', reply.message));
    });
    const failed = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) {
        waiting.reject(new UpstreamError('feed', 'invalid', `lecture du flux interrompue (${error.message})`));
      }
      this.pending.clear();
    };
    worker.on('error', failed);
    worker.on('exit', (code) => {
      failed(new Error(`code ${String(code)}`));
    });
    this.worker = worker;
    return worker;
  }

  private call(request: Request): Promise<unknown> {
    const worker = this.thread();
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      worker.ref();
      worker.postMessage(request);
    }).finally(() => {
      if (this.pending.size === 0) this.worker?.unref();
    });
  }

  start(feedUrl: string): ReturnType<Digester['start']> {
    const session = this.nextSession++;
    return {
      addPage: async (body, contentType) =>
        (await this.call({ id: this.nextId++, kind: 'page', session, feedUrl, body, contentType })) as
          string | undefined,
      result: async (keepTrackUrns) =>
        (await this.call({ id: this.nextId++, kind: 'result', session, keepTrackUrns })) as FeedData,
      drop: () => {
        if (this.worker !== undefined)
          void this.call({ id: this.nextId++, kind: 'drop', session }).catch(() => undefined);
      },
    };
  }

  /** Stops the thread (the server is closing). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) await worker.terminate();
  }
}
