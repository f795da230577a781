import { OneThread, type ThreadReply } from '../../threads/threads';
import { UpstreamError, type UpstreamFailure } from '../../http/errors';
import { FeedDigest, type Digester, type FeedData } from './rss';

/**
 * The feed worker: decoding, validating, parsing and mapping a feed take about 1.4 s of CPU for
 * 10 MB, and on the event loop every other request waited that long (docs/feed.md, « Large
 * feeds »). One worker thread per server digests the pages; the event loop only fetches, and gets
 * back the XML text and the podcasts.
 */

type Task =
  | { kind: 'page'; session: number; feedUrl: string; body: Uint8Array; contentType: string | null }
  | { kind: 'result'; session: number; keepTrackUrns: boolean }
  | { kind: 'drop'; session: number };

/** A task's failure, said in what crosses threads (an Error loses its class there). */
type Failure = { ok: false; failure: UpstreamFailure | null; message: string };

/** The loads in progress in this thread, one FeedDigest each, from their first page to their result. */
const sessions = new Map<number, FeedDigest>();

/** The worker's side: one task of a load. */
export function runTask(task: Task): ThreadReply<Failure> {
  try {
    let value: unknown;
    if (task.kind === 'page') {
      let digest = sessions.get(task.session);
      if (digest === undefined) {
        digest = new FeedDigest(task.feedUrl);
        sessions.set(task.session, digest);
      }
      value = digest.addPage(task.body, task.contentType);
    } else if (task.kind === 'result') {
      const digest = sessions.get(task.session);
      sessions.delete(task.session);
      // A thread replaced during the load (a crash) has lost its pages.
      if (digest === undefined) throw new Error('lecture du flux interrompue (fil de lecture remplacé)');
      value = digest.result(task.keepTrackUrns);
    } else {
      sessions.delete(task.session);
    }
    return { ok: true, value };
  } catch (error) {
    sessions.delete(task.session);
    return {
      ok: false,
      failure: error instanceof UpstreamError ? error.failure : null,
      message: error instanceof UpstreamError ? error.detail : error instanceof Error ? error.message : String(error),
    };
  }
}

/**
 * The server's side: a Digester whose pages are digested by one thread, started on first use and
 * kept (a load's pages must reach the thread that holds its first ones).
 */
export class FeedWorker implements Digester {
  private nextSession = 1;
  private readonly thread = new OneThread<Task, Failure>('feed-worker', new URL('./feed-worker.ts', import.meta.url), {
    failed: (reply) => new UpstreamError('feed', reply.failure ?? 'invalid', reply.message),
    interrupted: (cause) =>
      new UpstreamError('feed', 'invalid', `lecture du flux interrompue (${(cause as Error).message})`),
  });

  start(feedUrl: string): ReturnType<Digester['start']> {
    const session = this.nextSession++;
    return {
      addPage: async (body, contentType) =>
        (await this.thread.run({ kind: 'page', session, feedUrl, body, contentType })) as string | undefined,
      result: async (keepTrackUrns) => (await this.thread.run({ kind: 'result', session, keepTrackUrns })) as FeedData,
      drop: () => {
        if (this.thread.started) void this.thread.run({ kind: 'drop', session }).catch(() => undefined);
      },
    };
  }

  /** Stops the thread (the server is closing). */
  close(): Promise<void> {
    return this.thread.close();
  }
}
