import { readEventCalendars } from '../events/read';
import { googleCalendar, nextcloudCalendar, TODAY } from '../events/test-calendars';
import { eventIcsItem, eventsCalendar } from '../events/ics';
import { expandCalendar } from './expand';
import { calendarIcs, scheduleIcs } from './ics';
import { holdScheduleWorker, ScheduleWorker } from './schedule-worker';
import { hugeCalendar } from './test-calendars';

// The calendars are checked and expanded off the event loop (docs/schedule.md, « Off the event
// loop »). These tests count ticks of a timer, not milliseconds: while a calendar is expanded on
// the loop, no timer fires; while the thread expands it, the timer keeps firing. Timings are
// measured by bench/schedule.mjs.

// Starting a thread and reading 5 MB twice can take more than jest's default 5 s on a busy 2-core
// machine; the limit only stops a hung test, it measures nothing.
jest.setTimeout(60_000);

const DAY = 24 * 3600 * 1000;
const today = Date.UTC(2026, 10, 23);
const window = { from: today - DAY, to: today + 29 * DAY, defaultZone: 'Europe/Paris' };

/** Ticks of a 2 ms timer, until stopped. */
function ticks(): { count(): number; stop(): void } {
  let count = 0;
  const timer = setInterval(() => {
    count += 1;
  }, 2);
  return {
    count: () => count,
    stop: () => {
      clearInterval(timer);
    },
  };
}

describe('the schedule’s thread', () => {
  const huge = hugeCalendar(today);
  let worker: ScheduleWorker;
  beforeEach(() => {
    worker = new ScheduleWorker();
  });
  afterEach(async () => {
    await worker.close();
  });

  it('expands a 50,000-event calendar while the event loop’s timers keep firing, as on the loop they cannot', async () => {
    // Started beforehand, so that only the expansion is counted.
    await worker.check('BEGIN:VCALENDAR\r\nEND:VCALENDAR');
    const timer = ticks();
    const before = timer.count();
    const [found] = await worker.expand([huge], window);
    const during = timer.count() - before;
    // The same expansion on the loop: not one tick while it runs.
    const inlineBefore = timer.count();
    const inline = expandCalendar(huge, window);
    const inlineDuring = timer.count() - inlineBefore;
    timer.stop();
    expect(found).toEqual(inline);
    expect(found?.occurrences.length).toBeGreaterThan(200);
    expect(found?.problems).toEqual(['50000 évènements : seuls les 5000 premiers sont lus']);
    expect([during > 10, inlineDuring]).toEqual([true, 0]);
  });

  it('writes a calendar file as it is written on the loop', async () => {
    const events = Array.from({ length: 50 }, (_, i) => ({
      id: `${String(i)}@test/2026-11-25T19:00:00.000Z`,
      title: `Émission ${String(i)}, spéciale; nuit`,
      start: new Date(today + i * 3600 * 1000).toISOString(),
      end: new Date(today + (i + 1) * 3600 * 1000).toISOString(),
      allDay: false,
      residence: i % 2 === 0 ? 'axonberg' : null,
    }));
    const options = {
      name: 'Programme',
      subscription: true,
      origin: 'https://radio.example.org',
      residencePath: 'residences/:id',
      stamp: today,
      product: 'Test',
    };
    expect(await worker.write(events, options)).toBe(scheduleIcs(events, options));
  });

  it('reads events calendars and writes their file as it is done on the loop (docs/events.md)', async () => {
    const options = { today: TODAY, defaultZone: 'Europe/Paris', residences: [{ id: 'axonberg', artist: 'Axonberg' }] };
    const texts = [googleCalendar(), nextcloudCalendar()];
    const read = await worker.readEvents(texts, options);
    expect(read).toEqual(readEventCalendars(texts, options));
    expect(read.events.length).toBeGreaterThan(4);
    const items = read.events.map((event) =>
      eventIcsItem(event, { origin: 'https://radio.example.org', eventPath: 'evenements/:slug' }),
    );
    expect(await worker.writeCalendar(items, eventsCalendar(TODAY, true))).toBe(
      calendarIcs(items, eventsCalendar(TODAY, true)),
    );
  });

  it('checks calendars, and brings back the same French errors', async () => {
    await expect(worker.check(huge)).resolves.toBeUndefined();
    await expect(worker.check('<html>Erreur</html>')).rejects.toThrow(/^calendrier illisible/);
    await expect(worker.expand(['BEGIN:VCARD\r\nEND:VCARD'], window)).rejects.toThrow(
      'ce document n’est pas un calendrier (VCALENDAR attendu)',
    );
  });

  it('rejects what was waiting when the thread stops, and starts a new one for the next call', async () => {
    await worker.check('BEGIN:VCALENDAR\r\nEND:VCALENDAR');
    const waiting = worker.expand([huge], window);
    await worker.close();
    await expect(waiting).rejects.toThrow(/^lecture de l’agenda interrompue/);
    const [again] = await worker.expand([huge], window);
    expect(again?.occurrences.length).toBeGreaterThan(200);
  });
});

describe('the process’s schedule thread', () => {
  it('is one for every server, stopped when the last one lets it go', async () => {
    const first = holdScheduleWorker();
    const second = holdScheduleWorker();
    expect(first.worker).toBe(second.worker);
    const close = jest.spyOn(first.worker, 'close');
    try {
      await first.release();
      await first.release();
      expect(close).not.toHaveBeenCalled();
      await expect(second.worker.check('BEGIN:VCALENDAR\r\nEND:VCALENDAR')).resolves.toBeUndefined();
      await second.release();
      expect(close).toHaveBeenCalledTimes(1);
    } finally {
      close.mockRestore();
    }
  });
});
