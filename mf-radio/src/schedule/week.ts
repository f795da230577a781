import { addDays, dayLabel, dayOf, readDay, scheduleRange, weekStart } from '@collectif/shared/schedule';

/**
 * The weeks of /programme (docs/schedule.md, « /programme »): Monday to Sunday in Paris, chosen
 * by `?semaine=<its Monday>`; without it, this week. The server knows the shows from the week
 * before this one to four weeks after it.
 */
export const WEEK_PARAM = 'semaine';
export const WEEKS_BEFORE = 1;
export const WEEKS_AFTER = 4;

export interface ProgrammeWeek {
  /** Its Monday (`2026-11-23`). */
  monday: string;
  /** This week's Monday. */
  current: string;
  /** Whether the schedule covers it. */
  known: boolean;
}

/** The week an address asks for at `now`; null when `semaine` is not a date. A day that is not a Monday stands for its week. */
export function readWeek(query: URLSearchParams, now: number): ProgrammeWeek | null {
  const current = weekStart(dayOf(now));
  const asked = query.get(WEEK_PARAM);
  if (asked === null) return { monday: current, current, known: true };
  const day = readDay(asked);
  if (day === null) return null;
  const monday = weekStart(day);
  const known = monday >= addDays(current, -7 * WEEKS_BEFORE) && monday <= addDays(current, 7 * WEEKS_AFTER);
  return { monday, current, known };
}

/** The query of a week's address on the programme page; this week's is the page itself (none). */
export function weekSearch(monday: string, current: string): string {
  return monday === current ? '' : `?${WEEK_PARAM}=${monday}`;
}

/** The schedule query of a week: the page's server code and its view ask the same. */
export const weekArgs = (monday: string) => scheduleRange(monday, 7);

/** « du lundi 23 au dimanche 29 novembre », « du lundi 30 novembre au dimanche 6 décembre ». */
export function weekLabel(monday: string): string {
  const sunday = addDays(monday, 6);
  const first = dayLabel(monday);
  const last = dayLabel(sunday);
  const sameMonth = monday.slice(0, 7) === sunday.slice(0, 7);
  return `du ${sameMonth ? first.replace(/ \S+$/, '') : first} au ${last}`;
}
