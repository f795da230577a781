import type { FastifyPluginCallback } from 'fastify';
import { ApiHttpError } from '../../http/errors';
import { cacheControlFor } from '../../upstream/cache';
import type { ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { routeSchemas } from '../../api/schemas/routes';
import { calendarFiles, type Answered } from './calendar-files';
import { SCHEDULE_ZONE, type Expansion, type ScheduleEvent } from '../expand';
import { LastGood } from '../last-good';
import { residenceMatcher } from '../residence-of';
import { holdScheduleWorker } from '../schedule-worker';
import type { Cached } from '../../upstream/cache';

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

export interface ScheduleRouteOptions {
  /** The site's public origin (SITE_ORIGIN), for the residence pages the calendar files link to. */
  siteOrigin: string;
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
  const answered = (calendars: Cached<string[]>, stale: boolean, now: number): Answered => {
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

  // The calendar files (docs/schedule.md, « Calendar files (.ics) »), from the same expansions.
  calendarFiles(app, {
    expansionOf,
    answered,
    write: (events, icsOptions) => thread.worker.write(events, icsOptions),
    siteOrigin: options.siteOrigin,
  });
  done();
};

export default schedule;
