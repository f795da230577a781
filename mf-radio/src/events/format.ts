import type { EventItem } from '@collectif/shared';
import { SCHEDULE_ZONE, dayLabel, dayOf, frenchDay, hourOf } from '@collectif/shared/schedule';

/**
 * How an event's dates are said (docs/events.md, « What visitors see »): in Paris time, as the
 * programme says its shows, and the visitor's own hours beside them when their zone writes others.
 * Written without `Intl`, as the schedule's days and hours (docs/schedule.md, « What listeners see »).
 */

const HALF_DAY_MS = 12 * 3600 * 1000;

/** `2026-12-05`: the day an event is on in Paris (a whole day: its date, whatever its zone). */
export function eventDay(event: Pick<EventItem, 'start' | 'allDay'>): string {
  return dayOf(Date.parse(event.start) + (event.allDay ? HALF_DAY_MS : 0));
}

/** The last day of a whole-day event (its end is the midnight after it). */
const lastDay = (event: Pick<EventItem, 'start' | 'end' | 'allDay'>): string =>
  event.allDay ? dayOf(Date.parse(event.end) - HALF_DAY_MS) : dayOf(Date.parse(event.end));

/** `samedi 5 décembre 2026`; a whole-day event over several days: `du 5 au 7 décembre 2026`. */
export function eventDateLabel(event: Pick<EventItem, 'start' | 'end' | 'allDay'>): string {
  const first = eventDay(event);
  const long = frenchDay(first, { weekday: true, year: true });
  if (!event.allDay) return long;
  const last = lastDay(event);
  if (last <= first) return long;
  const end = frenchDay(last, { year: true });
  // « du 4 au 5 juillet 2026 », « du 30 juin au 2 juillet 2026 », « du 31 décembre 2026 au 1 janvier 2027 ».
  const from =
    first.slice(0, 7) === last.slice(0, 7)
      ? String(Number(first.slice(8, 10)))
      : frenchDay(first, { year: first.slice(0, 4) !== last.slice(0, 4) });
  return `du ${from} au ${end}`;
}

/** `20:00 – 02:00` in Paris; `Toute la journée` for a whole day. */
export function eventHours(event: Pick<EventItem, 'start' | 'end' | 'allDay'>, zone: string = SCHEDULE_ZONE): string {
  if (event.allDay) return 'Toute la journée';
  return event.end === event.start
    ? hourOf(event.start, zone)
    : `${hourOf(event.start, zone)} – ${hourOf(event.end, zone)}`;
}

/**
 * The visitor's hours when their zone writes other ones (`14:00 – 20:00 le samedi 5 décembre`),
 * else ''; nothing for a whole day (a date is the same date everywhere in the calendar's sense).
 */
export function visitorHours(event: Pick<EventItem, 'start' | 'end' | 'allDay'>, zone: string | null): string {
  if (zone === null || event.allDay) return '';
  const own = eventHours(event, zone);
  if (own === eventHours(event)) return '';
  const ownDay = dayOf(Date.parse(event.start), zone);
  if (ownDay === eventDay(event)) return own;
  return `${own} le ${dayLabel(ownDay)}`;
}

/** The year (in Paris) an event is in: how past events are grouped. */
export const eventYear = (event: Pick<EventItem, 'start' | 'allDay'>): string => eventDay(event).slice(0, 4);

/** An http(s) address as it is, else null (what the server sent is checked again: a link is never `javascript:`). */
export function webAddress(text: string | null): string | null {
  if (text === null) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A poster the page may show: an https picture, or one of the site's own. */
export function posterAddress(text: string | null): string | null {
  if (text === null) return null;
  if (/^\/assets\/images\/[\w./-]+\.(?:webp|png|jpe?g|avif|gif)$/.test(text) && !text.includes('..')) return text;
  const url = webAddress(text);
  return url?.startsWith('https:') === true ? url : null;
}

/**
 * The place on a map (OpenStreetMap, a link: no third-party frame on the page): its coordinates
 * when the calendar gives them, else its name and address searched.
 */
export function mapHref(event: Pick<EventItem, 'venue' | 'address' | 'geo'>): string | null {
  if (event.geo !== null) {
    const { lat, lon } = event.geo;
    return `https://www.openstreetmap.org/?mlat=${String(lat)}&mlon=${String(lon)}#map=17/${String(lat)}/${String(lon)}`;
  }
  const query = [event.venue, event.address].filter((part) => part !== null && part !== '').join(', ');
  return query === '' ? null : `https://www.openstreetmap.org/search?query=${encodeURIComponent(query)}`;
}

/** What an event's status says, or null when it is as planned. */
export function statusLabel(event: Pick<EventItem, 'status' | 'rescheduled'>): string | null {
  if (event.status === 'cancelled') return 'Annulé';
  if (event.status === 'tentative') return 'À confirmer';
  if (event.rescheduled) return 'Date modifiée';
  return null;
}
