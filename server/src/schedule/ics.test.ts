import ICAL from 'ical.js';
import { calendarIcs, scheduleIcs } from './ics';
import { demoScheduleIcs } from './demo';
import { FALLBACK_RESIDENCES } from './demo-residences';

// Every calendar the site writes is written by ical.js (docs/schedule.md, « Calendar files »): its
// texts escaped, its lines folded at 75 octets whatever their letters, read back as they were.

const octets = (text: string) => text.split('\r\n').map((line) => Buffer.byteLength(line, 'utf8'));

describe('the calendars the site writes', () => {
  it('fold every line at 75 octets, accented texts included, and read back the same texts', () => {
    const title = 'Émission spéciale · « Nuits Blanches » : sélection, dubplates; invités\net surprises — '.repeat(3);
    const text = calendarIcs(
      [
        {
          uid: 'une@collectif',
          title,
          start: '2026-11-25T19:00:00.000Z',
          end: '2026-11-25T21:00:00.000Z',
          allDay: false,
          url: null,
        },
      ],
      { name: 'Programme', subscription: false, stamp: Date.UTC(2026, 10, 22), product: 'Collectif', contents: 'Test' },
    );
    expect(Math.max(...octets(text))).toBeLessThanOrEqual(75);
    expect(octets(text).filter((length) => length > 70).length).toBeGreaterThan(3);
    const event = new ICAL.Component(ICAL.parse(text) as unknown[]).getFirstSubcomponent('vevent');
    expect(event?.getFirstPropertyValue('summary')).toBe(title);
  });

  it('writes the demo’s calendar as Google does, with ical.js: TZID times, folded lines, escaped texts', () => {
    const residences = FALLBACK_RESIDENCES;
    const text = demoScheduleIcs(residences, new Date(Date.UTC(2026, 10, 22, 10)));
    expect(Math.max(...octets(text))).toBeLessThanOrEqual(75);
    expect(text).toMatch(/^DTSTART;TZID=Europe\/Paris:\d{8}T\d{6}\r$/m);
    const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
    expect(calendar.getFirstPropertyValue('x-wr-timezone')).toBe('Europe/Paris');
    const summaries = calendar.getAllSubcomponents('vevent').map((event) => event.getFirstPropertyValue('summary'));
    const first = residences[0];
    expect(summaries).toContain(`${first?.artist ?? ''} · ${first?.show ?? ''}`);
    expect(summaries).toContain(`${residences[1]?.artist ?? ''} · ${residences[1]?.show ?? ''} (spéciale)`);
  });

  it('write a reminder before each show when asked, its text escaped and folded, none for a whole day', () => {
    const title = 'Fête, danse; et « nuit » — Toulouse · '.repeat(3);
    const text = scheduleIcs(
      [
        {
          id: 'a@1',
          title,
          start: '2026-11-25T19:00:00.000Z',
          end: '2026-11-25T21:00:00.000Z',
          allDay: false,
          residence: null,
        },
        {
          id: 'b@2',
          title: 'Journée',
          start: '2026-11-27T23:00:00.000Z',
          end: '2026-11-28T23:00:00.000Z',
          allDay: true,
          residence: null,
        },
      ],
      {
        name: 'Suivi',
        subscription: true,
        origin: 'https://radio.example.org',
        residencePath: null,
        stamp: Date.UTC(2026, 10, 22),
        product: 'Collectif Garonne',
        reminderMinutes: 15,
      },
    );
    expect(Math.max(...octets(text))).toBeLessThanOrEqual(75);
    const [show, day] = new ICAL.Component(ICAL.parse(text) as unknown[]).getAllSubcomponents('vevent');
    const alarms = show?.getAllSubcomponents('valarm') ?? [];
    expect(alarms).toHaveLength(1);
    const [alarm] = alarms;
    expect(alarm?.getFirstPropertyValue('action')).toBe('DISPLAY');
    expect(String(alarm?.getFirstPropertyValue('trigger'))).toBe('-PT15M');
    expect(alarm?.getFirstPropertyValue('description')).toBe(
      `${title} commence dans 15 minutes sur Collectif Garonne.`,
    );
    expect(text).toContain('\r\nTRIGGER:-PT15M\r\n');
    expect(day?.getAllSubcomponents('valarm')).toEqual([]);

    // Asked for nothing, the programme's files have none.
    const plain = scheduleIcs(
      [
        {
          id: 'a@1',
          title,
          start: '2026-11-25T19:00:00.000Z',
          end: '2026-11-25T21:00:00.000Z',
          allDay: false,
          residence: null,
        },
      ],
      {
        name: 'Programme',
        subscription: true,
        origin: 'https://radio.example.org',
        residencePath: null,
        stamp: Date.UTC(2026, 10, 22),
        product: 'Collectif Garonne',
      },
    );
    expect(plain).not.toContain('VALARM');
  });
});
