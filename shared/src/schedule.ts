import { useSyncExternalStore } from 'react';
import type { RootState } from './store/store';
import type { ScheduleEvent } from './types';

/**
 * The schedule's days and hours (docs/schedule.md, « What listeners see »). The calendars are kept
 * in Paris time and every time on the site is written in Paris time; days are Paris days. The
 * helpers are pure functions of an instant, so the server and the browser write the same text.
 */

/** The zone the collective's calendars are kept in, and the site's times are written in. */
export const SCHEDULE_ZONE = 'Europe/Paris';

const DAY_MS = 24 * 3600 * 1000;
const formats = new Map<string, Intl.DateTimeFormat>();

function format(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let found = formats.get(key);
  if (found === undefined) {
    found = make();
    formats.set(key, found);
  }
  return found;
}

const wallFormat = (zone: string) =>
  format(
    `wall|${zone}`,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      }),
  );

/** A wall-clock time, month from 1. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * The visitor's own clock, as a zone the helpers take: read with `Date`'s local getters, the zone
 * the browser runs in, whose name is not needed (no `Intl`: see `parisOffset`).
 */
export const VISITOR_CLOCK = 'visitor-clock';

/** The years the European Union's rule for summer time has held in Paris, and is written to hold. */
const EU_RULE_YEARS = { first: 1996, last: 2099 } as const;

/** The last Sunday of a month (0-based) at 01:00 UTC, the instant Paris's clock changes. */
function lastSundayAt1Utc(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0, 1);
  return lastDay - new Date(lastDay).getUTCDay() * DAY_MS;
}

/**
 * Paris's offset from UTC at an instant by the European Union's rule (since 1996): summer time, +2 h,
 * from the last Sunday of March to the last Sunday of October, both at 01:00 UTC; else +1 h. Null
 * outside the rule's years, where `Intl` answers. Written by hand because a page's first `Intl`
 * object starts ICU, tens of milliseconds of a phone's main thread in one piece
 * (docs/first-screen.md, « Work after the paint »), and every page writes Paris's hours and days;
 * `schedule.test.ts` holds it to `Intl`'s answer every five hours of the years it covers and at each
 * minute around each change.
 */
export function parisOffset(instant: number): number | null {
  const year = new Date(instant).getUTCFullYear();
  if (!(year >= EU_RULE_YEARS.first && year <= EU_RULE_YEARS.last)) return null;
  const summer = instant >= lastSundayAt1Utc(year, 2) && instant < lastSundayAt1Utc(year, 9);
  return (summer ? 2 : 1) * 3600_000;
}

/**
 * What the wall clock of `zone` shows at an instant (to the second): the site's one reading of a
 * zone's clock, for the pages and the server's calendars alike. Paris's is read by its rule
 * (`parisOffset`), any other zone's through `Intl`. An unknown zone throws (RangeError).
 */
export function wallAt(instant: number, zone: string = SCHEDULE_ZONE): WallTime {
  // The visitor's clock: its offset from Date (to the minute, as every zone's since 1900).
  const offset =
    zone === VISITOR_CLOCK
      ? -new Date(instant).getTimezoneOffset() * 60_000
      : zone === SCHEDULE_ZONE
        ? parisOffset(instant)
        : null;
  if (offset !== null) {
    const wall = new Date(Math.floor(instant / 1000) * 1000 + offset);
    return {
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
      second: wall.getUTCSeconds(),
    };
  }
  const parts: Record<string, number> = {};
  for (const part of wallFormat(zone).formatToParts(new Date(instant))) parts[part.type] = Number(part.value);
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** The zone's offset from UTC at an instant, in ms (Paris: 1 h in winter, 2 h in summer). */
export function zoneOffset(instant: number, zone: string = SCHEDULE_ZONE): number {
  const { year, month, day, hour, minute } = wallAt(instant, zone);
  return Date.UTC(year, month - 1, day, hour, minute) - Math.floor(instant / 60_000) * 60_000;
}

const pad = (value: number) => String(value).padStart(2, '0');
const dayText = (utcMidnight: number) => {
  const date = new Date(utcMidnight);
  return `${String(date.getUTCFullYear())}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
};

/** The day (`2026-11-25`) an instant falls on, in the zone. */
export function dayOf(instant: number, zone: string = SCHEDULE_ZONE): string {
  return dayText(instant + zoneOffset(instant, zone));
}

/** A day as written in an address (`2026-11-25`), or null when it is not a real date. */
export function readDay(text: string | null | undefined): string | null {
  if (text === null || text === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const utc = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(utc) || dayText(utc) !== text ? null : text;
}

const utcOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The day `count` days after (or before) `day`. */
export function addDays(day: string, count: number): string {
  return dayText(utcOf(day) + count * DAY_MS);
}

/** The Monday of the week `day` is in. */
export function weekStart(day: string): string {
  const weekday = (new Date(utcOf(day)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The instant a day begins in the zone (its midnight; the days of a change of time have 23 or 25 hours). */
export function dayStart(day: string, zone: string = SCHEDULE_ZONE): number {
  const wall = utcOf(day);
  const guess = wall - zoneOffset(wall, zone);
  return wall - zoneOffset(guess, zone);
}

/** `20:00`: an instant's time in the zone, from its wall clock (`wallAt`). An unreadable instant throws (RangeError). */
export function hourOf(instant: number | string, zone: string = SCHEDULE_ZONE): string {
  const time = typeof instant === 'string' ? Date.parse(instant) : instant;
  if (!Number.isFinite(time)) throw new RangeError(`Instant illisible : ${String(instant)}`);
  const { hour, minute } = wallAt(time, zone);
  return `${pad(hour)}:${pad(minute)}`;
}

/** French names of the days, from Sunday, and of the months, long and as `Intl`'s short form writes them. */
export const FRENCH_DAYS = ['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi'] as const;
export const FRENCH_MONTHS = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
] as const;
export const FRENCH_MONTHS_SHORT = [
  'janv.',
  'févr.',
  'mars',
  'avr.',
  'mai',
  'juin',
  'juil.',
  'août',
  'sept.',
  'oct.',
  'nov.',
  'déc.',
] as const;

/**
 * A day (`2026-12-05`) in French, as `Intl`'s `fr-FR` long forms write it: `5 décembre`, with its
 * weekday (`samedi 5 décembre`) and its year (`5 décembre 2026`) when asked. The names are written
 * here, no `Intl` (see `parisOffset`).
 */
export function frenchDay(day: string, { weekday = false, year = false } = {}): string {
  const date = new Date(utcOf(day));
  const text = `${String(date.getUTCDate())} ${FRENCH_MONTHS[date.getUTCMonth()] ?? ''}`;
  return `${weekday ? `${FRENCH_DAYS[date.getUTCDay()] ?? ''} ` : ''}${text}${year ? ` ${String(date.getUTCFullYear())}` : ''}`;
}

/** `mercredi 25 novembre`: a day, in French. */
export function dayLabel(day: string): string {
  return frenchDay(day, { weekday: true });
}

/** `Aujourd'hui`, `Demain`, else `mercredi 25 novembre`, from the day of `now`. */
export function relativeDayLabel(day: string, now: number): string {
  const today = dayOf(now);
  if (day === today) return 'Aujourd’hui';
  if (day === addDays(today, 1)) return 'Demain';
  return dayLabel(day);
}

const startOf = (event: ScheduleEvent) => Date.parse(event.start);
const endOf = (event: ScheduleEvent) => Date.parse(event.end);

/**
 * The show on air at `now`: the one that started last among those running (from its first
 * minute, included, to its end, excluded). Whole-day events are not « on air ».
 */
export function showOnAir(events: readonly ScheduleEvent[], now: number): ScheduleEvent | null {
  let found: ScheduleEvent | null = null;
  for (const event of events) {
    if (event.allDay || startOf(event) > now || endOf(event) <= now) continue;
    if (found === null || startOf(event) >= startOf(found)) found = event;
  }
  return found;
}

/** The shows that start after `now`, in order, at most `count`; whole-day events are left out. */
export function nextShows(events: readonly ScheduleEvent[], now: number, count: number): ScheduleEvent[] {
  return events
    .filter((event) => !event.allDay && startOf(event) > now)
    .sort((a, b) => startOf(a) - startOf(b))
    .slice(0, count);
}

/** The shows of each day from `first` to `last` (Paris days); an event is under the day it starts. */
export function showsByDay(
  events: readonly ScheduleEvent[],
  first: string,
  days: number,
): { day: string; events: ScheduleEvent[] }[] {
  const columns = Array.from({ length: days }, (_, index) => ({
    day: addDays(first, index),
    events: [] as ScheduleEvent[],
  }));
  for (const event of events) {
    const day = event.allDay ? dayOf(startOf(event) + 12 * 3600 * 1000) : dayOf(startOf(event));
    columns.find((column) => column.day === day)?.events.push(event);
  }
  return columns;
}

/**
 * The days from today that the home's block and the live player show (Paris days). One range, so
 * the page asks for it once and both read the same answer.
 */
export const UPCOMING_DAYS = 3;

/** The schedule query of the days to come from the day of `now`: the home's block and the player. */
export const upcomingRange = (now: number) => scheduleRange(dayOf(now), UPCOMING_DAYS);

/** The arguments of the schedule query for `days` Paris days from `first`. */
export function scheduleRange(first: string, days: number): { from: string; to: string } {
  return {
    from: new Date(dayStart(first)).toISOString(),
    to: new Date(dayStart(addDays(first, days))).toISOString(),
  };
}

/**
 * When the newest schedule in the store arrived: on the server, while it renders; in the browser
 * at hydration, the same instant, handed over with the answers (docs/rendering.md). Undefined when
 * the store has none.
 */
export function selectScheduleArrival(state: RootState): number | undefined {
  let newest: number | undefined;
  for (const query of Object.values(state.api.queries)) {
    if (query?.endpointName !== 'schedule' || query.fulfilledTimeStamp === undefined) continue;
    if (newest === undefined || query.fulfilledTimeStamp > newest) newest = query.fulfilledTimeStamp;
  }
  return newest;
}

/** The schedule's clock moves in steps of 30 s: a show starts and ends on a whole minute, so « on air » is exact. */
const CLOCK_STEP_MS = 30_000;
const clockNow = () => Math.floor(Date.now() / CLOCK_STEP_MS) * CLOCK_STEP_MS;
const subscribeClock = (changed: () => void) => {
  const timer = setInterval(changed, 5_000);
  return () => {
    clearInterval(timer);
  };
};
const subscribeNever = () => () => undefined;

/**
 * The clock a schedule is shown with. On the server and while the browser hydrates, it is `start`:
 * the instant the server's answer arrived, so that both write the same « En ce moment »; then the
 * visitor's clock, in steps of 30 s.
 */
export function useScheduleClock(start: number | undefined): number {
  return useSyncExternalStore(subscribeClock, clockNow, () => start ?? clockNow());
}

/** Whether the page is shown in a browser and hydrated: false on the server and while hydrating. */
export function useShown(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}

/**
 * Read once per page: React asks for it at every render of every schedule on the page, and making a
 * `DateTimeFormat` to read it was a sixth of the home page's longest task after the paint.
 */
let visitorZone: string | null | undefined;
const ownZone = () => {
  if (visitorZone === undefined) {
    // A visitor whose clock reads as Paris's all year (Paris, Brussels, Berlin…) writes the same times:
    // null. Others' times are read on their own clock. Both from the browser's own offsets and
    // getters, without starting ICU (see `parisOffset`).
    visitorZone = readsAsParis(Date.now()) ? null : VISITOR_CLOCK;
  }
  return visitorZone;
};

let zoneName: string | undefined;
/**
 * The name of the visitor's zone (`America/New_York`), for the pages that say it beside their
 * hours: read through `Intl`, so only there, and only once `useVisitorZone` has found a clock that
 * is not Paris's (see `parisOffset`).
 */
export function visitorZoneName(): string {
  zoneName ??= new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zoneName;
}

/**
 * Whether this browser's clock reads as Paris's at noon UTC on each day of the coming year and at
 * each hour of the days Paris's clock changes on: `Date`'s own offsets, which need no ICU.
 */
export function readsAsParis(now: number): boolean {
  const sameAt = (instant: number) => {
    const paris = parisOffset(instant);
    return paris !== null && -new Date(instant).getTimezoneOffset() * 60_000 === paris;
  };
  const noon = Math.floor(now / DAY_MS) * DAY_MS + 12 * 3600_000;
  for (let day = 0; day <= 366; day += 1) if (!sameAt(noon + day * DAY_MS)) return false;
  const year = new Date(now).getUTCFullYear();
  for (const change of [2, 9].flatMap((month) => [year, year + 1].map((y) => lastSundayAt1Utc(y, month)))) {
    for (let hour = -24; hour <= 24; hour += 1) if (!sameAt(change + hour * 3600_000)) return false;
  }
  return true;
}

/**
 * The visitor's clock (`VISITOR_CLOCK`) when it does not read as Paris's, once the page is shown;
 * null on the server and during hydration, so both write the same text.
 */
export function useVisitorZone(): string | null {
  return useSyncExternalStore(subscribeNever, ownZone, () => null);
}

/** ` · 14:00 chez vous` when the visitor's zone writes another time for this instant; else ''. */
export function visitorTime(instant: string, zone: string | null): string {
  if (zone === null) return '';
  const time = Date.parse(instant);
  const own = hourOf(time, zone);
  return own === hourOf(time) ? '' : own;
}

/** An instant as ISO 8601 with the zone's offset: `2026-11-25T20:00:00+01:00` (for JSON-LD). */
export function zonedIso(instant: number | string, zone: string = SCHEDULE_ZONE): string {
  const time = typeof instant === 'string' ? Date.parse(instant) : instant;
  const offset = zoneOffset(time, zone);
  const local = new Date(time + offset).toISOString().slice(0, 19);
  const minutes = Math.abs(offset) / 60_000;
  return `${local}${offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
