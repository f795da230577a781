import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { demoEventsSchema } from '@collectif/shared/content-schemas';
import ICAL from 'ical.js';
import { wallAt } from '../schedule/expand';
import { icsComponent, icsText, PARIS_VTIMEZONE } from '../schedule/ics';

/**
 * The embedded demo's events calendar (docs/events.md, « The demo »), an ICS text as Google
 * Calendar exports one (its VTIMEZONE, X-WR-TIMEZONE, TZID times, escaped and folded lines), made
 * for the demo's day from server/content/demo-events.json: past events of this year and the last,
 * coming ones within two months, one cancelled, one to be confirmed, a monthly series with one
 * occurrence moved (RECURRENCE-ID), line-ups naming residences and guests, tickets, GEO,
 * CATEGORIES, and posters as the site's own pictures (RFC 7986 IMAGE), drawn by the asset generator.
 */

export type DemoEvent = v.InferOutput<typeof demoEventsSchema>[number];

/** The demo's events, checked against the content's schema (a broken file stops the server, in French). */
export function loadDemoEvents(file: string): DemoEvent[] {
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const read = v.safeParse(demoEventsSchema, data);
  if (!read.success) {
    throw new Error(`${file} : évènements de démonstration invalides (voir demo-events.schema.json)`);
  }
  return read.output;
}

const DAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;
const pad = (n: number) => String(n).padStart(2, '0');

/** A date (UTC midnight of a calendar day), written `20261205`. */
const dateText = (date: Date) =>
  `${String(date.getUTCFullYear())}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
const plusDays = (date: Date, days: number) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days));
/** `20261205T210000`: a Paris wall time. */
const wallText = (date: Date, time: string) => `${dateText(date)}T${time.replace(':', '')}00`;

/** The nth `weekday` of a month (month from 0, may run past 11 or below 0). */
function nthWeekday(year: number, month: number, weekday: string, nth: number): Date {
  const first = new Date(Date.UTC(year, month, 1));
  const offset = (DAYS.indexOf(weekday as (typeof DAYS)[number]) - first.getUTCDay() + 7) % 7;
  return plusDays(first, offset + (nth - 1) * 7);
}

/** An event's own lines and texts (its times left out), as Google writes them; ical.js escapes the texts. */
function details(event: DemoEvent): { lines: string[]; texts: Record<string, string | string[]> } {
  const lines: string[] = [];
  if (event.geo !== undefined) lines.push(`GEO:${String(event.geo.lat)};${String(event.geo.lon)}`);
  if (event.tickets !== undefined) lines.push(`URL:${event.tickets}`);
  if (event.poster !== undefined) lines.push(`IMAGE;VALUE=URI:${event.poster}`);
  lines.push('SEQUENCE:0', `STATUS:${event.status ?? 'CONFIRMED'}`, 'TRANSP:OPAQUE');
  const texts: Record<string, string | string[]> = {
    description: event.description,
    location: event.location,
    summary: event.title,
  };
  if (event.categories !== undefined && event.categories.length > 0) texts.categories = [...event.categories];
  return { lines, texts };
}

/** DTSTART and DTEND of an event on `day`: Paris wall times (an end before its start is the next day's), or dates. */
function times(event: DemoEvent, day: Date): string[] {
  if (event.start === undefined || event.end === undefined) {
    return [`DTSTART;VALUE=DATE:${dateText(day)}`, `DTEND;VALUE=DATE:${dateText(plusDays(day, event.days ?? 1))}`];
  }
  const endDay = event.end > event.start ? day : plusDays(day, 1);
  return [
    `DTSTART;TZID=Europe/Paris:${wallText(day, event.start)}`,
    `DTEND;TZID=Europe/Paris:${wallText(endDay, event.end)}`,
  ];
}

/** The demo's events calendar for the demo's day. */
export function demoEventsIcs(events: readonly DemoEvent[], anchor: Date): string {
  const wall = wallAt(anchor.getTime(), 'Europe/Paris');
  const today = new Date(Date.UTC(wall.year, wall.month - 1, wall.day));
  const stamp = `${dateText(plusDays(today, -1))}T120000Z`;
  const calendar = icsComponent(
    'vcalendar',
    [
      'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
      'VERSION:2.0',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'X-WR-TIMEZONE:Europe/Paris',
    ],
    { 'x-wr-calname': 'Évènements (démonstration)' },
  );
  calendar.addSubcomponent(new ICAL.Component(ICAL.parse(PARIS_VTIMEZONE) as unknown[]));
  const vevent = (lines: string[], event: DemoEvent) => {
    const own = details(event);
    calendar.addSubcomponent(icsComponent('vevent', [...lines, ...own.lines], own.texts));
  };
  for (const event of events) {
    const head = [`DTSTAMP:${stamp}`, `UID:${event.id}@demo.collectif`, `CREATED:${stamp}`, `LAST-MODIFIED:${stamp}`];
    const { monthly } = event;
    if (monthly === undefined) {
      vevent([...times(event, plusDays(today, event.day ?? 0)), ...head], event);
      continue;
    }
    // A monthly series: the nth weekday of each month, from `monthsBefore` months before this one.
    const dates = Array.from({ length: monthly.count }, (_, i) =>
      nthWeekday(today.getUTCFullYear(), today.getUTCMonth() - monthly.monthsBefore + i, monthly.weekday, monthly.nth),
    );
    const [first] = dates;
    if (first === undefined) continue;
    vevent(
      [
        ...times(event, first),
        `RRULE:FREQ=MONTHLY;COUNT=${String(monthly.count)};BYDAY=${String(monthly.nth)}${monthly.weekday}`,
        ...head,
      ],
      event,
    );
    // Its first occurrence a week or more from today, moved (RECURRENCE-ID: the date it replaces).
    const moved = dates.find((date) => date.getTime() >= plusDays(today, 7).getTime());
    if (monthly.moved !== undefined && moved !== undefined && event.start !== undefined) {
      vevent(
        [
          ...times(event, plusDays(moved, monthly.moved)),
          ...head,
          `RECURRENCE-ID;TZID=Europe/Paris:${wallText(moved, event.start)}`,
        ],
        { ...event, description: `Date modifiée pour cette édition.\n\n${event.description}` },
      );
    }
  }
  return icsText(calendar);
}
