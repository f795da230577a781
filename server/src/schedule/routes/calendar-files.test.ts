import ICAL from 'ical.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { ApiError } from '@collectif/shared';
import { siteConfig } from '@collectif/shared/config';
import { buildApi, manualClock, testConfig } from '../../api/testing/fixtures';
import { startFakeUpstream, type FakeUpstream } from '../../api/testing/fake-upstream';
import { occurrenceUid } from '../ics';
import { calendarOf } from '../test-calendars';

// The schedule as calendar files (docs/schedule.md, « Calendar files (.ics) »): GET
// /api/schedule/event.ics?id= and GET /api/schedule.ics?residence=, read back with ical.js.

jest.setTimeout(30_000);

const ORIGIN = 'https://radio.example.org';

interface Schedule {
  known: { from: string; to: string };
  events: { id: string; title: string; start: string; end: string; allDay: boolean; residence: string | null }[];
}

/** A calendar file read back: its VEVENTs, and the zone its VTIMEZONE describes. */
function read(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const vtimezone = calendar.getFirstSubcomponent('vtimezone');
  if (vtimezone === null) throw new Error('pas de VTIMEZONE');
  const zone = new ICAL.Timezone(vtimezone);
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
  /** A time of the file as an instant, converted by ical.js with the file's VTIMEZONE. */
  const instant = (time: ICAL.Time) =>
    ICAL.Time.fromData(
      {
        year: time.year,
        month: time.month,
        day: time.day,
        hour: time.hour,
        minute: time.minute,
        second: time.second,
        isDate: time.isDate,
      },
      zone,
    )
      .toJSDate()
      .toISOString();
  return { calendar, zone, events, instant };
}

const eventIcs = (app: FastifyInstance, id: string) =>
  app.inject({ url: `/api/schedule/event.ics?id=${encodeURIComponent(id)}` });

describe('the demo schedule’s calendar files', () => {
  // Five days before the last Sunday of October: the expanded window holds both sides of the change.
  const day = new Date('2026-10-20T12:00:00Z');
  let app: FastifyInstance;
  let axonberg: Schedule['events'];

  beforeAll(async () => {
    app = await buildApi({ config: testConfig(), now: () => day.getTime(), demoAnchor: day }, { siteOrigin: ORIGIN });
    const res = await app.inject({
      url: '/api/schedule?residence=axonberg&from=2026-10-06T00:00:00Z&to=2026-11-10T00:00:00Z',
    });
    axonberg = res.json<Schedule>().events;
  });
  afterAll(async () => {
    await app.close();
  });

  it('writes one show at 20:00 Paris time on both sides of the change of October, with its zone', async () => {
    const summer = axonberg.find((event) => event.start.startsWith('2026-10-21'));
    const winter = axonberg.find((event) => event.start.startsWith('2026-10-28'));
    expect([summer?.start, winter?.start]).toEqual(['2026-10-21T18:00:00.000Z', '2026-10-28T19:00:00.000Z']);
    for (const [show, date, utc] of [
      [summer, '20261021', '2026-10-21T18:00:00.000Z'],
      [winter, '20261028', '2026-10-28T19:00:00.000Z'],
    ] as const) {
      const res = await eventIcs(app, show?.id ?? '');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="axonberg-synapses-${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6)}.ics"`,
      );
      // Paris wall time, named by its zone; the lines end in CRLF.
      expect(res.body).toContain(`\r\nDTSTART;TZID=Europe/Paris:${date}T200000\r\n`);
      expect(res.body).toContain(`\r\nDTEND;TZID=Europe/Paris:${date}T220000\r\n`);
      expect(res.body.split('\r\n').every((line) => !line.includes('\n'))).toBe(true);
      const file = read(res.body);
      expect(file.zone.tzid).toBe('Europe/Paris');
      expect(file.events).toHaveLength(1);
      const [event] = file.events;
      expect(event?.summary).toBe('Axonberg · Synapses');
      expect(event?.uid).toBe(occurrenceUid(show?.id ?? ''));
      expect(event?.component.getFirstPropertyValue('url')).toBe(`${ORIGIN}/residences/axonberg`);
      expect(event?.component.hasProperty('dtstamp')).toBe(true);
      expect([event?.startDate.hour, event?.startDate.minute]).toEqual([20, 0]);
      // The file's own VTIMEZONE gives the right instant: UTC+2 before the change, UTC+1 after.
      expect(file.instant(event?.startDate ?? ICAL.Time.now())).toBe(utc);
      expect(file.instant(event?.endDate ?? ICAL.Time.now())).toBe(show?.end);
    }
  });

  it('answers the whole expanded schedule to subscribe to, with stable UIDs', async () => {
    const res = await app.inject({ url: '/api/schedule.ics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('inline; filename="programme.ics"');
    // As the JSON answer's (private when the answer sets the XSRF cookie, docs/api.md).
    expect(res.headers['cache-control']).toMatch(/^(public|private), max-age=\d+$/);
    expect(res.body).toContain('\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n');
    expect(res.body).toContain('\r\nX-PUBLISHED-TTL:PT1H\r\n');
    expect(res.body).toContain('\r\nX-WR-TIMEZONE:Europe/Paris\r\n');
    const file = read(res.body);
    expect(file.calendar.getFirstPropertyValue('x-wr-calname')).toBe(`${siteConfig.name} · programme`);

    // Every show the JSON answer knows of, each once.
    const known = (await app.inject({ url: '/api/schedule' })).json<Schedule>().known;
    const half = new Date((Date.parse(known.from) + Date.parse(known.to)) / 2).toISOString();
    const ids = new Set<string>();
    for (const [from, to] of [
      [known.from, half],
      [half, known.to],
    ]) {
      const part = await app.inject({ url: `/api/schedule?from=${from}&to=${to}` });
      for (const event of part.json<Schedule>().events) ids.add(occurrenceUid(event.id));
    }
    const uids = file.events.map((event) => event.uid);
    expect(new Set(uids).size).toBe(uids.length);
    expect(new Set(uids)).toEqual(ids);
    expect(uids.length).toBeGreaterThan(100);

    // The same file again, validated by its ETag.
    const again = await app.inject({ url: '/api/schedule.ics', headers: { 'if-none-match': res.headers.etag } });
    expect(again.statusCode).toBe(304);
  });

  it('answers one residence’s shows, and refuses a residence it does not know', async () => {
    const res = await app.inject({ url: '/api/schedule.ics?residence=axonberg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('inline; filename="programme-axonberg.ics"');
    const file = read(res.body);
    expect(file.calendar.getFirstPropertyValue('x-wr-calname')).toBe(`${siteConfig.name} · Axonberg`);
    expect(file.events.map((event) => file.instant(event.startDate))).toEqual([
      '2026-10-07T18:00:00.000Z',
      '2026-10-14T18:00:00.000Z',
      '2026-10-21T18:00:00.000Z',
      '2026-10-28T19:00:00.000Z',
      '2026-11-04T19:00:00.000Z',
      '2026-11-11T19:00:00.000Z',
    ]);
    expect(new Set(file.events.map((event) => event.summary))).toEqual(new Set(['Axonberg · Synapses']));
    expect(file.events.slice(0, axonberg.length).map((event) => event.uid)).toEqual(
      axonberg.map((event) => occurrenceUid(event.id)),
    );

    for (const residence of ['personne', '../axonberg', 'axonberg\r\nX-EVIL:1']) {
      const unknown = await app.inject({ url: `/api/schedule.ics?residence=${encodeURIComponent(residence)}` });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(unknown.json<ApiError>()).toEqual({ error: 'not_found', message: 'Résidence inconnue.' });
    }
  });

  it('answers 400 without an id and 404 for one it does not know, whatever it holds', async () => {
    const expectError = (res: LightMyRequestResponse, status: number, message: RegExp) => {
      expect(res.statusCode).toBe(status);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.json<ApiError>().message).toMatch(message);
      // Nothing of the id comes back, in a file or otherwise.
      expect(res.body).not.toMatch(/ATTENDEE|evil|\.\.\//);
    };
    expectError(await app.inject({ url: '/api/schedule/event.ics' }), 400, /^Paramètre « id » invalide/);
    expectError(await app.inject({ url: '/api/schedule/event.ics?id=' }), 400, /^Paramètre « id » invalide/);
    expectError(await eventIcs(app, 'x'.repeat(3000)), 400, /^Paramètre « id » invalide/);
    const show = axonberg[0]?.id ?? '';
    for (const id of [
      '../../etc/passwd',
      `../${show}`,
      'x\r\nATTENDEE:evil',
      `${show}\r\nATTENDEE:mailto:evil@example.org`,
      'y'.repeat(2000),
      // A show of last month: no longer in the schedule.
      'synapses@demo.collectif/2026-09-02T18:00:00.000Z',
    ]) {
      expectError(await eventIcs(app, id), 404, /^Cette émission n’est pas \(ou plus\) au programme\.$/);
    }
  });
});

describe('calendar files of the collective’s calendars', () => {
  let upstream: FakeUpstream;
  const radio = calendarOf(
    [
      'UID:synapses@test',
      'DTSTART;TZID=Europe/Paris:20261104T200000',
      'DTEND;TZID=Europe/Paris:20261104T220000',
      'RRULE:FREQ=WEEKLY',
      'SUMMARY:Axonberg · Synapses',
    ],
    [
      // A title with what ICS escapes: commas, semicolons, a new line, a backslash.
      'UID:fete@test',
      'DTSTART;TZID=Europe/Paris:20261125T180000',
      'DURATION:PT3H',
      'SUMMARY:Fête\\, danse\\; et\\nnuit \\\\ 3€',
    ],
    [
      // A UID that would write a line of its own if it were written as it reads.
      'UID:evil\\nATTENDEE:mailto:evil@example.org',
      'DTSTART;TZID=Europe/Paris:20261126T120000',
      'DURATION:PT1H',
      'SUMMARY:Invitée',
    ],
    ['UID:journee@test', 'DTSTART;VALUE=DATE:20261128', 'DTEND;VALUE=DATE:20261129', 'SUMMARY:Journée portes ouvertes'],
  );

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/radio.ics', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(radio);
    });
  });
  afterAll(async () => {
    await upstream.close();
  });

  const api = (clock = manualClock(Date.parse('2026-11-23T12:00:00Z'))) =>
    buildApi(
      { config: testConfig({ schedule: { urls: [`${upstream.url}/radio.ics`] } }), now: clock.now },
      { siteOrigin: ORIGIN },
    );

  it('escapes titles and UIDs, and writes whole days as dates', async () => {
    const app = await api();
    try {
      const res = await app.inject({ url: '/api/schedule.ics' });
      expect(res.statusCode).toBe(200);
      const file = read(res.body);
      const byTitle = new Map(file.events.map((event) => [event.summary, event]));
      expect(res.body).toContain('\r\nSUMMARY:Fête\\, danse\\; et\\nnuit \\\\ 3€\r\n');
      expect(byTitle.get('Fête, danse; et\nnuit \\ 3€')?.startDate.toString()).toBe('2026-11-25T18:00:00');
      // The hostile UID stays on its line, its new line written as %0A.
      expect(res.body.split('\r\n').filter((line) => /^ATTENDEE/i.test(line))).toEqual([]);
      expect(file.events.every((event) => event.component.getAllProperties('attendee').length === 0)).toBe(true);
      expect(byTitle.get('Invitée')?.uid).toBe('evil%0AATTENDEE:mailto:evil@example.org/2026-11-26T11:00:00.000Z');
      expect(res.body).toContain('\r\nDTSTART;VALUE=DATE:20261128\r\nDTEND;VALUE=DATE:20261129\r\n');
      expect(byTitle.get('Journée portes ouvertes')?.startDate.isDate).toBe(true);
      // A show without residence links to nothing.
      expect(byTitle.get('Invitée')?.component.hasProperty('url')).toBe(false);

      // One show by its id, however it is written.
      const schedule = (await app.inject({ url: '/api/schedule' })).json<Schedule>();
      const party = schedule.events.find((event) => event.title.startsWith('Fête'));
      const one = await eventIcs(app, party?.id ?? '');
      expect(one.statusCode).toBe(200);
      expect(one.headers['content-disposition']).toBe('attachment; filename="fete-danse-et-nuit-3-2026-11-25.ics"');
      expect(read(one.body).events.map((event) => event.summary)).toEqual(['Fête, danse; et\nnuit \\ 3€']);
      const guest = schedule.events.find((event) => event.title === 'Invitée');
      expect(guest?.id).toBe('evil\nATTENDEE:mailto:evil@example.org/2026-11-26T11:00:00.000Z');
      const hostile = await eventIcs(app, guest?.id ?? '');
      expect(hostile.statusCode).toBe(200);
      expect(hostile.body.split('\r\n').filter((line) => /^ATTENDEE/i.test(line))).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('answers an empty calendar for a residence without show', async () => {
    const app = await api();
    try {
      const res = await app.inject({ url: '/api/schedule.ics?residence=158cm' });
      expect(res.statusCode).toBe(200);
      const file = read(res.body);
      expect(file.events).toEqual([]);
      expect(file.zone.tzid).toBe('Europe/Paris');
      expect(file.calendar.getFirstPropertyValue('x-wr-calname')).toBe(`${siteConfig.name} · 158cm`);
    } finally {
      await app.close();
    }
  });

  it('keeps each show’s UID when the calendars are read again', async () => {
    const clock = manualClock(Date.parse('2026-11-23T12:00:00Z'));
    const app = await api(clock);
    try {
      const uids = async () =>
        read((await app.inject({ url: '/api/schedule.ics' })).body).events.map((event) => event.uid);
      const before = await uids();
      // Past the calendars' TTL: read again, expanded again (another DTSTAMP), the same UIDs.
      clock.advance(2 * 60 * 1000);
      const first = (await app.inject({ url: '/api/schedule.ics' })).body;
      expect(await uids()).toEqual(before);
      expect(first).toContain('DTSTAMP:20261123T120200Z');
    } finally {
      await app.close();
    }
  });
});
