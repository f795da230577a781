import { siteConfig } from '@collectif/shared/config';
import { fillPath } from '@collectif/shared/addresses';
import { fileSlug, type CalendarOptions, type IcsItem } from '../schedule/ics';
import type { EventRecord } from './read';

/**
 * The events as calendar files (docs/events.md, « Calendar files »), written by the schedule's
 * (calendarIcs, ../schedule/ics.ts): the same Paris VTIMEZONE, escaping and folding. Each event
 * keeps its UID across renames and moves: it is made of its fingerprint, as its slug is.
 */

export interface EventFileOptions {
  /** The site's public origin (SITE_ORIGIN): each event's page, and its UIDs' host. */
  origin: string;
  /** The event page's path in the page table (`evenements/:slug`), or null: no URL then. */
  eventPath: string | null;
}

/** An event's UID: its fingerprint, on the site's host (`evenement-3f9a1c0d2b@radio.example.org`). */
export function eventUid(event: Pick<EventRecord, 'fingerprint'>, origin: string): string {
  return `evenement-${event.fingerprint}@${new URL(origin).hostname}`;
}

/** The event's page on the site, or null when the page table has none. */
export function eventPage(event: Pick<EventRecord, 'slug'>, options: EventFileOptions): string | null {
  return options.eventPath === null
    ? null
    : new URL(fillPath(options.eventPath, { slug: event.slug }), options.origin).href;
}

/** One event as a VEVENT: its place, text (and its tickets, when its text does not give them), status and styles. */
export function eventIcsItem(event: EventRecord, options: EventFileOptions): IcsItem {
  const tickets =
    event.tickets !== null && event.status !== 'cancelled' && !event.description.includes(event.tickets)
      ? `Billets : ${event.tickets}`
      : '';
  return {
    uid: eventUid(event, options.origin),
    title: event.title,
    start: event.start,
    end: event.end,
    allDay: event.allDay,
    url: eventPage(event, options),
    location: [event.venue, event.address].filter((part) => part !== null && part !== '').join(', '),
    geo: event.geo,
    description: [event.description, tickets].filter((part) => part !== '').join('\n\n'),
    status: event.status,
    categories: event.categories,
  };
}

/** The subscription's calendar: « Collectif Garonne · évènements », read again every hour. */
export function eventsCalendar(stamp: number, subscription: boolean): CalendarOptions {
  return {
    name: subscription ? `${siteConfig.name} · évènements` : siteConfig.name,
    subscription,
    stamp,
    product: siteConfig.name,
    contents: 'Evenements',
  };
}

/** The file name of one event (« Ajouter à mon agenda »): `nuit-jungle-au-bocal-2026-10-09.ics`. */
export function eventFileName(event: Pick<EventRecord, 'title' | 'slug'>): string {
  return `${fileSlug(event.title, 'evenement')}-${event.slug.slice(0, 10)}.ics`;
}
