import { OneThread, type ThreadReply } from '../threads/threads';
import { readEventCalendars, type EventsRead, type EventsReadOptions } from '../events/read';
import { expandCalendar, readCalendar, type ExpandOptions, type Expanded } from './expand';
import { calendarIcs, scheduleIcs, type CalendarOptions, type IcsEvent, type IcsItem, type IcsOptions } from './ics';

/**
 * The schedule's worker (docs/schedule.md, « Off the event loop »): reading a hostile calendar of
 * 50,000 events takes about 0.2 s of CPU, and expanding it as much again; on the event loop every
 * other request would wait that long; writing 5,000 shows as a calendar file takes about 0.15 s.
 * One worker thread per process checks the calendars as they are fetched, expands them and writes
 * the subscription files; the event loop only sends the texts and the shows, and gets back the
 * occurrences and the files. The events' calendars are read by the same thread, the same way
 * (docs/events.md, « Off the event loop »): one thread for every calendar of the site.
 */

type Task =
  | { kind: 'check'; text: string }
  | { kind: 'expand'; texts: string[]; options: ExpandOptions }
  | { kind: 'write'; events: IcsEvent[]; options: IcsOptions }
  | { kind: 'events'; texts: string[]; options: EventsReadOptions }
  | { kind: 'calendar'; items: IcsItem[]; options: CalendarOptions };

/** A task's French error (an Error loses its class between threads). */
type Failure = { ok: false; message: string };

/** The worker's side: one task, an error as its French message. */
export function runTask(task: Task): ThreadReply<Failure> {
  try {
    let value: unknown;
    if (task.kind === 'check') readCalendar(task.text);
    else if (task.kind === 'expand') value = task.texts.map((text) => expandCalendar(text, task.options));
    else if (task.kind === 'write') value = scheduleIcs(task.events, task.options);
    else if (task.kind === 'events') value = readEventCalendars(task.texts, task.options);
    else value = calendarIcs(task.items, task.options);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** The server's side: the thread, started on first use, replaced on the use after a crash. */
export class ScheduleWorker {
  private readonly thread = new OneThread<Task, Failure>(
    'schedule-worker',
    new URL('./schedule-worker.ts', import.meta.url),
    {
      failed: (reply) => new Error(reply.message),
      interrupted: (cause) => new Error(`lecture de l’agenda interrompue (${(cause as Error).message})`, { cause }),
    },
  );

  /** Whether a text is a calendar (readCalendar): resolves, or rejects with the French reason. */
  async check(text: string): Promise<void> {
    await this.thread.run({ kind: 'check', text });
  }

  /** Each text expanded as expandCalendar does; rejects with its French error, or when the thread stops. */
  async expand(texts: readonly string[], options: ExpandOptions): Promise<Expanded[]> {
    return (await this.thread.run({ kind: 'expand', texts: [...texts], options })) as Expanded[];
  }

  /** These shows as a calendar file (scheduleIcs). */
  async write(events: readonly IcsEvent[], options: IcsOptions): Promise<string> {
    return (await this.thread.run({ kind: 'write', events: [...events], options })) as string;
  }

  /** The events of these calendars (readEventCalendars); rejects with its French error, or when the thread stops. */
  async readEvents(texts: readonly string[], options: EventsReadOptions): Promise<EventsRead> {
    return (await this.thread.run({ kind: 'events', texts: [...texts], options })) as EventsRead;
  }

  /** These items as a calendar file (calendarIcs). */
  async writeCalendar(items: readonly IcsItem[], options: CalendarOptions): Promise<string> {
    return (await this.thread.run({ kind: 'calendar', items: [...items], options })) as string;
  }

  /** Stops the thread (the server is closing); what was waiting for it is rejected. */
  close(): Promise<void> {
    return this.thread.close();
  }
}

let shared: ScheduleWorker | undefined;
let users = 0;

/**
 * The process's schedule thread, shared by the calendars' loaders (which check each calendar as it
 * is fetched), the schedule's routes (which expand them) and the events (which read theirs): one
 * thread, however many use it.
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
