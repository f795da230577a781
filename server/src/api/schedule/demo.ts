import type { DemoResidence } from '../demo/residences';

/**
 * The embedded demo's calendar (docs/schedule.md, « The demo »), an ICS text as Google gives one,
 * made from the residences (the content file's 56): the first 14 weekly, in the evening slots (20:00
 * and 22:00, a day each); the others monthly (the nth Monday to Sunday of the month, at 16:00 or
 * 18:00); three guests once; one weekly show cancelled once (EXDATE) and another moved once
 * (RECURRENCE-ID). Every series starts ten weeks before the demo's day, so that the last change of
 * time is among its occurrences from late October to early January and from late March to early June.
 */

const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

/** `20261123T200000`: a Paris wall time in ICS form. */
function wall(date: Date, hour: number, minute = 0): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(date.getUTCFullYear())}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T${pad(hour)}${pad(minute)}00`;
}

const dayOf = (anchor: Date, days: number) =>
  new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth(), anchor.getUTCDate() + days));

/** The Monday of the anchor's week, ten weeks earlier. */
function seriesStart(anchor: Date): Date {
  const monday = dayOf(anchor, -((anchor.getUTCDay() + 6) % 7));
  return dayOf(monday, -70);
}

/** Lines folded at 75 octets, as RFC 5545 wants (Google folds them too). */
export function fold(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest, 'utf8') > 74) {
    let cut = 74;
    while (Buffer.byteLength(rest.slice(0, cut), 'utf8') > 74) cut -= 1;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  parts.push(rest);
  return parts.join('\r\n ');
}

/** A TEXT value as RFC 5545 writes it: backslashes, semicolons, commas and line breaks escaped. */
export const escapeText = (value: string): string =>
  value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

export function demoScheduleIcs(residences: readonly DemoResidence[], anchor: Date): string {
  const start = seriesStart(anchor);
  const events: string[][] = [];
  const paris = (name: string, date: Date, hour: number, minute = 0) =>
    `${name};TZID=Europe/Paris:${wall(date, hour, minute)}`;
  residences.forEach((residence, index) => {
    const title = `SUMMARY:${escapeText(`${residence.artist} · ${residence.show}`)}`;
    const uid = `UID:${residence.id}@demo.collectif`;
    if (index < 14) {
      const day = dayOf(start, index % 7);
      const hour = index < 7 ? 20 : 22;
      const lines = [
        uid,
        paris('DTSTART', day, hour),
        paris('DTEND', day, hour + 2),
        `RRULE:FREQ=WEEKLY;BYDAY=${DAYS[index % 7] ?? 'MO'}`,
        title,
      ];
      // The first show is cancelled next week (EXDATE); the second is moved half an hour later in two weeks.
      if (index === 0) lines.push(paris('EXDATE', dayOf(day, 77), hour));
      events.push(lines);
      if (index === 1) {
        const moved = dayOf(day, 84);
        events.push([
          uid,
          paris('RECURRENCE-ID', moved, hour),
          paris('DTSTART', moved, hour, 30),
          paris('DTEND', moved, hour + 2),
          `SUMMARY:${escapeText(`${residence.artist} · ${residence.show} (spéciale)`)}`,
        ]);
      }
      return;
    }
    // Monthly: 42 shows on 14 slots (seven days, 16:00 and 18:00), the 1st to 3rd such day of a month.
    const slot = (index - 14) % 14;
    const nth = Math.floor((index - 14) / 14) + 1;
    const hour = slot < 7 ? 16 : 18;
    const day = dayOf(start, slot % 7);
    events.push([
      uid,
      paris('DTSTART', day, hour),
      paris('DTEND', day, hour + 2),
      `RRULE:FREQ=MONTHLY;BYDAY=${String(nth)}${DAYS[slot % 7] ?? 'MO'}`,
      title,
    ]);
  });
  // Guests, once each, in the afternoon.
  for (const [days, name] of [
    [1, 'Invitée : Lumière Noire en direct'],
    [8, 'Invité : Bassin Versant, session live'],
    [15, 'Invitée : Kiko Lumen, carte blanche'],
  ] as const) {
    const day = dayOf(anchor, days);
    events.push([
      `UID:invite-${String(days)}@demo.collectif`,
      paris('DTSTART', day, 14),
      paris('DTEND', day, 15),
      `SUMMARY:${escapeText(name)}`,
    ]);
  }
  const stamp = `DTSTAMP:${wall(anchor, 0)}Z`;
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Collectif Garonne//Agenda de démonstration//FR',
    'CALSCALE:GREGORIAN',
    'X-WR-CALNAME:Radio (démonstration)',
    'X-WR-TIMEZONE:Europe/Paris',
    ...events.flatMap((lines) => ['BEGIN:VEVENT', stamp, ...lines, 'END:VEVENT']),
    'END:VCALENDAR',
    '',
  ]
    .map(fold)
    .join('\r\n');
}
