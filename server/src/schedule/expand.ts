import ICAL from 'ical.js';
import { wallAt, type WallTime } from '@collectif/shared/schedule';

/**
 * The collective's calendars as instants (docs/schedule.md): an ICS text read with ical.js
 * (RRULE, EXDATE, RECURRENCE-ID overrides, all-day events), each occurrence expanded in its own
 * wall-clock time and only then turned into a UTC instant in its own zone (TZID), with the zone
 * rules of the JavaScript runtime (Intl, the IANA database). A weekly show at 20:00 in Paris stays at
 * 20:00 in Paris on both sides of a change of time, which is what a recurrence in local time means.
 *
 * Why ical.js: it is the iCalendar reference implementation of Mozilla's calendar (Thunderbird),
 * kept up to date, and it relates overridden occurrences to their series; its own time-zone
 * conversion needs each zone's VTIMEZONE in the file, which Google's feeds do not always carry for
 * an event set in another zone, hence the conversion here with Intl.
 *
 * Bounded whatever the file says: the text's size, the events read, each series' steps (an
 * unbounded `FREQ=SECONDLY`, a `COUNT` of a billion) and the occurrences kept. Past a bound the
 * event or the rest is left out and said in `problems`; nothing runs without end.
 */

export interface ScheduleOccurrence {
  /** The event's UID, and the occurrence's start: unique in a schedule. */
  id: string;
  title: string;
  /** UTC instants (ISO 8601). */
  start: string;
  end: string;
  allDay: boolean;
}

/** The schedule's zone: the collective's calendars are kept in Paris time. */
export const SCHEDULE_ZONE = 'Europe/Paris';

export interface ScheduleEvent extends ScheduleOccurrence {
  /** The residence the title names, if one does. */
  residence: string | null;
}

/**
 * The calendars expanded for one window, as the schedule's routes keep them (schedule/routes/programme.ts):
 * what every request of that version and day reads.
 */
export interface Expansion {
  /** The calendars' version and the UTC day. */
  key: string;
  from: number;
  to: number;
  events: ScheduleEvent[];
  /** When it was made (the calendar files' DTSTAMP). */
  made: number;
  /** The events by id, made on the first request for one (GET /api/schedule/event.ics). */
  byId?: Map<string, ScheduleEvent>;
  /** The subscription files by residence ('' for the whole schedule), written by the thread. */
  files?: Map<string, Promise<string>>;
}

export interface ExpandOptions {
  /** The window, in ms since the epoch: occurrences overlapping it are kept. */
  from: number;
  to: number;
  /** The zone of all-day events and of times whose TZID is unknown (the calendar's, X-WR-TIMEZONE). */
  defaultZone: string;
  /** Steps of one series, from its first occurrence to the window's end. */
  maxSteps?: number;
  /** Occurrences kept in all. */
  maxOccurrences?: number;
  /** Events (VEVENT) read. */
  maxEvents?: number;
  /** Characters of ICS read. */
  maxLength?: number;
}

export interface Expanded {
  occurrences: ScheduleOccurrence[];
  /** What was left out, in French, for the log. */
  problems: string[];
}

export const LIMITS = { maxSteps: 5000, maxOccurrences: 5000, maxEvents: 5000, maxLength: 8 * 1024 * 1024 };

// A zone's wall clock is read one way for the whole site (@collectif/shared/schedule).
export { wallAt, type WallTime };

/** Whether the runtime knows this zone. */
export function knownZone(zone: string): boolean {
  try {
    wallAt(0, zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at an instant, in ms, to the second. */
function offsetAt(instant: number, zone: string): number {
  const wall = wallAt(instant, zone);
  return (
    Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) -
    Math.floor(instant / 1000) * 1000
  );
}

/**
 * The instant at which the wall clock of `zone` shows this time. A time that does not exist (the
 * hour skipped in March) is moved forward by the change; one that exists twice (the hour repeated
 * in October) is read in winter time.
 */
export function wallToInstant(wall: WallTime, zone: string): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const guessed = offsetAt(asUtc, zone);
  const first = asUtc - guessed;
  const found = offsetAt(first, zone);
  if (found === guessed) return first;
  const second = asUtc - found;
  if (offsetAt(second, zone) === found) return second;
  return asUtc - Math.min(guessed, found);
}

/** The TZID written on a property (DTSTART, RECURRENCE-ID), if any. */
function tzidOf(component: ICAL.Component, name: string): string | null {
  const tzid = component.getFirstProperty(name)?.getParameter('tzid');
  return typeof tzid === 'string' && tzid !== '' ? tzid : null;
}

/**
 * The calendar an ICS text holds, or a French error saying why there is none: too large,
 * unreadable, or not a VCALENDAR. The upstream's loader checks each calendar with it, so that a
 * broken one is an upstream failure (the last good schedule is served meanwhile).
 */
export function readCalendar(text: string, maxLength = LIMITS.maxLength): ICAL.Component {
  if (text.length > maxLength) {
    throw new Error(`calendrier trop grand (${String(text.length)} caractères, ${String(maxLength)} au plus)`);
  }
  let calendar: ICAL.Component;
  try {
    calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch (error) {
    throw new Error(`calendrier illisible : ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (calendar.name !== 'vcalendar') throw new Error('ce document n’est pas un calendrier (VCALENDAR attendu)');
  return calendar;
}

/** One occurrence as the walk gives it (walkCalendar): what each reader of the calendars builds on. */
export interface WalkedOccurrence {
  /** Its series: the VEVENT without RECURRENCE-ID. */
  series: ICAL.Event;
  /** What the occurrence says: its series, or the VEVENT that overrides it (RECURRENCE-ID). */
  item: ICAL.Event;
  /** Whether the series repeats (RRULE, RDATE). */
  recurring: boolean;
  /** Where its series places it (its RECURRENCE-ID), as an instant: `start` unless an override moved it. */
  planned: number;
  /** UTC instants, in ms; `end` is never before `start`. */
  start: number;
  end: number;
  /** A whole day (or days): its start is a date (VALUE=DATE). */
  allDay: boolean;
  /** Its start as written (an all-day event's date). */
  startDate: ICAL.Time;
  /** The zone its times were read in: its DTSTART's TZID when the runtime knows it, else the calendar's. */
  zone: string;
}

export interface WalkOptions extends ExpandOptions {
  /** What the occurrences are, in French, for the problem said past `maxOccurrences` (« émissions »). */
  what?: string;
}

/**
 * Every occurrence of a calendar overlapping the window, series by series, each handed to `visit`
 * (docs/schedule.md, « Recurrences and changes of time »): the calendar read and checked
 * (readCalendar), its series related once to their overridden occurrences, each occurrence expanded
 * in its own wall-clock time and turned into an instant in its own zone, within the bounds of
 * LIMITS. The schedule (expandCalendar) and the events (../events/read.ts) both read calendars
 * through it. Throws readCalendar's French errors; what was left out is in `problems`.
 */
export function walkCalendar(
  text: string,
  options: WalkOptions,
  visit: (occurrence: WalkedOccurrence) => void,
): { problems: string[]; calendarZone: string } {
  const limits = { ...LIMITS, ...options };
  const problems: string[] = [];
  const calendar = readCalendar(text, limits.maxLength);
  const declared = calendar.getFirstPropertyValue('x-wr-timezone');
  const calendarZone = typeof declared === 'string' && knownZone(declared) ? declared : options.defaultZone;

  let vevents = calendar.getAllSubcomponents('vevent');
  if (vevents.length > limits.maxEvents) {
    problems.push(`${String(vevents.length)} évènements : seuls les ${String(limits.maxEvents)} premiers sont lus`);
    vevents = vevents.slice(0, limits.maxEvents);
  }

  // Series first, then the occurrences they override (RECURRENCE-ID), related to their series.
  const series = new Map<string, ICAL.Event>();
  const unknownZones = new Set<string>();
  for (const vevent of vevents) {
    if (vevent.hasProperty('recurrence-id')) continue;
    try {
      // Its overridden occurrences are related below, once: left to itself, ical.js looks for them
      // among every event of the file for each event (measured: 20,000 events took 82 s).
      const event = new ICAL.Event(vevent, { exceptions: [], strictExceptions: true });
      // A VEVENT without UID or DTSTART is not an occurrence of anything (the types promise them).
      const uid = event.uid as string | null;
      if (uid === null || !vevent.hasProperty('dtstart')) continue;
      series.set(uid, event);
    } catch (error) {
      problems.push(`évènement illisible : ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const vevent of vevents) {
    if (!vevent.hasProperty('recurrence-id')) continue;
    const uid = vevent.getFirstPropertyValue('uid');
    const event = typeof uid === 'string' ? series.get(uid) : undefined;
    try {
      if (event !== undefined) event.relateException(vevent);
    } catch (error) {
      problems.push(`occurrence modifiée illisible : ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The zone a TZID stands for: itself when the runtime knows it, else the calendar's (said once). */
  const zoneOf = (tzid: string | null): string => {
    const zone = tzid ?? calendarZone;
    if (knownZone(zone)) return zone;
    unknownZones.add(zone);
    return calendarZone;
  };
  /** The instant of an occurrence's time, in the zone its event names. */
  const instant = (time: ICAL.Time, zone: string | null): number => {
    if (time.zone === ICAL.Timezone.utcTimezone) return time.toJSDate().getTime();
    return wallToInstant(
      { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second },
      zoneOf(zone),
    );
  };

  let kept = 0;
  let full = false;
  for (const event of series.values()) {
    if (full) break;
    const zone = tzidOf(event.component, 'dtstart');
    const recurring = event.isRecurring();
    const iterator = event.iterator();
    for (let steps = 0; ; steps += 1) {
      if (steps >= limits.maxSteps) {
        problems.push(`« ${event.summary} » : plus de ${String(limits.maxSteps)} répétitions, la suite est ignorée`);
        break;
      }
      // A finished series (COUNT, UNTIL) answers undefined, whatever the types say.
      const next = iterator.next() as ICAL.Time | null | undefined;
      if (next === null || next === undefined) break;
      const details = event.getOccurrenceDetails(next);
      const itemZone = details.item === event ? zone : (tzidOf(details.item.component, 'dtstart') ?? zone);
      const start = instant(details.startDate, itemZone);
      const end = Math.max(start, instant(details.endDate, itemZone));
      const planned = instant(next, zone);
      // Occurrences come in order of their (unmodified) start: past the window, the series is done.
      if (planned >= options.to && start >= options.to) break;
      if (end <= options.from || start >= options.to) {
        if (!recurring) break;
        continue;
      }
      visit({
        series: event,
        item: details.item,
        recurring,
        planned,
        start,
        end,
        allDay: details.startDate.isDate,
        startDate: details.startDate,
        zone: details.startDate.zone === ICAL.Timezone.utcTimezone ? calendarZone : zoneOf(itemZone),
      });
      kept += 1;
      if (kept >= limits.maxOccurrences) {
        problems.push(
          `plus de ${String(limits.maxOccurrences)} ${options.what ?? 'émissions'} dans la fenêtre : la suite est ignorée`,
        );
        full = true;
        break;
      }
      if (!recurring) break;
    }
  }
  for (const zone of unknownZones) {
    problems.push(`fuseau horaire inconnu « ${zone} » : heures lues à l’heure de ${calendarZone}`);
  }
  return { problems, calendarZone };
}

/** The schedule's occurrences of a calendar in a window (docs/schedule.md), in order of start. */
export function expandCalendar(text: string, options: ExpandOptions): Expanded {
  const occurrences: ScheduleOccurrence[] = [];
  const { problems } = walkCalendar(text, options, ({ series, item, start, end, allDay }) => {
    occurrences.push({
      id: `${series.uid}/${new Date(start).toISOString()}`,
      title: item.summary,
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      allDay,
    });
  });
  occurrences.sort((a, b) => a.start.localeCompare(b.start) || a.title.localeCompare(b.title));
  return { occurrences, problems };
}
