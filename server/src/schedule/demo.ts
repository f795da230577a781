import type { DemoResidence } from './demo-residences';
import { icsComponent, icsText } from './ics';

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

export function demoScheduleIcs(residences: readonly DemoResidence[], anchor: Date): string {
  const start = seriesStart(anchor);
  const events: { lines: string[]; summary: string }[] = [];
  const paris = (name: string, date: Date, hour: number, minute = 0) =>
    `${name};TZID=Europe/Paris:${wall(date, hour, minute)}`;
  residences.forEach((residence, index) => {
    const title = `${residence.artist} · ${residence.show}`;
    const uid = `UID:${residence.id}@demo.collectif`;
    if (index < 14) {
      const day = dayOf(start, index % 7);
      const hour = index < 7 ? 20 : 22;
      const lines = [
        uid,
        paris('DTSTART', day, hour),
        paris('DTEND', day, hour + 2),
        `RRULE:FREQ=WEEKLY;BYDAY=${DAYS[index % 7] ?? 'MO'}`,
      ];
      // The first show is cancelled next week (EXDATE); the second is moved half an hour later in two weeks.
      if (index === 0) lines.push(paris('EXDATE', dayOf(day, 77), hour));
      events.push({ lines, summary: title });
      if (index === 1) {
        const moved = dayOf(day, 84);
        events.push({
          lines: [
            uid,
            paris('RECURRENCE-ID', moved, hour),
            paris('DTSTART', moved, hour, 30),
            paris('DTEND', moved, hour + 2),
          ],
          summary: `${title} (spéciale)`,
        });
      }
      return;
    }
    // Monthly: 42 shows on 14 slots (seven days, 16:00 and 18:00), the 1st to 3rd such day of a month.
    const slot = (index - 14) % 14;
    const nth = Math.floor((index - 14) / 14) + 1;
    const hour = slot < 7 ? 16 : 18;
    const day = dayOf(start, slot % 7);
    events.push({
      lines: [
        uid,
        paris('DTSTART', day, hour),
        paris('DTEND', day, hour + 2),
        `RRULE:FREQ=MONTHLY;BYDAY=${String(nth)}${DAYS[slot % 7] ?? 'MO'}`,
      ],
      summary: title,
    });
  });
  // Guests, once each, in the afternoon.
  for (const [days, name] of [
    [1, 'Invitée : Lumière Noire en direct'],
    [8, 'Invité : Bassin Versant, session live'],
    [15, 'Invitée : Kiko Lumen, carte blanche'],
  ] as const) {
    const day = dayOf(anchor, days);
    events.push({
      lines: [`UID:invite-${String(days)}@demo.collectif`, paris('DTSTART', day, 14), paris('DTEND', day, 15)],
      summary: name,
    });
  }
  const stamp = `DTSTAMP:${wall(anchor, 0)}Z`;
  const calendar = icsComponent(
    'vcalendar',
    [
      'VERSION:2.0',
      'PRODID:-//Collectif Garonne//Agenda de démonstration//FR',
      'CALSCALE:GREGORIAN',
      'X-WR-TIMEZONE:Europe/Paris',
    ],
    { 'x-wr-calname': 'Radio (démonstration)' },
  );
  for (const { lines, summary } of events)
    calendar.addSubcomponent(icsComponent('vevent', [stamp, ...lines], { summary }));
  return icsText(calendar);
}
