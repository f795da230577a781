import ICAL from 'ical.js';
import { expandCalendar, wallToInstant } from './expand';

// The calendars as instants (docs/schedule.md): recurrences in Paris time across the changes of
// time, events set in another zone, exceptions, overridden occurrences, and hostile files.

const calendar = (...events: string[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Collectif//Test//FR',
    'X-WR-TIMEZONE:Europe/Paris',
    ...events,
    'END:VCALENDAR',
  ].join('\r\n');
const event = (...lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'].join('\r\n');
const window = (from: string, to: string) => ({
  from: Date.parse(from),
  to: Date.parse(to),
  defaultZone: 'Europe/Paris',
});
const starts = (text: string, from: string, to: string) =>
  expandCalendar(text, window(from, to)).occurrences.map((o) => o.start);

describe('a weekly show at 20:00 in Paris', () => {
  const weekly = calendar(
    event(
      'UID:synapses@collectif',
      'DTSTART;TZID=Europe/Paris:20261011T200000',
      'DTEND;TZID=Europe/Paris:20261011T220000',
      'RRULE:FREQ=WEEKLY;BYDAY=SU',
      'SUMMARY:Axonberg · Synapses',
    ),
  );

  it('stays at 20:00 Paris across the last Sunday of October (UTC+2, then UTC+1)', () => {
    expect(starts(weekly, '2026-10-17T00:00:00Z', '2026-11-02T00:00:00Z')).toEqual([
      '2026-10-18T18:00:00.000Z',
      '2026-10-25T19:00:00.000Z',
      '2026-11-01T19:00:00.000Z',
    ]);
  });

  it('stays at 20:00 Paris across the last Sunday of March (UTC+1, then UTC+2)', () => {
    expect(starts(weekly, '2027-03-20T00:00:00Z', '2027-04-05T00:00:00Z')).toEqual([
      '2027-03-21T19:00:00.000Z',
      '2027-03-28T18:00:00.000Z',
      '2027-04-04T18:00:00.000Z',
    ]);
  });

  it('keeps each occurrence’s length, and only those overlapping the window', () => {
    const [first, ...others] = expandCalendar(
      weekly,
      window('2026-10-18T19:30:00Z', '2026-10-26T00:00:00Z'),
    ).occurrences;
    // The one in progress at the window's start is in it.
    expect(first).toMatchObject({ start: '2026-10-18T18:00:00.000Z', end: '2026-10-18T20:00:00.000Z', allDay: false });
    expect(others.map((o) => o.title)).toEqual(['Axonberg · Synapses']);
  });
});

it('reads an event set in New York time at the right Paris time, in the week the two zones differ', () => {
  const text = calendar(
    event(
      'UID:invite@collectif',
      'DTSTART;TZID=America/New_York:20261027T140000',
      'DTEND;TZID=America/New_York:20261027T150000',
      'SUMMARY:Invitée de Brooklyn',
    ),
  );
  // New York is still on summer time (UTC−4) while Paris is on winter time (UTC+1): 19:00 in Paris.
  const [guest] = expandCalendar(text, window('2026-10-26T00:00:00Z', '2026-10-29T00:00:00Z')).occurrences;
  expect(guest?.start).toBe('2026-10-27T18:00:00.000Z');
  expect(new Date(guest?.start ?? '').toLocaleString('fr-FR', { timeZone: 'Europe/Paris', timeStyle: 'short' })).toBe(
    '19:00',
  );
});

it('leaves out the occurrences an EXDATE removes, and moves those a RECURRENCE-ID overrides', () => {
  const text = calendar(
    event(
      'UID:velours@collectif',
      'DTSTART;TZID=Europe/Paris:20261104T210000',
      'DTEND;TZID=Europe/Paris:20261104T230000',
      'RRULE:FREQ=WEEKLY;COUNT=4',
      'EXDATE;TZID=Europe/Paris:20261111T210000',
      'SUMMARY:Velours Club',
    ),
    event(
      'UID:velours@collectif',
      'RECURRENCE-ID;TZID=Europe/Paris:20261118T210000',
      'DTSTART;TZID=Europe/Paris:20261118T220000',
      'DTEND;TZID=Europe/Paris:20261119T000000',
      'SUMMARY:Velours Club (spéciale)',
    ),
  );
  const shows = expandCalendar(text, window('2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z')).occurrences;
  expect(shows.map((o) => [o.start, o.title])).toEqual([
    ['2026-11-04T20:00:00.000Z', 'Velours Club'],
    ['2026-11-18T21:00:00.000Z', 'Velours Club (spéciale)'],
    ['2026-11-25T20:00:00.000Z', 'Velours Club'],
  ]);
});

it('places an all-day event at midnight in the calendar’s zone', () => {
  const text = calendar(
    event('UID:fete@collectif', 'DTSTART;VALUE=DATE:20261121', 'DTEND;VALUE=DATE:20261122', 'SUMMARY:Fête'),
  );
  expect(expandCalendar(text, window('2026-11-20T00:00:00Z', '2026-11-23T00:00:00Z')).occurrences).toEqual([
    expect.objectContaining({ start: '2026-11-20T23:00:00.000Z', end: '2026-11-21T23:00:00.000Z', allDay: true }),
  ]);
});

it('turns Paris wall times into instants: the skipped March hour moves forward, the repeated October hour is winter time', () => {
  const at = (month: number, day: number, hour: number, minute: number) =>
    new Date(wallToInstant({ year: 2027, month, day, hour, minute, second: 0 }, 'Europe/Paris')).toISOString();
  expect(at(3, 28, 2, 30)).toBe('2027-03-28T01:30:00.000Z');
  expect(at(10, 31, 2, 30)).toBe('2027-10-31T01:30:00.000Z');
  expect(at(7, 14, 20, 0)).toBe('2027-07-14T18:00:00.000Z');
});

describe('a hostile or broken calendar', () => {
  it('stops an unbounded series (FREQ=SECONDLY) and a COUNT of a billion, and says so', () => {
    const text = calendar(
      event('UID:a@x', 'DTSTART:20200101T000000Z', 'DURATION:PT1S', 'RRULE:FREQ=SECONDLY', 'SUMMARY:Sans fin'),
      event(
        'UID:b@x',
        'DTSTART:20200101T000000Z',
        'DURATION:PT1M',
        'RRULE:FREQ=MINUTELY;COUNT=1000000000',
        'SUMMARY:Milliard',
      ),
    );
    const { occurrences, problems } = expandCalendar(text, window('2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z'));
    expect(occurrences).toEqual([]);
    expect(problems).toEqual([
      '« Sans fin » : plus de 5000 répétitions, la suite est ignorée',
      '« Milliard » : plus de 5000 répétitions, la suite est ignorée',
    ]);
  });

  it('reads at most so many events and occurrences', () => {
    const many = calendar(
      ...Array.from({ length: 120 }, (_, i) =>
        event(`UID:${String(i)}@x`, 'DTSTART:20261101T100000Z', 'DURATION:PT1H', `SUMMARY:Émission ${String(i)}`),
      ),
    );
    const { occurrences, problems } = expandCalendar(many, {
      ...window('2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z'),
      maxEvents: 100,
      maxOccurrences: 50,
    });
    expect(occurrences).toHaveLength(50);
    expect(problems).toEqual([
      '120 évènements : seuls les 100 premiers sont lus',
      'plus de 50 émissions dans la fenêtre : la suite est ignorée',
    ]);
  });

  it('reads a time in an unknown zone at the calendar’s hour, and says so', () => {
    const text = calendar(
      event('UID:z@x', 'DTSTART;TZID=Romance Standard Time:20261105T200000', 'DURATION:PT1H', 'SUMMARY:Depuis Outlook'),
    );
    const { occurrences, problems } = expandCalendar(text, window('2026-11-01T00:00:00Z', '2026-11-10T00:00:00Z'));
    expect(occurrences.map((o) => o.start)).toEqual(['2026-11-05T19:00:00.000Z']);
    expect(problems).toEqual([
      'fuseau horaire inconnu « Romance Standard Time » : heures lues à l’heure de Europe/Paris',
    ]);
  });

  it('refuses what is not a calendar, or too large, in French', () => {
    const range = window('2026-11-01T00:00:00Z', '2026-11-10T00:00:00Z');
    expect(() => expandCalendar('<html>pas un calendrier</html>', range)).toThrow(/^calendrier illisible/);
    expect(() => expandCalendar('BEGIN:VCARD\r\nEND:VCARD', range)).toThrow('ce document n’est pas un calendrier');
    expect(() => expandCalendar(calendar(), { ...range, maxLength: 10 })).toThrow(/^calendrier trop grand/);
  });

  it('gives occurrences that ical.js reads back as the same instants', () => {
    const text = calendar(
      event('UID:r@x', 'DTSTART;TZID=Europe/Paris:20261025T200000', 'DURATION:PT2H', 'SUMMARY:Retour'),
    );
    const [show] = expandCalendar(text, window('2026-10-24T00:00:00Z', '2026-10-27T00:00:00Z')).occurrences;
    expect(
      ICAL.Time.fromDateTimeString(show?.start.replace('.000Z', 'Z') ?? '')
        .toJSDate()
        .toISOString(),
    ).toBe('2026-10-25T19:00:00.000Z');
  });
});
