import { Worker } from 'node:worker_threads';

/** A request without its id, which the client gives it; a union stays a union. */
export type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * One worker thread that answers requests by their id: the feed's digest (docs/feed.md) and the
 * schedule's expansion (docs/schedule.md). Started on first use; while nothing waits for it, it does
 * not keep the process alive; when it fails or stops (a crash, memory exhausted), what waited for it
 * is rejected and the next call starts a new one.
 */
export class ThreadClient<Request extends { id: number }, Reply extends { id: number }> {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  /**
   * @param entry the thread's entry (`new URL('./x-thread.mjs', import.meta.url)`, written where
   *   the built server finds it beside its bundle)
   * @param settle a reply's value, or the error it says
   * @param interrupted the error of a call that a stopped thread leaves waiting
   */
  constructor(
    private readonly entry: URL,
    private readonly settle: (reply: Reply) => { value: unknown } | { error: Error },
    private readonly interrupted: (cause: Error) => Error,
  ) {}

  /** Whether the thread is running (a call would not start one). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  private thread(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(this.entry);
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      if (waiting === undefined) return;
      this.pending.delete(reply.id);
      const settled = this.settle(reply);
      if ('error' in settled) waiting.reject(settled.error);
      else waiting.resolve(settled.value);
    });
    const failed = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(this.interrupted(error));
      this.pending.clear();
    };
    worker.on('error', failed);
    worker.on('exit', (code) => {
      failed(new Error(`code ${String(code)}`));
    });
    this.worker = worker;
    return worker;
  }

  /** Sends a request, and resolves with the thread's answer; waiting for it keeps the process alive. */
  call(request: WithoutId<Request>): Promise<unknown> {
    const worker = this.thread();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ ...request, id });
    }).finally(() => {
      if (this.pending.size === 0) this.worker?.unref();
    });
  }

  /** Stops the thread (the server is closing); what was waiting for it is rejected. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) await worker.terminate();
  }
}
