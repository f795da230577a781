import { createHash } from 'node:crypto';
import type { EventItem } from '@collectif/shared';
import type ICAL from 'ical.js';
import { LIMITS, wallAt, walkCalendar, type WalkedOccurrence } from '../schedule/expand';
import { lineupNames, matchLineup, oneLine, place, plainDescription, unescapeText, type LineupResidence } from './text';

/**
 * The collective's events calendars as events (docs/events.md): each occurrence of a VEVENT read
 * from RFC 5545 and RFC 7986 properties into the API's `EventItem`, through the schedule's walk
 * over the calendars (walkCalendar: recurrences, overridden occurrences, zones, the same limits).
 * Pure functions: the schedule's thread runs them (schedule-worker.ts, task `events`).
 */

/** An event as read, with what the API finds it by. */
export interface EventRecord extends EventItem {
  /** The last part of its slug: the first 10 hex digits of the SHA-256 of its UID (and occurrence). */
  fingerprint: string;
}

export interface EventsReadOptions {
  /** The UTC day the events are read for (ms since the epoch): the window is counted from it. */
  today: number;
  /** The zone of all-day events and of times whose TZID is unknown, when the calendar names none. */
  defaultZone: string;
  /** The residences a line-up is matched to. */
  residences: readonly LineupResidence[];
  /** The schedule's limits (LIMITS), smaller in tests. */
  maxSteps?: number;
  maxOccurrences?: number;
  maxEvents?: number;
  maxLength?: number;
}

export interface EventsRead {
  /** In order of start (then title). */
  events: EventRecord[];
  /** What was left out, in French, for the log. */
  problems: string[];
}

/** Years read before and after the day. */
export const YEARS_BEFORE = 5;
export const YEARS_AFTER = 2;
/** The zone slugs' days are counted in. */
const SLUG_ZONE = 'Europe/Paris';
/** The pictures the site shows as posters. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif']);
/** A picture of the site (what the demo writes): a path under /assets/images/, a `.webp`. */
const SITE_PICTURE = /^\/assets\/images\/(?:[\w-]+\/)*[\w-]+(?:\.[\w-]+)*\.webp$/;
const LONGEST_ADDRESS = 2048;
const MOST_CATEGORIES = 20;

/** The window: from `YEARS_BEFORE` years before the day to `YEARS_AFTER` years after its end (UTC). */
export function eventsWindow(today: number): { from: number; to: number } {
  const day = new Date(today);
  const [year, month, date] = [day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()];
  return { from: Date.UTC(year - YEARS_BEFORE, month, date), to: Date.UTC(year + YEARS_AFTER, month, date + 1) };
}

/** The first 10 hex digits of the SHA-256 of a text. */
export const fingerprintOf = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 10);

/** A slug as the API gives them: `2026-12-05-3f9a1c0d2b`. */
export const EVENT_SLUG = /^(\d{4})-(\d{2})-(\d{2})-([0-9a-f]{10})$/;

const pad = (n: number) => String(n).padStart(2, '0');

/** A property of the occurrence, else of its series (an override that leaves one out keeps its series'). */
function propertiesOf(occurrence: WalkedOccurrence, name: string): ICAL.Property[] {
  const own = occurrence.item.component.getAllProperties(name);
  if (own.length > 0 || occurrence.item === occurrence.series) return own;
  return occurrence.series.component.getAllProperties(name);
}

function textOf(occurrence: WalkedOccurrence, name: string): string {
  const value: unknown = propertiesOf(occurrence, name)[0]?.getFirstValue();
  return typeof value === 'string' ? value : '';
}

/** An absolute http(s) address, as `URL` writes it, or null. */
export function webAddress(value: string): string | null {
  const text = value.trim();
  if (text === '' || text.length > LONGEST_ADDRESS) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * A file of Google Drive (what Google Calendar attaches: `https://drive.google.com/open?id=…`, or
 * `/file/d/…/view`) is a page that shows it, not the picture: its picture is Drive's thumbnail of
 * it, 1600 pixels wide (shown when the file is shared with anyone who has the link).
 */
function drivePicture(address: string): string | null {
  const url = new URL(address);
  if (url.hostname !== 'drive.google.com') return null;
  const id = url.searchParams.get('id') ?? /^\/file\/d\/([\w-]+)/.exec(url.pathname)?.[1] ?? '';
  return /^[\w-]{10,200}$/.test(id) ? `https://drive.google.com/thumbnail?id=${id}&sz=w1600` : null;
}

/**
 * A poster (RFC 7986 IMAGE, else an ATTACH of an image type): an https address whose FMTTYPE, when
 * given, is a picture the site shows (png, jpeg, webp, gif, avif), or a picture of the site's own;
 * an ATTACH must say it is an image. Anything else (`data:`, `javascript:`, `http:`, a PDF, an
 * embedded file) is no poster. A Google Drive file is its thumbnail (drivePicture).
 */
export function posterOf(properties: readonly ICAL.Property[], attachments: readonly ICAL.Property[]): string | null {
  const poster = (property: ICAL.Property, typeRequired: boolean): string | null => {
    if (property.type === 'binary') return null;
    const type = property.getParameter('fmttype');
    const format = typeof type === 'string' ? type.trim().toLowerCase() : null;
    if (format === null ? typeRequired : !IMAGE_TYPES.has(format)) return null;
    const value: unknown = property.getFirstValue();
    if (typeof value !== 'string') return null;
    const text = value.trim();
    if (SITE_PICTURE.test(text) && !text.includes('..')) return text;
    const address = webAddress(text);
    if (address?.startsWith('https:') !== true) return null;
    return drivePicture(address) ?? address;
  };
  for (const property of properties) {
    const found = poster(property, false);
    if (found !== null) return found;
  }
  for (const property of attachments) {
    const found = poster(property, true);
    if (found !== null) return found;
  }
  return null;
}

/**
 * A ticket line of the description, for calendars that have no URL field (Google's): « Billets :
 * https://… », « Billetterie - https://… », « Tickets : https://… » (any case, a bullet before it allowed).
 */
const TICKETS_LINE = /^[^\p{L}\p{N}]*(?:billets?|billetterie|tickets?)\s*[:\-–—]?\s*(https?:\/\/[^\s<>"]+)/iu;

/** Its tickets: URL when it is an http(s) address, else the description's ticket line's address. */
export function ticketsOf(url: string, description: string): string | null {
  if (url.trim() !== '') return webAddress(url);
  for (const line of description.split('\n')) {
    const found = TICKETS_LINE.exec(line)?.[1];
    if (found !== undefined) return webAddress(found.replace(/[.,;:!?)\]]+$/u, ''));
  }
  return null;
}

/** GEO as coordinates on Earth, else null. */
export function geoOf(value: unknown): { lat: number; lon: number } | null {
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [lat, lon] = value as unknown[];
  if (typeof lat !== 'number' || typeof lon !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) return null;
  return { lat, lon };
}

/** CATEGORIES, every property and every value of each: trimmed, each once (any case), none empty. */
function categoriesOf(properties: readonly ICAL.Property[]): string[] {
  const seen = new Set<string>();
  const categories: string[] = [];
  for (const property of properties) {
    for (const value of property.getValues() as unknown[]) {
      if (typeof value !== 'string') continue;
      const category = oneLine(value, 60);
      const key = category.toLocaleLowerCase('fr');
      if (category === '' || seen.has(key)) continue;
      seen.add(key);
      categories.push(category);
    }
  }
  return categories.slice(0, MOST_CATEGORIES);
}

function statusOf(value: string): EventItem['status'] {
  const status = value.trim().toUpperCase();
  if (status === 'CANCELLED') return 'cancelled';
  if (status === 'TENTATIVE') return 'tentative';
  return 'confirmed';
}

/** DESCRIPTION as text; without one, Outlook's HTML copy (X-ALT-DESC;FMTTYPE=text/html) as text. */
function descriptionOf(occurrence: WalkedOccurrence): string {
  const description = plainDescription(textOf(occurrence, 'description'));
  if (description !== '') return description;
  const html = propertiesOf(occurrence, 'x-alt-desc').find((property) => {
    const type: unknown = property.getParameter('fmttype');
    return typeof type === 'string' && type.toLowerCase() === 'text/html';
  });
  const value: unknown = html?.getFirstValue();
  return typeof value === 'string' ? plainDescription(`<html>${unescapeText(value)}`) : '';
}

/** One occurrence as an event. */
function eventOf(occurrence: WalkedOccurrence, residences: readonly LineupResidence[]): EventRecord {
  const { series, item, recurring, planned, start, end, allDay, startDate, zone } = occurrence;
  // The fingerprint: its UID, and for an occurrence of a series the start its series gives it, so
  // that renaming or moving it keeps it.
  const uid = series.uid;
  const fingerprint = fingerprintOf(recurring ? `${uid}/${new Date(planned).toISOString()}` : uid);
  const day = allDay ? startDate : wallAt(start, SLUG_ZONE);
  const description = descriptionOf(occurrence);
  const { venue, address } = place(textOf(occurrence, 'location'));
  const title = oneLine(textOf(occurrence, 'summary'), 200);
  return {
    slug: `${String(day.year)}-${pad(day.month)}-${pad(day.day)}-${fingerprint}`,
    fingerprint,
    title: title === '' ? 'Évènement sans titre' : title,
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    allDay,
    zone,
    status: statusOf(textOf(occurrence, 'status')),
    rescheduled: item !== series && start !== planned,
    venue,
    address,
    geo: geoOf(propertiesOf(occurrence, 'geo')[0]?.getFirstValue()),
    tickets: ticketsOf(textOf(occurrence, 'url'), description),
    description,
    image: posterOf(propertiesOf(occurrence, 'image'), propertiesOf(occurrence, 'attach')),
    categories: categoriesOf(propertiesOf(occurrence, 'categories')),
    lineup: matchLineup(lineupNames(description), residences),
  };
}

const byStart = (a: EventRecord, b: EventRecord) => a.start.localeCompare(b.start) || a.title.localeCompare(b.title);

/** One calendar's events in the window. Throws readCalendar's French errors. */
export function readEventCalendar(text: string, options: EventsReadOptions): EventsRead {
  const events: EventRecord[] = [];
  const { today, residences, ...limits } = options;
  const { problems } = walkCalendar(
    text,
    { ...LIMITS, ...limits, ...eventsWindow(today), what: 'évènements' },
    (occurrence) => {
      events.push(eventOf(occurrence, residences));
    },
  );
  events.sort(byStart);
  return { events, problems };
}

/**
 * Every calendar's events, merged in order of start. An event whose fingerprint an earlier one
 * has (the same event in two calendars) is left out: the first calendar wins, and it is said.
 */
export function readEventCalendars(texts: readonly string[], options: EventsReadOptions): EventsRead {
  const seen = new Set<string>();
  const events: EventRecord[] = [];
  const problems: string[] = [];
  const twice: EventRecord[] = [];
  texts.forEach((text, index) => {
    const read = readEventCalendar(text, options);
    problems.push(
      ...read.problems.map((problem) => (texts.length > 1 ? `agenda ${String(index + 1)} : ${problem}` : problem)),
    );
    for (const event of read.events) {
      if (seen.has(event.fingerprint)) {
        twice.push(event);
        continue;
      }
      seen.add(event.fingerprint);
      events.push(event);
    }
  });
  if (twice.length > 0) {
    const named = twice
      .slice(0, 5)
      .map((event) => `« ${event.title} » (${event.slug})`)
      .join(', ');
    problems.push(
      `${String(twice.length)} évènement(s) déjà lu(s) dans un agenda précédent, laissé(s) de côté : ${named}${twice.length > 5 ? ', …' : ''}`,
    );
  }
  events.sort(byStart);
  return { events, problems };
}
