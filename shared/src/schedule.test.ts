import {
  addDays,
  dayLabel,
  dayOf,
  dayStart,
  hourOf,
  nextShows,
  readDay,
  relativeDayLabel,
  scheduleRange,
  showOnAir,
  showsByDay,
  visitorTime,
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
