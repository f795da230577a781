// Calendars for the schedule's tests and bench/schedule.mjs (not a test file: imported by them).

const DAY = 24 * 3600 * 1000;
const pad = (n: number) => String(n).padStart(2, '0');
const stamp = (t: number) => {
  const d = new Date(t);
  return `${String(d.getUTCFullYear())}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00Z`;
};

/**
 * A hostile calendar: 50,000 one-off events of an hour (about 5 MB), hourly from 200 days before
 * `around`.
 */
export function hugeCalendar(around: number): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//FR',
    ...Array.from({ length: 50_000 }, (_, i) =>
      [
        'BEGIN:VEVENT',
        `UID:${String(i)}@test`,
        `DTSTART:${stamp(around - 200 * DAY + i * 3600 * 1000)}`,
        'DURATION:PT1H',
        `SUMMARY:Émission ${String(i)}`,
        'END:VEVENT',
      ].join('\r\n'),
    ),
    'END:VCALENDAR',
  ].join('\r\n');
}

/** A calendar of these VEVENTs (each given as its lines). */
export function calendarOf(...events: string[][]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//FR',
    'X-WR-TIMEZONE:Europe/Paris',
    ...events.flatMap((lines) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT']),
    'END:VCALENDAR',
  ].join('\r\n');
}
