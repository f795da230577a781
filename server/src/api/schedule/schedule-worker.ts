import type { MessagePort } from 'node:worker_threads';
import { ThreadClient } from '../thread-client';
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
  private readonly client = new ThreadClient<Request, Reply>(
    new URL('./schedule-thread.mjs', import.meta.url),
    (reply) => (reply.ok ? { value: reply.value } : { error: new Error(reply.message) }),
    (cause) => new Error(`lecture de l’agenda interrompue (${cause.message})`),
  );

  /** Whether a text is a calendar (readCalendar): resolves, or rejects with the French reason. */
  async check(text: string): Promise<void> {
    await this.client.call({ kind: 'check', text });
  }

  /** Each text expanded as expandCalendar does; rejects with its French error, or when the thread stops. */
  async expand(texts: readonly string[], options: ExpandOptions): Promise<Expanded[]> {
    return (await this.client.call({ kind: 'expand', texts: [...texts], options })) as Expanded[];
  }

  /** These shows as a calendar file (scheduleIcs). */
  async write(events: readonly IcsEvent[], options: IcsOptions): Promise<string> {
    return (await this.client.call({ kind: 'write', events: [...events], options })) as string;
  }

  /** Stops the thread (the server is closing); what was waiting for it is rejected. */
  close(): Promise<void> {
    return this.client.close();
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
