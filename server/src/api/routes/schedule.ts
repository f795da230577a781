import type { FastifyPluginCallback } from 'fastify';
import { ApiHttpError } from '../errors';
import { cacheControlFor } from '../http/reply';
import type { ValibotJsonTypeProvider } from '../schemas/provider';
import { routeSchemas } from '../schemas/routes';
import { expandCalendar, type ScheduleOccurrence } from '../schedule/expand';

/** The schedule's zone: the collective's calendars are kept in Paris time. */
export const SCHEDULE_ZONE = 'Europe/Paris';
const DAY_MS = 24 * 3600 * 1000;
/** What is expanded: from the day before today to 28 days after it (UTC days). */
const BEFORE_DAYS = 1;
const AFTER_DAYS = 28;
/** Asked without `to`: the week to come. */
const DEFAULT_SPAN_MS = 7 * DAY_MS;

export interface ScheduleEvent extends ScheduleOccurrence {
  /** The residence the title names, if one does. */
  residence: string | null;
}

/** Lower case, no accents, single spaces: how a title and a residence's name are compared. */
const plain = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * GET /api/schedule?from&to (docs/schedule.md): the shows between two instants, as UTC instants,
 * with the calendars' zone. The calendars are expanded once per version and per day, not per request.
 */
const schedule: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { sources, apiConfig: config, clock } = app;
  // A title names a residence when it starts with its artist's name (« Axonberg · Synapses »).
  const residences = sources.residences
    .map((residence) => ({ id: residence.id, name: plain(residence.artist) }))
    .filter((residence) => residence.name !== '')
    .sort((a, b) => b.name.length - a.name.length);
  const residenceOf = (title: string): string | null => {
    const text = plain(title);
    return (
      residences.find(
        (residence) =>
          text === residence.name ||
          (text.startsWith(residence.name) && /^[\s·:–-]/.test(text.slice(residence.name.length))),
      )?.id ?? null
    );
  };

  let expanded: { key: string; from: number; to: number; events: ScheduleEvent[] } | undefined;
  let saidFor: number | undefined;
  function expand(texts: readonly string[], version: number) {
    const today = Math.floor(clock() / DAY_MS) * DAY_MS;
    const key = `${String(version)}|${String(today)}`;
    if (expanded?.key === key) return expanded;
    const from = today - BEFORE_DAYS * DAY_MS;
    const to = today + (AFTER_DAYS + 1) * DAY_MS;
    const events: ScheduleEvent[] = [];
    const problems: string[] = [];
    for (const text of texts) {
      const found = expandCalendar(text, { from, to, defaultZone: SCHEDULE_ZONE });
      events.push(
        ...found.occurrences.map((occurrence) => ({ ...occurrence, residence: residenceOf(occurrence.title) })),
      );
      problems.push(...found.problems);
    }
    events.sort((a, b) => a.start.localeCompare(b.start) || a.title.localeCompare(b.title));
    // What was left out is said once per version of the calendars.
    if (saidFor !== version) for (const problem of problems) app.log.warn(`Agenda : ${problem}`);
    saidFor = version;
    expanded = { key, from, to, events };
    return expanded;
  }

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
      let window;
      try {
        window = expand(calendars.value, calendars.version);
      } catch (error) {
        throw new ApiHttpError(
          502,
          'upstream_invalid',
          `L’agenda de la radio est illisible : ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const now = clock();
      const from = instant(request.query.from, now, 'from');
      const to = instant(request.query.to, from + DEFAULT_SPAN_MS, 'to');
      if (from >= to || from < window.from || to > window.to) {
        throw new ApiHttpError(
          400,
          'bad_request',
          `Fenêtre invalide : de ${new Date(window.from).toISOString()} à ${new Date(window.to).toISOString()}, début avant la fin.`,
        );
      }
      const events = window.events.filter((event) => Date.parse(event.end) > from && Date.parse(event.start) < to);
      const body = reply.serialized({
        zone: SCHEDULE_ZONE,
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        events,
      });
      return reply.representation(`schedule|${body}`, () => body, {
        cacheControl: cacheControlFor(calendars, config.ttlMs.schedule, now),
        state: calendars.state,
      });
    },
  );
  done();
};

export default schedule;
