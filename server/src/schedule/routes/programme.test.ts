import type { FastifyInstance } from 'fastify';
import type { ApiError } from '@collectif/shared';
import { buildApi, manualClock, testConfig } from '../../api/testing/fixtures';
import { startFakeUpstream, type FakeUpstream } from '../../api/testing/fake-upstream';

// GET /api/schedule (docs/schedule.md): the demo's calendar and real calendars read over HTTP.

interface Schedule {
  zone: string;
  from: string;
  to: string;
  known?: { from: string; to: string };
  events: { id: string; title: string; start: string; end: string; allDay: boolean; residence: string | null }[];
}

const paris = (iso: string) =>
  new Date(iso).toLocaleString('fr-FR', {
    timeZone: 'Europe/Paris',
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
  });

describe('the demo schedule', () => {
  const day = new Date('2026-11-23T12:00:00Z');
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildApi({ config: testConfig(), now: () => day.getTime(), demoAnchor: day });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers the week to come as UTC instants, with the zone, each show linked to its residence', async () => {
    const res = await app.inject({ url: '/api/schedule' });
    expect(res.statusCode).toBe(200);
    const schedule = res.json<Schedule>();
    expect(schedule).toMatchObject({
      zone: 'Europe/Paris',
      from: '2026-11-23T12:00:00.000Z',
      to: '2026-11-30T12:00:00.000Z',
    });
    const axonberg = schedule.events.find((event) => event.residence === 'axonberg');
    expect(axonberg).toMatchObject({ title: 'Axonberg · Synapses', start: '2026-11-25T19:00:00.000Z', allDay: false });
    expect(paris(axonberg?.start ?? '')).toBe('mercredi 20:00');
    // Guests name no residence.
    expect(schedule.events.find((event) => event.title.startsWith('Invitée'))?.residence).toBeNull();
    const starts = schedule.events.map((event) => event.start);
    expect([...starts].sort()).toEqual(starts);
    expect(res.headers.etag).toMatch(/^W\/"/);
  });

  it('leaves out the cancelled show and moves the overridden one', async () => {
    const schedule = (
      await app.inject({ url: '/api/schedule?from=2026-11-30T00:00:00Z&to=2026-12-14T00:00:00Z' })
    ).json<Schedule>();
    // The first weekly show (Mondays at 20:00) is cancelled on 30 November, not on 7 December.
    const first = schedule.events.filter((event) => paris(event.start) === 'lundi 20:00').map((event) => event.start);
    expect(first).toEqual(['2026-12-07T19:00:00.000Z']);
    const moved = schedule.events.filter((event) => event.title.endsWith('(spéciale)'));
    expect(moved.map((event) => paris(event.start))).toEqual(['mardi 20:30']);
  });

  it('refuses a window it cannot answer, in French', async () => {
    const bad = await app.inject({ url: '/api/schedule?from=demain' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ApiError>().message).toBe('from : date invalide (ISO 8601 attendue).');
    const long = await app.inject({ url: '/api/schedule?from=2026-11-23T00:00:00Z&to=2027-01-23T00:00:00Z' });
    expect(long.statusCode).toBe(400);
    expect(long.json<ApiError>().message).toBe('Fenêtre invalide : le début avant la fin, 35 jours au plus.');
    const backwards = await app.inject({ url: '/api/schedule?from=2026-11-24T00:00:00Z&to=2026-11-23T00:00:00Z' });
    expect(backwards.statusCode).toBe(400);
    const unknown = await app.inject({ url: '/api/schedule?residence=personne' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ApiError>().message).toBe('Résidence inconnue.');
  });

  it('answers a window past what it knows with no show, and says what it knows', async () => {
    const far = await app.inject({ url: '/api/schedule?from=2027-06-01T00:00:00Z' });
    expect(far.statusCode).toBe(200);
    expect(far.json<Schedule>()).toEqual({
      zone: 'Europe/Paris',
      from: '2027-06-01T00:00:00.000Z',
      to: '2027-06-08T00:00:00.000Z',
      // From the week before this one to four weeks on (UTC days).
      known: { from: '2026-11-09T00:00:00.000Z', to: '2026-12-22T00:00:00.000Z' },
      events: [],
    });
    // Last week's shows are known: /programme shows the week before this one.
    const last = await app.inject({ url: '/api/schedule?from=2026-11-16T00:00:00Z&to=2026-11-17T00:00:00Z' });
    expect(last.json<Schedule>().events.length).toBeGreaterThan(0);
  });

  it('answers one residence’s shows', async () => {
    const res = await app.inject({
      url: '/api/schedule?residence=axonberg&from=2026-11-23T00:00:00Z&to=2026-12-21T00:00:00Z',
    });
    const events = res.json<Schedule>().events;
    expect(events.map((event) => paris(event.start))).toEqual([
      'mercredi 20:00',
      'mercredi 20:00',
      'mercredi 20:00',
      'mercredi 20:00',
    ]);
    expect(events.every((event) => event.residence === 'axonberg')).toBe(true);
  });
});

describe('the collective’s calendars (SCHEDULE_ICS_URLS)', () => {
  let upstream: FakeUpstream;
  let failing = false;
  const ics = (summary: string, start: string) =>
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//FR',
      'BEGIN:VEVENT',
      `UID:${summary}@test`,
      `DTSTART;TZID=Europe/Paris:${start}`,
      'DURATION:PT2H',
      `SUMMARY:${summary}`,
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/radio.ics', (_request, response) => {
      if (failing) response.writeHead(503).end();
      else
        response
          .writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' })
          .end(ics('Axonberg · Synapses', '20261125T200000'));
    });
    // An older program's calendar, in Windows-1252 without saying so.
    upstream.on('/evenements.ics', (_request, response) => {
      response
        .writeHead(200, { 'content-type': 'text/calendar' })
        .end(Buffer.from(ics("Fête de l'été à Émile", '20261126T180000'), 'latin1'));
    });
    upstream.on('/pas-un-agenda.ics', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>Erreur</html>');
    });
  });
  afterAll(async () => {
    await upstream.close();
  });

  const api = (paths: string[], clock = manualClock(Date.parse('2026-11-23T12:00:00Z'))) =>
    buildApi({
      config: testConfig({ schedule: { urls: paths.map((path) => `${upstream.url}${path}`) } }),
      now: clock.now,
    });

  it('merges every calendar, whatever its encoding', async () => {
    const app = await api(['/radio.ics', '/evenements.ics']);
    try {
      const schedule = (await app.inject({ url: '/api/schedule' })).json<Schedule>();
      expect(schedule.events.map((event) => [event.title, event.start, event.residence])).toEqual([
        ['Axonberg · Synapses', '2026-11-25T19:00:00.000Z', 'axonberg'],
        ["Fête de l'été à Émile", '2026-11-26T17:00:00.000Z', null],
      ]);
    } finally {
      await app.close();
    }
  });

  it('keeps the last good schedule when a calendar fails, and says it is stale', async () => {
    const clock = manualClock(Date.parse('2026-11-23T12:00:00Z'));
    const app = await api(['/radio.ics'], clock);
    try {
      expect((await app.inject({ url: '/api/schedule' })).json<Schedule>().events).toHaveLength(1);
      failing = true;
      clock.advance(10 * 60 * 1000);
      const stale = await app.inject({ url: '/api/schedule' });
      expect(stale.statusCode).toBe(200);
      expect(stale.headers['x-cache']).toBe('STALE');
      expect(stale.json<Schedule>().events.map((event) => event.title)).toEqual(['Axonberg · Synapses']);
    } finally {
      failing = false;
      await app.close();
    }
  });

  it('answers a French error when no calendar was ever read', async () => {
    const app = await api(['/pas-un-agenda.ics']);
    try {
      const res = await app.inject({ url: '/api/schedule' });
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      expect(res.json<ApiError>().message).toMatch(/agenda de la radio/);
    } finally {
      await app.close();
    }
  });
});
