import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  addDays,
  dayLabel,
  dayOf,
  dayStart,
  hourOf,
  nextShows,
  parisOffset,
  readDay,
  readsAsParis,
  relativeDayLabel,
  scheduleRange,
  showOnAir,
  showsByDay,
  VISITOR_CLOCK,
  visitorTime,
  wallAt,
  weekStart,
  zonedIso,
} from './schedule';
import type { ScheduleEvent } from './types';

const show = (id: string, start: string, end: string, allDay = false): ScheduleEvent => ({
  id,
  title: `Émission ${id}`,
  start,
  end,
  allDay,
  residence: null,
});

describe('the schedule’s days and hours, in Paris', () => {
  it('writes 20:00 for a show at 19:00 UTC in winter and at 18:00 UTC in summer', () => {
    expect(hourOf('2026-11-25T19:00:00.000Z')).toBe('20:00');
    expect(hourOf('2026-07-01T18:00:00.000Z')).toBe('20:00');
    // Either side of the last Sunday of October (25 October 2026) and of March (29 March 2026).
    expect(hourOf('2026-10-24T18:00:00.000Z')).toBe('20:00');
    expect(hourOf('2026-10-25T19:00:00.000Z')).toBe('20:00');
    expect(hourOf('2026-03-28T19:00:00.000Z')).toBe('20:00');
    expect(hourOf('2026-03-29T18:00:00.000Z')).toBe('20:00');
  });

  it('starts a day at Paris midnight, on days of 23 and 25 hours too', () => {
    expect(new Date(dayStart('2026-11-25')).toISOString()).toBe('2026-11-24T23:00:00.000Z');
    expect(new Date(dayStart('2026-07-01')).toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(dayStart('2026-03-30') - dayStart('2026-03-29')).toBe(23 * 3600 * 1000);
    expect(dayStart('2026-10-26') - dayStart('2026-10-25')).toBe(25 * 3600 * 1000);
    expect(scheduleRange('2026-10-25', 1)).toEqual({
      from: '2026-10-24T22:00:00.000Z',
      to: '2026-10-25T23:00:00.000Z',
    });
  });

  it('puts an instant on its Paris day, not its UTC day', () => {
    expect(dayOf(Date.parse('2026-11-24T23:30:00Z'))).toBe('2026-11-25');
    expect(dayOf(Date.parse('2026-11-24T22:59:00Z'))).toBe('2026-11-24');
  });

  it('counts days and finds the Monday of a week across months and years', () => {
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(weekStart('2026-11-29')).toBe('2026-11-23');
    expect(weekStart('2026-11-23')).toBe('2026-11-23');
    expect(weekStart('2027-01-01')).toBe('2026-12-28');
  });

  it('reads a day from an address only when it is a real date', () => {
    expect(readDay('2026-11-25')).toBe('2026-11-25');
    for (const bad of ['2026-02-30', '2026-13-01', '25/11/2026', '2026-11-25T00:00', '', null]) {
      expect(readDay(bad)).toBeNull();
    }
  });

  it('names days in French, today and tomorrow by those words', () => {
    expect(dayLabel('2026-11-25')).toBe('mercredi 25 novembre');
    const now = Date.parse('2026-11-25T22:30:00Z'); // 23:30 in Paris
    expect(relativeDayLabel('2026-11-25', now)).toBe('Aujourd’hui');
    expect(relativeDayLabel('2026-11-26', now)).toBe('Demain');
    expect(relativeDayLabel('2026-11-27', now)).toBe('vendredi 27 novembre');
  });

  it('writes instants with the offset of their date, for JSON-LD', () => {
    expect(zonedIso('2026-11-25T19:00:00.000Z')).toBe('2026-11-25T20:00:00+01:00');
    expect(zonedIso('2026-07-01T18:00:00.000Z')).toBe('2026-07-01T20:00:00+02:00');
  });

  it('adds the visitor’s own time only when their zone writes another', () => {
    const at = '2026-11-25T19:00:00.000Z';
    expect(visitorTime(at, null)).toBe('');
    expect(visitorTime(at, 'Europe/Berlin')).toBe('');
    expect(visitorTime(at, 'America/New_York')).toBe('14:00');
    expect(visitorTime(at, 'Asia/Kolkata')).toBe('00:30');
  });
});

describe('on air and next', () => {
  const events = [
    show('a', '2026-11-25T19:00:00.000Z', '2026-11-25T21:00:00.000Z'),
    show('b', '2026-11-25T21:00:00.000Z', '2026-11-25T23:00:00.000Z'),
    show('day', '2026-11-24T23:00:00.000Z', '2026-11-25T23:00:00.000Z', true),
  ];

  it('is on air from its first minute, included, to its end, excluded', () => {
    expect(showOnAir(events, Date.parse('2026-11-25T18:59:59.999Z'))).toBeNull();
    expect(showOnAir(events, Date.parse('2026-11-25T19:00:00.000Z'))?.id).toBe('a');
    expect(showOnAir(events, Date.parse('2026-11-25T20:59:00.000Z'))?.id).toBe('a');
    expect(showOnAir(events, Date.parse('2026-11-25T21:00:00.000Z'))?.id).toBe('b');
    expect(showOnAir(events, Date.parse('2026-11-25T23:00:00.000Z'))).toBeNull();
  });

  it('lists the shows that start later, in order, whole days left out', () => {
    expect(nextShows(events, Date.parse('2026-11-25T18:00:00.000Z'), 5).map((e) => e.id)).toEqual(['a', 'b']);
    expect(nextShows(events, Date.parse('2026-11-25T19:30:00.000Z'), 1).map((e) => e.id)).toEqual(['b']);
  });

  it('puts each show under the Paris day it starts on, a whole day under its own', () => {
    const late = show('late', '2026-11-25T23:30:00.000Z', '2026-11-26T01:00:00.000Z');
    const days = showsByDay([...events, late], '2026-11-25', 2);
    expect(days.map((d) => [d.day, d.events.map((e) => e.id)])).toEqual([
      ['2026-11-25', ['a', 'b', 'day']],
      ['2026-11-26', ['late']],
    ]);
  });
});

describe('Paris’s clock without Intl (parisOffset: ICU is not started for it)', () => {
  const intlWall = new Intl.DateTimeFormat('en-US', {
    timeZone: 'Europe/Paris',
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const byIntl = (instant: number) => {
    const parts: Record<string, number> = {};
    for (const part of intlWall.formatToParts(instant)) parts[part.type] = Number(part.value);
    return parts;
  };
  const HOUR = 3600_000;

  it('reads as Intl does every five hours of the rule’s years, 1996 to 2099 (each hour of the day in turn), and at each minute around each change', () => {
    const differ: string[] = [];
    const check = (instant: number) => {
      const own = wallAt(instant);
      const intl = byIntl(instant);
      if (
        own.year !== intl.year ||
        own.month !== intl.month ||
        own.day !== intl.day ||
        own.hour !== intl.hour ||
        own.minute !== intl.minute ||
        own.second !== intl.second
      ) {
        differ.push(new Date(instant).toISOString());
      }
    };
    for (let instant = Date.UTC(1996, 0, 1); instant < Date.UTC(2100, 0, 1); instant += 5 * HOUR)
      check(instant + 17_000);
    for (let year = 1996; year <= 2099; year += 1) {
      for (const month of [2, 9]) {
        const last = Date.UTC(year, month + 1, 0, 1);
        const change = last - new Date(last).getUTCDay() * 24 * HOUR;
        for (let minute = -90; minute <= 90; minute += 1) check(change + minute * 60_000);
      }
    }
    expect(differ.slice(0, 5)).toEqual([]);
  });

  it('leaves the years outside the rule to Intl, which still answers for them', () => {
    expect(parisOffset(Date.UTC(1995, 6, 1))).toBeNull();
    expect(parisOffset(Date.UTC(2100, 6, 1))).toBeNull();
    // Paris in 1990 changed back in September: Intl's answer, not the rule's.
    expect(hourOf(Date.UTC(1990, 9, 15, 12))).toBe('13:00');
    expect(wallAt(Date.UTC(2101, 0, 1, 12)).hour).toBe(13);
  });

  it('writes every day’s label as Intl does', () => {
    const intl = new Intl.DateTimeFormat('fr-FR', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' });
    const differ: string[] = [];
    for (let day = Date.UTC(2020, 0, 1); day < Date.UTC(2032, 0, 1); day += 24 * HOUR) {
      const text = new Date(day).toISOString().slice(0, 10);
      if (dayLabel(text) !== intl.format(day)) differ.push(text);
    }
    expect(differ).toEqual([]);
  });

  it('reads the visitor’s own clock with Date’s local getters (jest runs in UTC)', () => {
    const at = '2026-11-25T19:00:00.000Z';
    expect(hourOf(at, VISITOR_CLOCK)).toBe('19:00');
    expect(visitorTime(at, VISITOR_CLOCK)).toBe('19:00');
    expect(dayOf(Date.parse('2026-11-25T23:30:00Z'), VISITOR_CLOCK)).toBe('2026-11-25');
    expect(dayOf(Date.parse('2026-11-25T23:30:00Z'))).toBe('2026-11-26');
  });

  it('says whether the visitor’s clock reads as Paris’s all year, and reads it, from Date’s own offsets in that zone', () => {
    // A process of its own per zone: Date reads the zone of its process (TZ), fixed for jest's.
    // Whether it reads as Paris's, and 19:00 UTC on its clock (VISITOR_CLOCK).
    const zones = {
      'Europe/Paris': 'true 20:00',
      'Europe/Berlin': 'true 20:00',
      'Europe/Brussels': 'true 20:00',
      'Europe/London': 'false 19:00',
      UTC: 'false 19:00',
      'America/New_York': 'false 14:00',
      'Africa/Lagos': 'false 20:00',
      'Asia/Kolkata': 'false 00:30',
    };
    const source = join(__dirname, 'schedule.ts');
    const read = Object.fromEntries(
      Object.keys(zones).map((zone) => {
        const answer = execFileSync(
          process.execPath,
          [
            '--experimental-strip-types',
            '--no-warnings',
            '--input-type=module',
            '-e',
            `import { readsAsParis, hourOf, VISITOR_CLOCK } from ${JSON.stringify(pathToFileURL(source).href)};` +
              `console.log(readsAsParis(Date.UTC(2026, 10, 29, 12)), hourOf('2026-11-25T19:00:00Z', VISITOR_CLOCK));`,
          ],
          { env: { ...process.env, TZ: zone }, encoding: 'utf8' },
        );
        return [zone, answer.trim()];
      }),
    );
    expect(read).toEqual(zones);
    // jest's own zone (UTC, scripts/hermetic.mjs) is not Paris's.
    expect(readsAsParis(Date.UTC(2026, 10, 29, 12))).toBe(false);
    // Eight processes of Node: a loaded machine takes longer than jest's default.
  }, 60_000);
});
