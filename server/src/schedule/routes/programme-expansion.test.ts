import type { ApiError } from '@collectif/shared';
import { buildApi, manualClock, testConfig } from '../../api/testing/fixtures';
import { startFakeUpstream, type FakeUpstream } from '../../api/testing/fake-upstream';
import { ScheduleWorker } from '../schedule-worker';
import { hugeCalendar } from '../test-calendars';

// The calendars are checked and expanded by the schedule's thread (docs/schedule.md, « Off the
// event loop »): the event loop keeps turning meanwhile; requests during an expansion share it;
// when the thread fails, the last good expansion is answered.

// Reading a 5 MB calendar twice and starting a thread can take more than jest's default 5 s on a
// busy 2-core machine; the limit only stops a hung test, it measures nothing.
jest.setTimeout(60_000);

interface Schedule {
  events: { id: string; title: string; start: string }[];
}

/** A counter of event-loop turns, running until stopped (as the feed worker's test counts them). */
function loopTurns(): { count(): number; stop(): void } {
  let turns = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    turns += 1;
    setImmediate(spin);
  };
  setImmediate(spin);
  return {
    count: () => turns,
    stop: () => {
      running = false;
    },
  };
}

describe('a calendar of 50,000 events', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(async () => {
    await upstream.close();
  });

  it('is read and expanded while the event loop keeps turning', async () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    const huge = hugeCalendar(now);
    const loop = loopTurns();
    let sentAt = Number.NaN;
    upstream.on('/huge.ics', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' });
      response.end(huge, () => {
        sentAt = loop.count();
      });
    });
    const app = await buildApi({
      config: testConfig({
        schedule: { urls: [`${upstream.url}/huge.ics`] },
        upstream: { timeoutMs: 30_000, maxBytes: 16 * 1024 * 1024 },
      }),
      now: () => now,
    });
    try {
      const res = await app.inject({ url: '/api/schedule' });
      const answeredAt = loop.count();
      expect(res.statusCode).toBe(200);
      expect(res.json<Schedule>().events[0]).toMatchObject({
        title: 'Émission 4800',
        start: '2026-11-23T12:00:00.000Z',
      });
      // Checked then expanded on the loop, the calendar would stop it from the last bytes received
      // to the answer (a few turns to read the last chunks). By the thread, the loop turns all along.
      expect(answeredAt - sentAt).toBeGreaterThan(200);
    } finally {
      loop.stop();
      await app.close();
    }
  });
});

describe('the demo schedule’s expansion', () => {
  const day = Date.parse('2026-11-23T12:00:00Z');
  let expand: jest.SpyInstance;
  beforeEach(() => {
    expand = jest.spyOn(ScheduleWorker.prototype, 'expand');
  });
  afterEach(() => {
    expand.mockRestore();
  });

  it('is made once for the requests that arrive while it runs, whatever they ask', async () => {
    const app = await buildApi({ config: testConfig(), now: () => day, demoAnchor: new Date(day) });
    try {
      const answers = await Promise.all([
        app.inject({ url: '/api/schedule' }),
        app.inject({ url: '/api/schedule?residence=axonberg' }),
        app.inject({ url: '/api/schedule.ics' }),
        app.inject({ url: '/api/schedule/event.ics?id=inconnu' }),
      ]);
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 404]);
      expect(expand).toHaveBeenCalledTimes(1);
      await app.inject({ url: '/api/schedule.ics?residence=axonberg' });
      expect(expand).toHaveBeenCalledTimes(1);
    } finally {
      await app.close();
    }
  });

  it('keeps the last good expansion when the thread fails, and tries again a minute later', async () => {
    const clock = manualClock(day);
    const app = await buildApi({ config: testConfig(), now: clock.now, demoAnchor: new Date(day) });
    try {
      const good = await app.inject({ url: '/api/schedule' });
      expect(good.headers['x-cache']).not.toBe('STALE');
      // The next day, the thread stops during the expansion.
      clock.advance(24 * 3600 * 1000);
      expand.mockRejectedValueOnce(new Error('lecture de l’agenda interrompue (code 1)'));
      const stale = await app.inject({ url: '/api/schedule' });
      expect(stale.statusCode).toBe(200);
      expect(stale.headers['x-cache']).toBe('STALE');
      expect(stale.headers['cache-control']).toMatch(/max-age=0, must-revalidate$/);
      expect(stale.json<Schedule>().events.length).toBeGreaterThan(0);
      const file = await app.inject({ url: '/api/schedule.ics' });
      expect([file.statusCode, file.headers['x-cache']]).toEqual([200, 'STALE']);
      // Not tried again at every request…
      expect(expand).toHaveBeenCalledTimes(2);
      // …but a minute later.
      clock.advance(61 * 1000);
      const again = await app.inject({ url: '/api/schedule' });
      expect(again.headers['x-cache']).not.toBe('STALE');
      expect(expand).toHaveBeenCalledTimes(3);
    } finally {
      await app.close();
    }
  });

  it('answers a French error when a subscription file could not be written, and writes it at the next request', async () => {
    const write = jest.spyOn(ScheduleWorker.prototype, 'write');
    const app = await buildApi({ config: testConfig(), now: () => day, demoAnchor: new Date(day) });
    try {
      write.mockRejectedValueOnce(new Error('lecture de l’agenda interrompue (code 1)'));
      const failed = await app.inject({ url: '/api/schedule.ics' });
      expect(failed.statusCode).toBe(502);
      expect(failed.json<ApiError>().message).toBe(
        'Le programme n’a pas pu être écrit : lecture de l’agenda interrompue (code 1)',
      );
      const again = await app.inject({ url: '/api/schedule.ics' });
      expect(again.statusCode).toBe(200);
      // Written once per expansion, then kept.
      await app.inject({ url: '/api/schedule.ics' });
      expect(write).toHaveBeenCalledTimes(2);
    } finally {
      write.mockRestore();
      await app.close();
    }
  });

  it('answers a French error when no expansion ever succeeded', async () => {
    const app = await buildApi({ config: testConfig(), now: () => day, demoAnchor: new Date(day) });
    try {
      expand.mockRejectedValueOnce(new Error('lecture de l’agenda interrompue (code 1)'));
      for (const url of ['/api/schedule', '/api/schedule.ics', '/api/schedule/event.ics?id=x']) {
        const res = await app.inject({ url });
        expect(res.statusCode).toBe(502);
        expect(res.json<ApiError>()).toEqual({
          error: 'upstream_invalid',
          message: 'L’agenda de la radio est illisible : lecture de l’agenda interrompue (code 1)',
        });
      }
    } finally {
      await app.close();
    }
  });
});
