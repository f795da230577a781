import type { FastifyPluginCallback } from 'fastify';
import { LRUCache } from 'lru-cache';
import { siteConfig } from '@collectif/shared/config';
import { FOLLOW_MAX, isResidenceId } from '@collectif/shared/follow';
import { PAGES, pagePattern } from '@collectif/shared/addresses';
import { readSiteOrigin } from '../settings/config';
import { ApiHttpError } from '../http/errors';
import { cacheControlFor } from '../upstream/cache';
import type { ValibotJsonTypeProvider } from '../api/schemas/provider';
import { routeSchemas } from '../api/schemas/routes';
import { wallAt, type ScheduleOccurrence } from './expand';
import { fileSlug, scheduleIcs } from './ics';
import { LastGood } from './last-good';
import { residenceMatcher } from './residence-of';
import { holdScheduleWorker } from './schedule-worker';
import type { Cached } from '../upstream/cache';
import type { DemoResidence } from './demo-residences';

/** The schedule's zone: the collective's calendars are kept in Paris time. */
export const SCHEDULE_ZONE = 'Europe/Paris';
const DAY_MS = 24 * 3600 * 1000;
/** What is expanded: from 14 days before today (the week before this one) to 28 days after it (UTC days). */
const BEFORE_DAYS = 14;
const AFTER_DAYS = 28;
/** Asked without `to`: the week to come. */
const DEFAULT_SPAN_MS = 7 * DAY_MS;
/** The longest span one request may ask for. */
const MAX_SPAN_MS = 35 * DAY_MS;
/** An expansion that failed is attempted again this long after, not at every request. */
const RETRY_MS = 60_000;
const ICS_TYPE = 'text/calendar; charset=utf-8';
/** The followed residences' calendar: a reminder this many minutes before each show (docs/follow.md). */
export const FOLLOW_REMINDER_MINUTES = 15;
/** Followed residences' calendars kept written, by list (the lists come from visitors: bounded). */
const FOLLOW_FILES = 64;

export interface ScheduleEvent extends ScheduleOccurrence {
  /** The residence the title names, if one does. */
  residence: string | null;
}

/** The calendars expanded for one window: what every request of that version and day reads. */
interface Expansion {
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

export interface ScheduleRouteOptions {
  /** The site's public origin (SITE_ORIGIN), for the residence pages the calendar files link to. */
  siteOrigin?: string;
}

/**
 * GET /api/schedule?from&to (docs/schedule.md): the shows between two instants, as UTC instants,
 * with the calendars' zone; GET /api/schedule/event.ics?id=, GET /api/schedule.ics?residence= and
 * GET /api/schedule/suivi.ics?residences= (docs/follow.md): the same shows as calendar files. The calendars are expanded once per version and per day, not per
 * request, by the schedule's thread (docs/schedule.md, « Off the event loop »).
 */
const schedule: FastifyPluginCallback<ScheduleRouteOptions> = (instance, options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { sources, apiConfig: config, clock } = app;
  // A title names a residence when it starts with its artist's name (« Axonberg · Synapses »).
  const residences = sources.residences;
  const residenceOf = residenceMatcher(residences);

  // One thread expands the calendars (docs/schedule.md, « Off the event loop »), stopped with the
  // server. Requests during an expansion wait for that one; when it fails, the last good expansion
  // is answered (said stale) and the same calendars are attempted again a minute later, not at every request.
  const thread = holdScheduleWorker();
  instance.addHook('onClose', () => thread.release());
  const expansions = new LastGood<Expansion>({
    clock,
    retryMs: RETRY_MS,
    warn: (message) => {
      app.log.warn(`Agenda : ${message}`);
    },
    unreadable: (message) =>
      new ApiHttpError(502, 'upstream_invalid', `L’agenda de la radio est illisible : ${message}`),
  });
  let saidFor: number | undefined;

  async function expand(texts: readonly string[], version: number, today: number, key: string) {
    const from = today - BEFORE_DAYS * DAY_MS;
    const to = today + (AFTER_DAYS + 1) * DAY_MS;
    const found = await thread.worker.expand(texts, { from, to, defaultZone: SCHEDULE_ZONE });
    const events: ScheduleEvent[] = found.flatMap((one) =>
      one.occurrences.map((occurrence) => ({ ...occurrence, residence: residenceOf(occurrence.title) })),
    );
    events.sort((a, b) => a.start.localeCompare(b.start) || a.title.localeCompare(b.title));
    // What was left out is said once per version of the calendars.
    if (saidFor !== version) {
      for (const problem of found.flatMap((one) => one.problems)) app.log.warn(`Agenda : ${problem}`);
      saidFor = version;
    }
    return { key, from, to, events, made: clock() };
  }

  /** The calendars' expansion for today, or the last good one (stale) when it fails. */
  async function expansionOf(calendars: Cached<string[]>): Promise<{ expansion: Expansion; stale: boolean }> {
    const today = Math.floor(clock() / DAY_MS) * DAY_MS;
    const key = `${String(calendars.version)}|${String(today)}`;
    const { value, stale } = await expansions.get(key, () => expand(calendars.value, calendars.version, today, key));
    return { expansion: value, stale };
  }

  /** Cache-Control and X-Cache: the calendars', or stale when the last good expansion is answered. */
  const answered = (calendars: Cached<string[]>, stale: boolean, now: number) => {
    const state = stale ? 'stale' : calendars.state;
    return { cacheControl: cacheControlFor({ ...calendars, state }, config.ttlMs.schedule, now), state };
  };

  const instant = (value: string | undefined, fallback: number, name: string): number => {
    if (value === undefined) return fallback;
    const parsed = Date.parse(value);
    if (Number.isNaN(parsed))
      throw new ApiHttpError(400, 'bad_request', `${name} : date invalide (ISO 8601 attendue).`);
    return parsed;
  };

  app.get(
    '/schedule',
    {
      schema: {
        querystring: routeSchemas.scheduleQuery,
        response: { 200: routeSchemas.schedule, '4xx': routeSchemas.error, '5xx': routeSchemas.error },
      },
    },
    async (request, reply) => {
      const calendars = await sources.schedule.get();
      const { expansion: window, stale } = await expansionOf(calendars);
      const now = clock();
      const from = instant(request.query.from, now, 'from');
      const to = instant(request.query.to, from + DEFAULT_SPAN_MS, 'to');
      if (from >= to || to - from > MAX_SPAN_MS) {
        throw new ApiHttpError(400, 'bad_request', 'Fenêtre invalide : le début avant la fin, 35 jours au plus.');
      }
      const { residence } = request.query;
      if (residence !== undefined && !residences.some((known) => known.id === residence)) {
        throw new ApiHttpError(404, 'not_found', 'Résidence inconnue.');
      }
      // What lies outside the expanded window has no show: the answer says what is known.
      const events = window.events.filter(
        (event) =>
          Date.parse(event.end) > from &&
          Date.parse(event.start) < to &&
          (residence === undefined || event.residence === residence),
      );
      const body = reply.serialized({
        zone: SCHEDULE_ZONE,
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        known: { from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString() },
        events,
      });
      return reply.representation(`schedule|${body}`, () => body, answered(calendars, stale, now));
    },
  );

  // The calendar files (docs/schedule.md, « Calendar files (.ics) »): each show links to its
  // residence's page on the site's public origin, never on a Host header a client wrote.
  const siteOrigin = options.siteOrigin ?? readSiteOrigin(process.env);
  const residenceById = new Map(sources.residences.map((residence) => [residence.id, residence]));
  const icsOptions = (expansion: Expansion, name: string, subscription: boolean, residencePath: string | null) => ({
    name,
    subscription,
    origin: siteOrigin,
    residencePath,
    stamp: expansion.made,
    product: siteConfig.name,
  });
  /** Where residences' pages are today, in the page table the remotes declare (docs/parts.md, « Addresses »). */
  const residencePath = async () => pagePattern((await app.sitePages()).pages, PAGES.residence);
  /**
   * A subscription file, written once per expansion by the thread (5,000 shows take about 0.15 s);
   * one that failed is written again at the next request.
   */
  const subscription = (
    expansion: Expansion,
    residence: DemoResidence | undefined,
    path: string | null,
  ): Promise<string> => {
    const files = (expansion.files ??= new Map<string, Promise<string>>());
    const key = `${residence?.id ?? ''}|${path ?? ''}`;
    let file = files.get(key);
    if (file === undefined) {
      const events =
        residence === undefined
          ? expansion.events
          : expansion.events.filter((event) => event.residence === residence.id);
      const name =
        residence === undefined ? `${siteConfig.name} · programme` : `${siteConfig.name} · ${residence.artist}`;
      file = thread.worker.write(events, icsOptions(expansion, name, true, path));
      file.catch(() => files.delete(key));
      files.set(key, file);
    }
    return file;
  };
  const icsErrors = { '4xx': routeSchemas.error, '5xx': routeSchemas.error };
  /** A subscription file, or the API's 502 when the thread could not write it. */
  const written = async (file: Promise<string>): Promise<string> => {
    try {
      return await file;
    } catch (error) {
      throw new ApiHttpError(
        502,
        'upstream_invalid',
        `Le programme n’a pas pu être écrit : ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };

  app.get(
    '/schedule/event.ics',
    { schema: { querystring: routeSchemas.scheduleEventIcsQuery, response: icsErrors } },
    async (request, reply) => {
      const calendars = await sources.schedule.get();
      const { expansion, stale } = await expansionOf(calendars);
      if (expansion.byId === undefined) {
        expansion.byId = new Map();
        for (const event of expansion.events) if (!expansion.byId.has(event.id)) expansion.byId.set(event.id, event);
      }
      const event = expansion.byId.get(request.query.id);
      if (event === undefined) {
        throw new ApiHttpError(404, 'show_not_found', 'Cette émission n’est pas (ou plus) au programme.');
      }
      const day = wallAt(Date.parse(event.start) + (event.allDay ? 12 * 3600 * 1000 : 0), SCHEDULE_ZONE);
      const date = [day.year, day.month, day.day].map((part) => String(part).padStart(2, '0')).join('-');
      reply.header('Content-Disposition', `attachment; filename="${fileSlug(event.title, 'emission')}-${date}.ics"`);
      const path = await residencePath();
      return reply.representation(
        `event.ics|${expansion.key}|${event.id}|${path ?? ''}`,
        // One show: written here, in a fraction of a millisecond.
        () => scheduleIcs([event], icsOptions(expansion, siteConfig.name, false, path)),
        { type: ICS_TYPE, ...answered(calendars, stale, clock()) },
      );
    },
  );

  app.get(
    '/schedule.ics',
    { schema: { querystring: routeSchemas.scheduleIcsQuery, response: icsErrors } },
    async (request, reply) => {
      const { residence } = request.query;
      const found = residence === undefined ? undefined : residenceById.get(residence);
      if (residence !== undefined && found === undefined) {
        throw new ApiHttpError(404, 'not_found', 'Résidence inconnue.');
      }
      const calendars = await sources.schedule.get();
      const { expansion, stale } = await expansionOf(calendars);
      const path = await residencePath();
      const text = await written(subscription(expansion, found, path));
      const file = found === undefined ? 'programme' : `programme-${fileSlug(found.id, 'residence')}`;
      reply.header('Content-Disposition', `inline; filename="${file}.ics"`);
      return reply.representation(`schedule.ics|${expansion.key}|${found?.id ?? ''}|${path ?? ''}`, () => text, {
        type: ICS_TYPE,
        ...answered(calendars, stale, clock()),
      });
    },
  );

  // The calendar of the residences a visitor follows (docs/follow.md, « The calendar »): the ids are
  // all the address holds, nothing names a person. Each show as in the programme's file, with a
  // reminder before it, so that the phone's own calendar says it with no push service.
  const followFiles = new LRUCache<string, Promise<string>>({ max: FOLLOW_FILES });
  app.get(
    '/schedule/suivi.ics',
    { schema: { querystring: routeSchemas.scheduleFollowIcsQuery, response: icsErrors } },
    async (request, reply) => {
      const asked = request.query.residences.split(',');
      if (asked.length > FOLLOW_MAX || !asked.every((id) => isResidenceId(id))) {
        throw new ApiHttpError(
          400,
          'bad_request',
          `Paramètre « residences » invalide : des noms de résidence séparés par des virgules, ${String(FOLLOW_MAX)} au plus.`,
        );
      }
      // A residence that is no longer the collective's is left out, not refused: a calendar
      // program that subscribed to the address keeps its other shows.
      const followed = [...new Set(asked)].filter((id) => residenceById.has(id)).sort();
      const calendars = await sources.schedule.get();
      const { expansion, stale } = await expansionOf(calendars);
      const path = await residencePath();
      const key = `${expansion.key}|${followed.join(',')}|${path ?? ''}`;
      let file = followFiles.get(key);
      if (file === undefined) {
        const ids = new Set(followed);
        const events = expansion.events.filter((event) => event.residence !== null && ids.has(event.residence));
        file = thread.worker.write(events, {
          ...icsOptions(expansion, `${siteConfig.name} · mes résidences`, true, path),
          reminderMinutes: FOLLOW_REMINDER_MINUTES,
        });
        file.catch(() => followFiles.delete(key));
        followFiles.set(key, file);
      }
      const text = await written(file);
      reply.header('Content-Disposition', 'inline; filename="mes-residences.ics"');
      return reply.representation(`suivi.ics|${key}`, () => text, {
        type: ICS_TYPE,
        ...answered(calendars, stale, clock()),
      });
    },
  );
  done();
};

export default schedule;
