import { Piscina } from 'piscina';

/**
 * The server's worker threads (docs/server.md, « Threads »): one kind of pool, Piscina, for the
 * feed's digest and the schedule's calendars (the site's own code: a part's code runs in the
 * renderer processes, site/render/render-pool.ts), and one entry (`thread.mjs`) that loads a worker's
 * module, built or from its TypeScript. A worker's module exports `runTask`, run for each task; what
 * it keeps between tasks (the feed's sessions) lives in its module, for the thread's life.
 */

/** The workers, by the name of their built bundle (server/scripts/build.mjs). */
export type ThreadName = 'feed-worker' | 'schedule-worker';

export interface ThreadOptions {
  /** Threads kept running (0: started on use). */
  minThreads?: number;
  maxThreads: number;
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
}

/**
 * A pool of threads that run one worker.
 * @param name the worker's bundle when built
 * @param source its TypeScript, `new URL('./x-worker.ts', import.meta.url)` beside the caller
 */
export function startThreads<Task, Result>(
  name: ThreadName,
  source: URL,
  { minThreads = 0, maxThreads, resourceLimits }: ThreadOptions,
): Piscina<Task, Result> {
  const pool = new Piscina<Task, Result>({
    filename: new URL('./thread.mjs', import.meta.url).href,
    workerData: { name, source: source.href },
    minThreads,
    maxThreads,
    // A thread once started stays (an idle one never keeps the process alive): the feed's loads in
    // progress live in theirs, and starting one costs loading its code again.
    idleTimeout: Number.POSITIVE_INFINITY,
    ...(resourceLimits === undefined ? {} : { resourceLimits }),
  });
  // What fails outside a task (an idle thread that crashed, which Piscina replaces; the answer of a
  // task to a pool being stopped) has nobody waiting for it: said, never thrown at the process.
  pool.on('error', (error: unknown) => {
    process.emitWarning(`fil « ${name} » : ${error instanceof Error ? error.message : String(error)}`);
  });
  return pool;
}

/** What a worker of one thread answers: its value, or what its failure says (an Error loses its class between threads). */
export type ThreadReply<Failure extends { ok: false }> = { ok: true; value: unknown } | Failure;

/**
 * One thread, started on first use and kept while the server runs: for a worker whose tasks must
 * reach the same thread (the feed's loads in progress) or that is used in turns (the schedule).
 * Its tasks answer a ThreadReply; `errors` makes the error of a failure, and of a task whose thread
 * stopped (a crash, memory exhausted: Piscina starts another for the next task).
 */
export class OneThread<Task, Failure extends { ok: false }> {
  private threads: Piscina<Task, ThreadReply<Failure>> | undefined;

  constructor(
    private readonly name: ThreadName,
    private readonly source: URL,
    private readonly errors: { failed: (failure: Failure) => Error; interrupted: (cause: unknown) => Error },
  ) {}

  /** Whether the thread was started (a task would otherwise start it). */
  get started(): boolean {
    return this.threads !== undefined;
  }

  async run(task: Task): Promise<unknown> {
    this.threads ??= startThreads<Task, ThreadReply<Failure>>(this.name, this.source, {
      maxThreads: 1,
    });
    let reply: ThreadReply<Failure>;
    try {
      reply = await this.threads.run(task);
    } catch (cause) {
      throw this.errors.interrupted(cause);
    }
    if (!reply.ok) throw this.errors.failed(reply);
    return reply.value;
  }

  /** Stops the thread (the server is closing); what was waiting for it is rejected. */
  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = undefined;
    await threads?.destroy();
  }
}
