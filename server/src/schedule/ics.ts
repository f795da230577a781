import { createHash } from 'node:crypto';
import { fillPath } from '@collectif/shared/addresses';
import ICAL from 'ical.js';
import { wallAt } from './expand';

/**
 * The schedule as calendar files (docs/schedule.md, « Calendar files (.ics) »): one show for
 * « Ajouter à mon agenda », the whole schedule or a residence's shows for a subscription. Written
 * with ical.js, which escapes the texts (commas, semicolons, new lines) and folds the lines; every
 * time in Paris wall time (`DTSTART;TZID=Europe/Paris:20261125T200000`) with the zone's VTIMEZONE,
 * so that a calendar program converts it with the rules written in the file.
 *
 * The occurrences are written, not the calendars' series: one zone for all, the calendars'
 * exceptions (EXDATE, moved occurrences) already applied, and UIDs that stay the same across
 * refreshes (the occurrence's id: its event's UID and its start).
 */

/** The zone every time is written in. */
export const ICS_ZONE = 'Europe/Paris';

/**
 * Europe/Paris since 1996: CET (+01:00) from the last Sunday of October at 03:00, CEST (+02:00)
 * from the last Sunday of March at 02:00, as Mozilla's and Google's zones write it.
 */
export const PARIS_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Paris',
  'X-LIC-LOCATION:Europe/Paris',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
].join('\r\n');

/*
 * Lines folded at 75 octets, as RFC 5545 wants: ical.js (2.2) folds a line after 75 octets and puts
 * the folding space before the next 75, which makes continuation lines 76 octets long. At 74, every
 * line it writes, the space included, is 75 octets at most (tested on the demo's calendars).
 */
ICAL.foldLength = 74;

/**
 * A component made of ICS lines as a calendar program writes them (`DTSTART;TZID=Europe/Paris:…`,
 * `RRULE:…`), each read by ical.js, and of texts given as they are (a summary, a description,
 * categories), which ical.js escapes; it folds every line at 75 octets when the calendar is written.
 * The demo's calendars are made with it, so that every calendar of the site is written by ical.js.
 */
export function icsComponent(
  name: string,
  lines: readonly string[],
  texts: Readonly<Record<string, string | readonly string[]>> = {},
): ICAL.Component {
  const component = new ICAL.Component(name);
  for (const line of lines) component.addProperty(ICAL.Property.fromString(line));
  for (const [key, value] of Object.entries(texts)) {
    const property = new ICAL.Property(key);
    if (typeof value === 'string') property.setValue(value);
    else property.setValues([...value]);
    component.addProperty(property);
  }
  return component;
}

/** A calendar's text: CRLF lines, folded at 75 octets, ending with a line break. */
export const icsText = (calendar: ICAL.Component): string => `${calendar.toString()}\r\n`;

const parisZone = new ICAL.Timezone(new ICAL.Component(ICAL.parse(PARIS_VTIMEZONE) as unknown[]));

/** An occurrence as the schedule has it (schedule/routes/programme.ts): UTC instants, the residence it is of. */
export interface IcsEvent {
  id: string;
  title: string;
  start: string;
  end: string;
  allDay: boolean;
  residence: string | null;
}

export interface IcsOptions {
  /** The calendar's name (X-WR-CALNAME). */
  name: string;
  /** A subscription: its refresh interval is said (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
  subscription: boolean;
  /** The site's public origin, for each show's residence page (URL). */
  origin: string;
  /**
   * The residence page's path in the page table (`residences/:id`), or null when the table has none:
   * the shows then have no URL (docs/parts.md, « Addresses »).
   */
  residencePath: string | null;
  /** When the occurrences were expanded (DTSTAMP): the same file for the same expansion. */
  stamp: number;
  /** The product (PRODID): the collective's name. */
  product: string;
  /**
   * A reminder this many minutes before each show (a VALARM, DISPLAY): the followed residences'
   * calendar (docs/follow.md, « The calendar »), so that the phone's own calendar says it. None for
   * a whole day, which is never « on air ».
   */
  reminderMinutes?: number;
}

/** A VALARM: the calendar program shows `description` this many minutes before the start. */
export interface IcsReminder {
  minutes: number;
  description: string;
}

/**
 * One VEVENT of a calendar file, whatever it comes from (the schedule's shows, the events): UTC
 * instants, written in Paris wall time; the other properties when it has them.
 */
export interface IcsItem {
  /** Its UID, as written (occurrenceUid makes one from anything). */
  uid: string;
  title: string;
  start: string;
  end: string;
  allDay: boolean;
  /** Its page (URL), an absolute address. */
  url?: string | null;
  location?: string | null;
  geo?: { lat: number; lon: number } | null;
  description?: string;
  /** Written when not as planned: STATUS:TENTATIVE or STATUS:CANCELLED. */
  status?: 'confirmed' | 'tentative' | 'cancelled';
  categories?: readonly string[];
  reminder?: IcsReminder;
}

export interface CalendarOptions {
  /** The calendar's name (X-WR-CALNAME). */
  name: string;
  /** A subscription: its refresh interval is said (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
  subscription: boolean;
  /** When its items were read (DTSTAMP): the same file for the same reading. */
  stamp: number;
  /** The product (PRODID): the collective's name, and what the file holds (`Programme`). */
  product: string;
  contents: string;
}

const LONGEST_UID = 200;

/**
 * An occurrence's UID: its id, every character but letters, digits and `@._~:/+=-` written as
 * `%XX` (its UTF-8 bytes), so two ids never give the same UID; a very long one is hashed.
 */
export function occurrenceUid(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9@._~:/+=-]/gu, (character) =>
    [...Buffer.from(character, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
  return safe.length <= LONGEST_UID ? safe : `${createHash('sha256').update(id).digest('hex')}@programme`;
}

/** Lower case ASCII words joined by dashes (« Fête à Émile » is `fete-a-emile`), for a file's name. */
export function fileSlug(text: string, fallback: string): string {
  const slug = text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');
  return slug === '' ? fallback : slug;
}

/** A Paris wall time, or a Paris date for a whole day, as ical.js writes it. */
function parisTime(instant: number, allDay: boolean): ICAL.Time {
  if (allDay) {
    // A whole day starts at midnight in its calendar's zone, which may not be Paris: its date is
    // the one in Paris half a day later (right for every zone within twelve hours of Paris).
    const { year, month, day } = wallAt(instant + 12 * 3600 * 1000, ICS_ZONE);
    return ICAL.Time.fromData({ year, month, day, isDate: true });
  }
  return ICAL.Time.fromData({ ...wallAt(instant, ICS_ZONE), isDate: false }, parisZone);
}

function vevent(item: IcsItem, stamp: ICAL.Time): ICAL.Component {
  const component = new ICAL.Component('vevent');
  const written = new ICAL.Event(component);
  written.uid = item.uid;
  component.addPropertyWithValue('dtstamp', stamp);
  written.startDate = parisTime(Date.parse(item.start), item.allDay);
  written.endDate = parisTime(Date.parse(item.end), item.allDay);
  written.summary = item.title;
  if (item.url !== undefined && item.url !== null) component.addPropertyWithValue('url', item.url);
  if (item.location !== undefined && item.location !== null && item.location !== '') {
    written.location = item.location;
  }
  if (item.geo !== undefined && item.geo !== null) component.addPropertyWithValue('geo', [item.geo.lat, item.geo.lon]);
  if (item.description !== undefined && item.description !== '') written.description = item.description;
  if (item.status === 'tentative' || item.status === 'cancelled') {
    component.addPropertyWithValue('status', item.status.toUpperCase());
  }
  if (item.categories !== undefined && item.categories.length > 0) {
    const categories = new ICAL.Property('categories');
    categories.setValues([...item.categories]);
    component.addProperty(categories);
  }
  if (item.reminder !== undefined) component.addSubcomponent(valarm(item.reminder));
  return component;
}

/** `TRIGGER:-PT15M`, `ACTION:DISPLAY` and its text (RFC 5545, 3.6.6), written by ical.js. */
function valarm({ minutes, description }: IcsReminder): ICAL.Component {
  const alarm = new ICAL.Component('valarm');
  alarm.addPropertyWithValue('action', 'DISPLAY');
  const trigger = new ICAL.Property('trigger');
  trigger.setValue(ICAL.Duration.fromSeconds(-minutes * 60));
  alarm.addProperty(trigger);
  const text = new ICAL.Property('description');
  text.setValue(description);
  alarm.addProperty(text);
  return alarm;
}

/** What a show's reminder says: « Axonberg · Synapses commence dans 15 minutes sur Collectif Garonne. » */
export const reminderText = (title: string, minutes: number, product: string): string =>
  `${title} commence dans ${String(minutes)} minutes sur ${product}.`;

/** A calendar of these items, as ICS text (CRLF lines, folded at 75 octets). */
export function calendarIcs(items: readonly IcsItem[], options: CalendarOptions): string {
  const calendar = new ICAL.Component('vcalendar');
  calendar.addPropertyWithValue('prodid', `-//${options.product}//${options.contents}//FR`);
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  calendar.addPropertyWithValue('method', 'PUBLISH');
  calendar.addPropertyWithValue('x-wr-calname', options.name);
  calendar.addPropertyWithValue('x-wr-timezone', ICS_ZONE);
  if (options.subscription) {
    const refresh = new ICAL.Property('refresh-interval');
    refresh.resetType('duration');
    refresh.setValue(ICAL.Duration.fromString('PT1H'));
    calendar.addProperty(refresh);
    calendar.addPropertyWithValue('x-published-ttl', 'PT1H');
  }
  calendar.addSubcomponent(new ICAL.Component(ICAL.parse(PARIS_VTIMEZONE) as unknown[]));
  const stamp = ICAL.Time.fromJSDate(new Date(options.stamp), true);
  for (const item of items) calendar.addSubcomponent(vevent(item, stamp));
  return icsText(calendar);
}

/** The schedule's shows as a calendar: each with its occurrence's UID and its residence's page. */
export function scheduleIcs(events: readonly IcsEvent[], options: IcsOptions): string {
  return calendarIcs(
    events.map((event) => ({
      uid: occurrenceUid(event.id),
      title: event.title,
      start: event.start,
      end: event.end,
      allDay: event.allDay,
      url:
        event.residence !== null && options.residencePath !== null
          ? new URL(fillPath(options.residencePath, { id: event.residence }), options.origin).href
          : null,
      ...(options.reminderMinutes === undefined || event.allDay
        ? {}
        : {
            reminder: {
              minutes: options.reminderMinutes,
              description: reminderText(event.title, options.reminderMinutes, options.product),
            },
          }),
    })),
    {
      name: options.name,
      subscription: options.subscription,
      stamp: options.stamp,
      product: options.product,
      contents: 'Programme',
    },
  );
}
