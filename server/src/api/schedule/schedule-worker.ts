import { Worker, type MessagePort } from 'node:worker_threads';
import { expandCalendar, readCalendar, type ExpandOptions, type Expanded } from './expand';
import { scheduleIcs, type IcsEvent, type IcsOptions } from './ics';

/**
 * The schedule's worker (docs/schedule.md, « Off the event loop »): reading a hostile calendar of
 * 50,000 events takes about 0.2 s of CPU, and expanding it as much again; on the event loop every
 * other request would wait that long; writing 5,000 shows as a calendar file takes about 0.15 s.
 * One worker thread per process checks the calendars as they are fetched, expands them and writes
 * the subscription files; the event loop only sends the texts and the shows, and gets back the
 * occurrences and the files.
 */

type Request =
  | { id: number; kind: 'check'; text: string }
  | { id: number; kind: 'expand'; texts: string[]; options: ExpandOptions }
  | { id: number; kind: 'write'; events: IcsEvent[]; options: IcsOptions };

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/** The worker's side: each request answered in turn, an error as its French message. */
export function serveExpansions(port: MessagePort): void {
  port.on('message', (request: Request) => {
    let reply: Reply;
    try {
      let value: unknown;
      if (request.kind === 'check') readCalendar(request.text);
      else if (request.kind === 'expand') value = request.texts.map((text) => expandCalendar(text, request.options));
      else value = scheduleIcs(request.events, request.options);
      reply = { id: request.id, ok: true, value };
    } catch (error) {
      reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}

/** The server's side: the thread, started on first use, restarted on the use after a crash. */
export class ScheduleWorker {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private thread(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(new URL('./schedule-thread.mjs', import.meta.url));
    // Waiting for an expansion keeps the process alive, an idle worker does not.
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      if (waiting === undefined) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(new Error(reply.message));
    });
    const failed = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) {
        waiting.reject(new Error(`lecture de l’agenda interrompue (${error.message})`));
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

  /** Whether a text is a calendar (readCalendar): resolves, or rejects with the French reason. */
  async check(text: string): Promise<void> {
    await this.call({ id: this.nextId++, kind: 'check', text });
  }

  /** Each text expanded as expandCalendar does; rejects with its French error, or when the thread stops. */
  async expand(texts: readonly string[], options: ExpandOptions): Promise<Expanded[]> {
    return (await this.call({ id: this.nextId++, kind: 'expand', texts: [...texts], options })) as Expanded[];
  }

  /** These shows as a calendar file (scheduleIcs). */
  async write(events: readonly IcsEvent[], options: IcsOptions): Promise<string> {
    return (await this.call({ id: this.nextId++, kind: 'write', events: [...events], options })) as string;
  }

  /** Stops the thread (the server is closing); what was waiting for it is rejected. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) await worker.terminate();
  }
}

let shared: ScheduleWorker | undefined;
let users = 0;

/**
 * The process's schedule thread, shared by the calendars' loader (which checks each calendar as it
 * is fetched) and the schedule's routes (which expand them): one thread, however many use it.
 */
export function scheduleWorker(): ScheduleWorker {
  return (shared ??= new ScheduleWorker());
}

/**
 * The schedule thread for a server, stopped when the last server that holds it closes (several
 * servers run in one process in tests: one closing must not stop another's expansion).
 */
export function holdScheduleWorker(): { worker: ScheduleWorker; release(): Promise<void> } {
  const worker = scheduleWorker();
  users += 1;
  let released = false;
  return {
    worker,
    release: async () => {
      if (released) return;
      released = true;
      users -= 1;
      if (users === 0) await worker.close();
    },
  };
}
