import ICAL from 'ical.js';
import type { FastifyInstance } from 'fastify';
import type { ApiError } from '@collectif/shared';
import { siteConfig } from '@collectif/shared/config';
import { buildApi, listen, testConfig } from '../../api/testing/fixtures';
import { occurrenceUid } from '../ics';

// The calendar of the residences a visitor follows (docs/follow.md, « The calendar »): GET
// /api/schedule/suivi.ics?residences=a,b over real HTTP, read back with ical.js, reminders included.

jest.setTimeout(30_000);

const ORIGIN = 'https://radio.example.org';

interface Schedule {
  known: { from: string; to: string };
  events: { id: string; title: string; start: string; end: string; allDay: boolean; residence: string | null }[];
}

let app: FastifyInstance;
let base: string;
// The demo's day: a Sunday in November, the browser tests' (e2e/clock.mjs).
const day = new Date('2026-11-22T10:00:00Z');

beforeAll(async () => {
  app = await buildApi({ config: testConfig(), now: () => day.getTime(), demoAnchor: day }, { siteOrigin: ORIGIN });
  base = await listen(app);
});
afterAll(async () => {
  await app.close();
});

const followed = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/schedule/suivi.ics${query}`, { headers });

/** Every show of these residences that /api/schedule knows, by the UID their calendar gives them. */
async function showsOf(residences: readonly string[]): Promise<Map<string, Schedule['events'][number]>> {
  const { known } = (await (await fetch(`${base}/api/schedule`)).json()) as Schedule;
  const half = new Date((Date.parse(known.from) + Date.parse(known.to)) / 2).toISOString();
  const shows = new Map<string, Schedule['events'][number]>();
  for (const residence of residences) {
    for (const [from, to] of [
      [known.from, half],
      [half, known.to],
    ]) {
      const answer = await fetch(`${base}/api/schedule?residence=${residence}&from=${from}&to=${to}`);
      for (const event of ((await answer.json()) as Schedule).events) shows.set(occurrenceUid(event.id), event);
    }
  }
  return shows;
}

function read(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  return { calendar, events: calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent)) };
}

describe('GET /api/schedule/suivi.ics', () => {
  it('answers the followed residences’ shows, each with a reminder 15 minutes before, to subscribe to', async () => {
    const res = await followed('?residences=axonberg,la-brume');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="mes-residences.ics"');
    // As the programme's files: the calendars' freshness, an ETag.
    expect(res.headers.get('cache-control')).toMatch(/^(public|private), max-age=\d+$/);
    expect(res.headers.get('etag')).toMatch(/^(W\/)?"/);
    // The list is in the address, never in a cookie: at most the site's own XSRF token (docs/api.md).
    expect(res.headers.get('set-cookie') ?? '').toMatch(/^(XSRF-TOKEN=[\w-]+; Path=\/; SameSite=Strict)?$/);
    const text = await res.text();
    expect(text).toContain('\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n');
    const { calendar, events } = read(text);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(`${siteConfig.name} · mes résidences`);
    expect(calendar.getFirstSubcomponent('vtimezone')?.getFirstPropertyValue('tzid')).toBe('Europe/Paris');

    // The same shows as the programme gives those two residences, each once.
    const shows = await showsOf(['axonberg', 'la-brume']);
    expect(shows.size).toBeGreaterThan(2);
    expect(new Set(events.map((event) => event.uid))).toEqual(new Set(shows.keys()));
    expect(events).toHaveLength(shows.size);
    for (const event of events) {
      const show = shows.get(event.uid);
      expect(event.summary).toBe(show?.title);
      expect(event.component.getFirstPropertyValue('url')).toBe(`${ORIGIN}/residences/${show?.residence ?? ''}`);
      const alarms = event.component.getAllSubcomponents('valarm');
      expect(alarms).toHaveLength(1);
      const [alarm] = alarms;
      expect(alarm?.getFirstPropertyValue('action')).toBe('DISPLAY');
      const trigger = alarm?.getFirstPropertyValue('trigger');
      expect(trigger instanceof ICAL.Duration ? trigger.toSeconds() : null).toBe(-15 * 60);
      expect(alarm?.getFirstPropertyValue('description')).toBe(
        `${show?.title ?? ''} commence dans 15 minutes sur ${siteConfig.name}.`,
      );
    }

    // Validated by its ETag, as calendar programs ask again every hour.
    const again = await followed('?residences=axonberg,la-brume', { 'if-none-match': res.headers.get('etag') ?? '' });
    expect(again.status).toBe(304);
  });

  it('reads a list in any order, each id once, and leaves out the residences it does not know', async () => {
    const one = await (await followed('?residences=axonberg,la-brume')).text();
    for (const query of ['la-brume,axonberg', 'la-brume,axonberg,axonberg', 'axonberg,plus-au-programme,la-brume']) {
      const res = await followed(`?residences=${query}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(one);
    }
    // Only residences it does not know (they left the collective): a valid calendar, empty.
    const gone = await followed('?residences=partie-1,partie-2');
    expect(gone.status).toBe(200);
    const { calendar, events } = read(await gone.text());
    expect(events).toEqual([]);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(`${siteConfig.name} · mes résidences`);
  });

  it('refuses a missing, empty, malformed or too long list in French, and writes nothing of it back', async () => {
    const refused = async (query: string, message: RegExp) => {
      const res = await followed(query);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body = await res.text();
      expect((JSON.parse(body) as ApiError).message).toMatch(message);
      expect(body).not.toMatch(/script|evil|BEGIN:V/i);
    };
    await refused('', /^Paramètre « residences » invalide/);
    await refused('?residences=', /^Paramètre « residences » invalide/);
    await refused(`?residences=${encodeURIComponent('axonberg,<script>alert(1)</script>')}`, /50 au plus\.$/);
    await refused(`?residences=${encodeURIComponent('axonberg\r\nX-EVIL:1')}`, /50 au plus\.$/);
    await refused('?residences=axonberg,,la-brume', /50 au plus\.$/);
    await refused('?residences=../axonberg', /50 au plus\.$/);
    // 51 ids: one more than a visitor may follow.
    const many = Array.from({ length: 51 }, (_, index) => `r${String(index)}`).join(',');
    await refused(`?residences=${many}`, /50 au plus\.$/);
    // Longer than 50 ids can be: refused before it is read.
    await refused(
      `?residences=${'a-'.repeat(1600)}a`,
      /^Paramètre « residences » invalide \(.*\) : au plus 3050 caractères\.$/,
    );
  });

  it('refuses 10,000 ids before the route reads them', async () => {
    const ids = Array.from({ length: 10_000 }, (_, index) => `r${String(index)}`).join(',');
    const res = await followed(`?residences=${ids}`);
    // Longer than Node's limit for a request's head (16 KiB): refused by the HTTP server itself.
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).not.toMatch(/calendar/);
  });
});
