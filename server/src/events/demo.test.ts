import { join } from 'node:path';
import ICAL from 'ical.js';
import { workspaceRoot } from '../settings/config';
import { loadResidences } from '../schedule/demo-residences';
import { demoEventsIcs, loadDemoEvents } from './demo';
import { readEventCalendar } from './read';

// The demo's events calendar (docs/events.md, « The demo »): made for the demo's day from
// server/content/demo-events.json, as Google exports a calendar.

const day = new Date('2026-11-23T12:00:00Z');
const today = Date.UTC(2026, 10, 23);
const DAY = 24 * 3600 * 1000;
const residences = loadResidences(join(workspaceRoot, 'shared', 'content', 'residences.json'));
const content = loadDemoEvents(join(workspaceRoot, 'server', 'content', 'demo-events.json'));
const text = demoEventsIcs(content, day);
const { events, problems } = readEventCalendar(text, { today, defaultZone: 'Europe/Paris', residences });

describe('the demo’s events calendar', () => {
  it('is a calendar as Google writes one, read without a problem', () => {
    const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
    expect(calendar.getFirstPropertyValue('x-wr-timezone')).toBe('Europe/Paris');
    expect(calendar.getFirstSubcomponent('vtimezone')?.getFirstPropertyValue('tzid')).toBe('Europe/Paris');
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    expect(problems).toEqual([]);
    expect(
      new Set(calendar.getAllSubcomponents('vevent').map((event) => event.getFirstPropertyValue('uid'))).size,
    ).toBe(content.length);
  });

  it('has past events of this year and the last, and coming ones within two months', () => {
    const years = new Set(
      events.filter((event) => event.end < day.toISOString()).map((event) => event.slug.slice(0, 4)),
    );
    expect(years).toEqual(new Set(['2025', '2026']));
    const coming = events.filter((event) => event.end > day.toISOString());
    expect(coming.length).toBeGreaterThanOrEqual(4);
    expect(coming.every((event) => Date.parse(event.start) < day.getTime() + 61 * DAY)).toBe(true);
  });

  it('has one cancelled, one to be confirmed, one moved occurrence of a monthly series, and an all-day event', () => {
    expect(events.filter((event) => event.status === 'cancelled')).toHaveLength(1);
    expect(events.filter((event) => event.status === 'tentative')).toHaveLength(1);
    const moved = events.filter((event) => event.rescheduled);
    expect(moved.map((event) => event.title)).toEqual(['Les Vendredis Garonne']);
    expect(Date.parse(moved[0]?.start ?? '')).toBeGreaterThan(day.getTime());
    expect(events.filter((event) => event.title === 'Les Vendredis Garonne').length).toBeGreaterThan(3);
    expect(events.some((event) => event.allDay)).toBe(true);
  });

  it('names residences in its line-ups (one by half of its name) and guests that are none', () => {
    const artists = events.flatMap((event) => event.lineup);
    const ids = new Set(residences.map((residence) => residence.id));
    expect(
      artists.filter((artist) => artist.residence !== null).every((artist) => ids.has(artist.residence ?? '')),
    ).toBe(true);
    expect(artists).toContainEqual({ name: 'Kalibre', residence: 'kalibre-mona-vex' });
    expect(artists).toContainEqual({ name: 'DJ Invitée', residence: null });
  });

  it('places them in Toulouse, with tickets on some, GEO on some, styles, and the site’s posters', () => {
    expect(events.every((event) => event.venue !== null && event.address?.endsWith('31000 Toulouse'))).toBe(true);
    expect(events.some((event) => event.tickets?.startsWith('https://billetterie.example.org/'))).toBe(true);
    expect(events.some((event) => event.geo !== null)).toBe(true);
    expect(events.every((event) => event.categories.length > 0)).toBe(true);
    expect(events.every((event) => /^\/assets\/images\/evenements\/[a-z0-9-]+\.webp$/.test(event.image ?? ''))).toBe(
      true,
    );
    expect(new Set(events.map((event) => event.image))).toEqual(new Set(content.map((event) => event.poster)));
  });
});
