import ICAL from 'ical.js';
import type { FastifyInstance } from 'fastify';
import type { ApiError, EventItem, Events } from '@collectif/shared';
import { siteConfig } from '@collectif/shared/config';
import { buildApi, manualClock, testConfig } from '../api/testing/fixtures';
import { startFakeUpstream, type FakeUpstream } from '../api/testing/fake-upstream';
import { eventsCalendarOf, googleCalendar, nextcloudCalendar, outlookCalendar } from './test-calendars';

// The events' routes (docs/events.md, « The API »): GET /api/events, /api/events/:slug, and their
// calendar files /api/events.ics and /api/events/:slug.ics, read back with ical.js; on the demo's
// calendar and on calendars served over HTTP.

jest.setTimeout(30_000);

const ORIGIN = 'https://radio.example.org';

/** A calendar file read back: its VEVENTs, and its times as instants through its own VTIMEZONE. */
function readIcs(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const vtimezone = calendar.getFirstSubcomponent('vtimezone');
  if (vtimezone === null) throw new Error('pas de VTIMEZONE');
  const zone = new ICAL.Timezone(vtimezone);
  const vevents = calendar.getAllSubcomponents('vevent');
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
  return { calendar, vevents, instant };
}

describe('the demo’s events', () => {
  const day = new Date('2026-11-23T12:00:30Z');
  let app: FastifyInstance;
  let events: Events;

  beforeAll(async () => {
    app = await buildApi({ config: testConfig(), now: () => day.getTime(), demoAnchor: day }, { siteOrigin: ORIGIN });
    events = (await app.inject({ url: '/api/events' })).json<Events>();
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers the coming events soonest first and the past ones latest first, with the minute and the zone', async () => {
    const res = await app.inject({ url: '/api/events' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.etag).toMatch(/^W\//);
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(events).toMatchObject({
      zone: 'Europe/Paris',
      now: '2026-11-23T12:00:00.000Z',
      stale: false,
      source: 'demo',
    });
    const starts = (list: EventItem[]) => list.map((event) => event.start);
    expect(starts(events.coming)).toEqual([...starts(events.coming)].sort());
    expect(starts(events.past)).toEqual([...starts(events.past)].sort().reverse());
    expect(events.coming.every((event) => event.end > events.now)).toBe(true);
    expect(events.past.every((event) => event.end <= events.now)).toBe(true);
    // Not cancelled, this year in Paris: past and coming.
    const all = [...events.coming, ...events.past];
    expect(events.thisYear).toBe(
      all.filter((event) => event.status !== 'cancelled' && event.slug.startsWith('2026')).length,
    );
    // Only the defined fields: the fingerprint stays on the server.
    expect(Object.keys(events.coming[0] ?? {}).sort()).toEqual(
      [
        'address',
        'allDay',
        'categories',
        'description',
        'end',
        'geo',
        'image',
        'lineup',
        'rescheduled',
        'slug',
        'start',
        'status',
        'tickets',
        'title',
        'venue',
        'zone',
      ].sort(),
    );
    const again = await app.inject({ url: '/api/events', headers: { 'if-none-match': res.headers.etag ?? '' } });
    expect(again.statusCode).toBe(304);
  });

  it('answers at most `coming` and `past` events of each, the year’s figure whole; refuses a count out of bounds', async () => {
    const all = (await app.inject({ url: '/api/events' })).json<Events>();
    expect(all.coming.length).toBeGreaterThan(1);
    expect(all.past.length).toBeGreaterThan(1);
    const none = await app.inject({ url: '/api/events?coming=0&past=0' });
    expect(none.statusCode).toBe(200);
    expect(none.json<Events>()).toEqual({ ...all, coming: [], past: [] });
    // Another answer, with its own ETag.
    expect(none.headers.etag).not.toBe((await app.inject({ url: '/api/events' })).headers.etag);
    const some = (await app.inject({ url: '/api/events?coming=1&past=1' })).json<Events>();
    expect(some.coming).toEqual(all.coming.slice(0, 1));
    expect(some.past).toEqual(all.past.slice(0, 1));
    for (const wrong of ['coming=-1', 'past=1.5', 'coming=abc', 'past=501']) {
      const refused = await app.inject({ url: `/api/events?${wrong}` });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<ApiError>().error).toBe('bad_request');
    }
  });

  it('answers one residence’s events; an unknown residence is 404', async () => {
    const axonberg = (await app.inject({ url: '/api/events?residence=axonberg' })).json<Events>();
    expect(axonberg.coming.length + axonberg.past.length).toBeGreaterThan(0);
    for (const event of [...axonberg.coming, ...axonberg.past]) {
      expect(event.lineup.map((artist) => artist.residence)).toContain('axonberg');
    }
    // Named by half of its artist (« Kalibre »), and as a whole.
    const kalibre = (await app.inject({ url: '/api/events?residence=kalibre-mona-vex' })).json<Events>();
    expect(new Set(kalibre.past.map((event) => event.title))).toEqual(
      new Set(['Les Vendredis Garonne', 'Nuit Jungle au Bocal']),
    );
    const unknown = await app.inject({ url: '/api/events?residence=personne' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ApiError>()).toEqual({ error: 'not_found', message: 'Résidence inconnue.' });
  });

  it('answers one event by its slug, and by its fingerprint under another date, with its own slug', async () => {
    const [first] = events.coming;
    if (first === undefined) throw new Error('aucun évènement à venir');
    const res = await app.inject({ url: `/api/events/${first.slug}` });
    expect(res.statusCode).toBe(200);
    expect(res.json<EventItem>()).toEqual(first);
    const old = await app.inject({ url: `/api/events/2020-01-01-${first.slug.slice(11)}` });
    expect(old.json<EventItem>().slug).toBe(first.slug);
  });

  it('answers 404 in French for an unknown slug, and for anything that is not one', async () => {
    for (const slug of [
      '2026-12-05-0000000000',
      'nuit-jungle',
      '2026-12-05-ABCDEF0123',
      '%3Cscript%3E',
      '..%2F..%2Fetc',
    ]) {
      const res = await app.inject({ url: `/api/events/${slug}` });
      expect([slug, res.statusCode]).toEqual([slug, 404]);
      expect(res.json<ApiError>()).toEqual({
        error: 'event_not_found',
        message: 'Cet évènement n’existe pas ou n’est plus à l’agenda.',
      });
      expect((await app.inject({ url: `/api/events/${slug}.ics` })).statusCode).toBe(404);
    }
  });

  it('writes every event as a calendar to subscribe to, read back with ical.js', async () => {
    const res = await app.inject({ url: '/api/events.ics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('inline; filename="evenements.ics"');
    expect(res.headers.etag).toMatch(/^W\//);
    const { calendar, vevents, instant } = readIcs(res.body);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(`${siteConfig.name} · évènements`);
    expect(String(calendar.getFirstPropertyValue('refresh-interval'))).toBe('PT1H');
    const all = [...events.coming, ...events.past];
    expect(vevents).toHaveLength(all.length);
    for (const event of all) {
      const vevent = vevents.find(
        (candidate) => candidate.getFirstPropertyValue('uid') === `evenement-${event.slug.slice(11)}@radio.example.org`,
      );
      if (vevent === undefined) throw new Error(`${event.slug} absent`);
      const written = new ICAL.Event(vevent);
      expect(written.summary).toBe(event.title);
      expect(instant(written.startDate)).toBe(event.start);
      expect(instant(written.endDate)).toBe(event.end);
      expect(vevent.getFirstPropertyValue('url')).toBe(`${ORIGIN}/evenements/${event.slug}`);
      expect(written.location).toBe([event.venue, event.address].filter((part) => part !== null).join(', '));
      expect(vevent.getFirstPropertyValue('status')).toBe(
        event.status === 'confirmed' ? null : event.status.toUpperCase(),
      );
      expect(vevent.getAllProperties('categories').flatMap((property) => property.getValues() as unknown[])).toEqual(
        event.categories,
      );
      expect(vevent.getFirstPropertyValue('geo')).toEqual(event.geo === null ? null : [event.geo.lat, event.geo.lon]);
      expect(written.description.startsWith(event.description)).toBe(true);
    }
  });

  it('writes one event as a file to open (« Ajouter à mon agenda »), its tickets in its text', async () => {
    const event = events.coming.find((candidate) => candidate.tickets !== null && candidate.status === 'confirmed');
    if (event === undefined) throw new Error('aucun évènement avec billets');
    const res = await app.inject({ url: `/api/events/${event.slug}.ics` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="[a-z0-9-]+-${event.slug.slice(0, 10)}\\.ics"$`),
    );
    const { calendar, vevents } = readIcs(res.body);
    expect(calendar.getFirstPropertyValue('refresh-interval')).toBeNull();
    expect(vevents).toHaveLength(1);
    expect(new ICAL.Event(vevents[0]).description).toBe(`${event.description}\n\nBillets : ${event.tickets ?? ''}`);
  });
});

describe('the collective’s events calendars (EVENTS_ICS_URLS)', () => {
  let upstream: FakeUpstream;
  let failing = false;
  let google = googleCalendar();
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/google.ics', (_request, response) => {
      if (failing) response.writeHead(503).end();
      else response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(google);
    });
    upstream.on('/nextcloud.ics', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(nextcloudCalendar());
    });
    upstream.on('/outlook.ics', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/calendar' }).end(outlookCalendar());
    });
    upstream.on('/hostile.ics', (_request, response) => {
      response
        .writeHead(200, { 'content-type': 'text/calendar' })
        .end(
          eventsCalendarOf([
            'UID:hostile@x',
            'DTSTART:20261201T200000Z',
            'DURATION:PT2H',
            'SUMMARY:<script>alert(1)</script>',
            'DESCRIPTION:<img src=x onerror=alert(1)>Texte',
            'URL:javascript:alert(1)',
            'IMAGE;VALUE=URI:javascript:alert(1)',
          ]),
        );
    });
    upstream.on('/pas-un-agenda.ics', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>Erreur</html>');
    });
  });
  afterAll(async () => {
    await upstream.close();
  });
  afterEach(() => {
    failing = false;
    google = googleCalendar();
  });

  const api = (paths: string[], clock = manualClock(Date.parse('2026-11-23T12:00:00Z'))) =>
    buildApi(
      {
        config: testConfig({ events: { urls: paths.map((path) => `${upstream.url}${path}`) } }),
        now: clock.now,
      },
      { siteOrigin: ORIGIN },
    );

  it('merges every calendar: Google’s, Nextcloud’s and Outlook’s', async () => {
    const app = await api(['/google.ics', '/nextcloud.ics', '/outlook.ics']);
    try {
      const events = (await app.inject({ url: '/api/events' })).json<Events>();
      expect(events.source).toBe('calendar');
      expect(events.coming.map((event) => event.title)).toEqual([
        'Nuit électro au Hangar',
        'Synapses Live : sortie de l’EP',
        'Apéro vinyles',
        'Concert au Bocal',
        'Les Vendredis Garonne : édition d’hiver',
        'Plein air techno',
      ]);
      expect(events.past.map((event) => event.title)).toEqual([
        'Les Vendredis Garonne',
        'Les Vendredis Garonne',
        'Vide-bacs d’été',
        'Dub au bord de l’eau',
      ]);
      expect(events.past[0]?.status).toBe('cancelled');
    } finally {
      await app.close();
    }
  });

  it('keeps markup as text in JSON and leaves hostile addresses out', async () => {
    const app = await api(['/hostile.ics']);
    try {
      const res = await app.inject({ url: '/api/events' });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.json<Events>().coming[0]).toMatchObject({
        title: '<script>alert(1)</script>',
        description: 'Texte',
        tickets: null,
        image: null,
      });
    } finally {
      await app.close();
    }
  });

  it('finds a moved event by its old slug, and answers its new one', async () => {
    const clock = manualClock(Date.parse('2026-11-23T12:00:00Z'));
    const app = await api(['/google.ics'], clock);
    try {
      const before = (await app.inject({ url: '/api/events' })).json<Events>();
      const old = before.coming.find((event) => event.title.startsWith('Synapses'))?.slug ?? '';
      expect(old).toMatch(/^2026-12-05-/);
      google = googleCalendar({
        summary: 'Synapses Live (nouvelle date)',
        start: '20261212T210000',
        end: '20261213T030000',
      });
      clock.advance(2 * 60_000);
      const res = await app.inject({ url: `/api/events/${old}` });
      expect(res.statusCode).toBe(200);
      expect(res.json<EventItem>()).toMatchObject({
        slug: `2026-12-12-${old.slice(11)}`,
        title: 'Synapses Live (nouvelle date)',
        start: '2026-12-12T20:00:00.000Z',
      });
    } finally {
      await app.close();
    }
  });

  it('answers the last events read when a calendar is down, said stale', async () => {
    const clock = manualClock(Date.parse('2026-11-23T12:00:00Z'));
    const app = await api(['/google.ics'], clock);
    try {
      const good = (await app.inject({ url: '/api/events' })).json<Events>();
      failing = true;
      clock.advance(10 * 60_000);
      const res = await app.inject({ url: '/api/events' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-cache']).toBe('STALE');
      // (`private`: the first answer sets the XSRF cookie.)
      expect(res.headers['cache-control']).toMatch(/max-age=0, must-revalidate$/);
      const stale = res.json<Events>();
      expect(stale.stale).toBe(true);
      expect(stale.coming.map((event) => event.slug)).toEqual(good.coming.map((event) => event.slug));
      const ics = await app.inject({ url: '/api/events.ics' });
      expect([ics.statusCode, ics.headers['x-cache']]).toEqual([200, 'STALE']);
    } finally {
      await app.close();
    }
  });

  it('answers a French error when no calendar was ever read', async () => {
    const app = await api(['/pas-un-agenda.ics']);
    try {
      const res = await app.inject({ url: '/api/events' });
      expect(res.statusCode).toBe(502);
      expect(res.json<ApiError>().message).toMatch(/^La réponse de l’agenda des évènements est illisible/);
    } finally {
      await app.close();
    }
  });
});
