/**
 * The figures' days are the collective's days: from midnight to midnight in Europe/Paris
 * (docs/figures.md). A day's minutes and hours are counted from its midnight in elapsed time, so
 * that the days when the clocks change have 23 or 25 hours, none twice.
 */

const ZONE = 'Europe/Paris';
const MINUTE_MS = 60_000;
const parts = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The day (YYYY-MM-DD) in Paris at `ms`, and the wall clock's minute of that day. */
function wall(ms: number): { day: string; minute: number } {
  const read: Record<string, string> = {};
  for (const part of parts.formatToParts(new Date(ms))) read[part.type] = part.value;
  return {
    day: `${read.year ?? ''}-${read.month ?? ''}-${read.day ?? ''}`,
    minute: Number(read.hour) * 60 + Number(read.minute),
  };
}

export function parisDay(ms: number): string {
  return wall(ms).day;
}

/** The instant of the first midnight in Paris after `ms`. */
export function nextParisMidnight(ms: number): number {
  const { day, minute } = wall(ms);
  let at = ms - (ms % MINUTE_MS) + (24 * 60 - minute) * MINUTE_MS;
  // On the days the clocks change, the wall clock's minutes are not the elapsed ones: move by the
  // difference until the first minute of the next day.
  for (let step = 0; step < 4; step += 1) {
    const there = wall(at);
    if (there.day === day) at += (24 * 60 - there.minute) * MINUTE_MS;
    else if (there.minute > 0) at -= there.minute * MINUTE_MS;
    else break;
  }
  return at;
}

/** The instant of the day's midnight in Paris (`day`: YYYY-MM-DD). */
export function parisDayStart(day: string): number {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  // Paris is one or two hours ahead of UTC: three hours before the UTC midnight is the day before.
  return nextParisMidnight(Date.UTC(year, month - 1, date) - 3 * 3600_000);
}

/** Minutes since the day's midnight in Paris, elapsed (0 to 1499). */
export function minuteOfDay(ms: number): number {
  return Math.floor((ms - parisDayStart(parisDay(ms))) / MINUTE_MS);
}

/** The day `count` days before `day` (YYYY-MM-DD, as a calendar). */
export function daysBefore(day: string, count: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date - count)).toISOString().slice(0, 10);
}

export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
