import type { Events } from '@collectif/shared';
import { ApiHttpError } from '../http/errors';
import { wallAt } from '../schedule/expand';
import { calendarIcs } from '../schedule/ics';
import { LastGood } from '../schedule/last-good';
import type { ScheduleWorker } from '../schedule/schedule-worker';
import { cacheControlFor, type Cached, type Source } from '../upstream/cache';
import { eventIcsItem, eventsCalendar, type EventFileOptions } from './ics';
import type { EventRecord } from './read';
import type { LineupResidence } from './text';

/**
 * The collective's events as read from their calendars (docs/events.md, « Off the event loop »):
 * read by the schedule's thread once per version of the calendars and per UTC day, never per
 * request; requests during a reading wait for that one; when a reading fails, the last good one is
 * answered (stale) and the same calendars are read again a minute later. The API's routes
 * (events/routes.ts), the site's `/evenements.ics` and the sitemap (site/published.ts) read the same.
 */

/** The zone the collective's calendars are kept in: days and years are counted in it. */
export const EVENTS_ZONE = 'Europe/Paris';
const DAY_MS = 24 * 3600 * 1000;
/** A reading that failed is attempted again this long after, not at every request. */
const RETRY_MS = 60_000;
/** Past events in an answer, latest first. */
export const PAST_EVENTS = 100;

/** The events of one version of the calendars and one day. */
export interface EventsReading {
  /** The calendars' version and the UTC day. */
  key: string;
  /** In order of start. */
  events: EventRecord[];
  /** The events by fingerprint: what a slug finds. */
  byFingerprint: Map<string, EventRecord>;
  /** When it was read (the calendar files' DTSTAMP). */
  made: number;
  /** The subscription files by page path and origin, written by the thread. */
  files: Map<string, Promise<string>>;
}

export interface EventsRead {
  reading: EventsReading;
  calendars: Cached<string[]>;
  /** The last good reading is answered: this one failed. */
  stale: boolean;
}

/** The year of an event in Paris: its slug's (its start's day in Paris, an all-day event's date). */
const yearOf = (event: Pick<EventRecord, 'slug'>) => Number(event.slug.slice(0, 4));

/**
 * GET /api/events's answer at `now`: the coming events (those not ended, soonest first, all), the
 * past ones (latest first, PAST_EVENTS at most), and how many are not cancelled this year in Paris;
 * with `residence`, only the events whose line-up names it.
 */
export function eventsAnswer(
  events: readonly EventRecord[],
  options: {
    now: number;
    residence?: string | undefined;
    stale: boolean;
    source: Events['source'];
    /** At most this many coming events (all when unset). */
    coming?: number | undefined;
    /** At most this many past events (PAST_EVENTS when unset, never more). */
    past?: number | undefined;
  },
): Events {
  const { now, residence } = options;
  const mine =
    residence === undefined
      ? events
      : events.filter((event) => event.lineup.some((artist) => artist.residence === residence));
  const { year } = wallAt(now, EVENTS_ZONE);
  return {
    zone: EVENTS_ZONE,
    now: new Date(now).toISOString(),
    stale: options.stale,
    source: options.source,
    thisYear: mine.filter((event) => event.status !== 'cancelled' && yearOf(event) === year).length,
    coming: mine.filter((event) => Date.parse(event.end) > now).slice(0, options.coming),
    past: mine
      .filter((event) => Date.parse(event.end) <= now)
      .reverse()
      .slice(0, Math.min(PAST_EVENTS, options.past ?? PAST_EVENTS)),
  };
}

export class EventsBook {
  private readonly readings: LastGood<EventsReading>;
  private saidFor: number | undefined;

  constructor(
    private readonly deps: {
      source: Source<string[]>;
      worker: ScheduleWorker;
      residences: readonly LineupResidence[];
      clock: () => number;
      /** How long the calendars are kept (EVENTS_TTL_S): answers are not cached longer. */
      ttlMs: number;
      warn: (message: string) => void;
    },
  ) {
    this.readings = new LastGood<EventsReading>({
      clock: deps.clock,
      retryMs: RETRY_MS,
      warn: (message) => {
        deps.warn(`Évènements : ${message}`);
      },
      unreadable: (message) =>
        new ApiHttpError(502, 'upstream_invalid', `Les évènements du collectif sont illisibles : ${message}`),
    });
  }

  /** Today's events, or the last good ones (stale) when reading them fails. */
  async read(): Promise<EventsRead> {
    const calendars = await this.deps.source.get();
    const today = Math.floor(this.deps.clock() / DAY_MS) * DAY_MS;
    const key = `${String(calendars.version)}|${String(today)}`;
    const { value, stale } = await this.readings.get(key, () => this.make(calendars, today, key));
    return { reading: value, calendars, stale };
  }

  private async make(calendars: Cached<string[]>, today: number, key: string): Promise<EventsReading> {
    const residences = this.deps.residences.map(({ id, artist }) => ({ id, artist }));
    const found = await this.deps.worker.readEvents(calendars.value, { today, defaultZone: EVENTS_ZONE, residences });
    // What was left out is said once per version of the calendars.
    if (this.saidFor !== calendars.version) {
      for (const problem of found.problems) this.deps.warn(`Évènements : ${problem}`);
      this.saidFor = calendars.version;
    }
    const byFingerprint = new Map(found.events.map((event) => [event.fingerprint, event]));
    return { key, events: found.events, byFingerprint, made: this.deps.clock(), files: new Map() };
  }

  /** Cache-Control and X-Cache of an answer made from a reading: the calendars', or stale. */
  answered({ calendars, stale }: EventsRead): { cacheControl: string; state: Cached<unknown>['state'] } {
    const state = stale ? 'stale' : calendars.state;
    return { cacheControl: cacheControlFor({ ...calendars, state }, this.deps.ttlMs, this.deps.clock()), state };
  }

  /**
   * Every event as a subscription file, written once per reading, page path and origin by the
   * thread; one that failed is written again at the next request.
   */
  subscription(reading: EventsReading, options: EventFileOptions): Promise<string> {
    const key = `${options.eventPath ?? ''}|${options.origin}`;
    let file = reading.files.get(key);
    if (file === undefined) {
      file = this.deps.worker.writeCalendar(
        reading.events.map((event) => eventIcsItem(event, options)),
        eventsCalendar(reading.made, true),
      );
      file.catch(() => reading.files.delete(key));
      reading.files.set(key, file);
    }
    return file;
  }

  /** One event as a calendar file (« Ajouter à mon agenda »), written here: a fraction of a millisecond. */
  static single(event: EventRecord, reading: EventsReading, options: EventFileOptions): string {
    return calendarIcs([eventIcsItem(event, options)], eventsCalendar(reading.made, false));
  }
}
