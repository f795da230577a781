import type { FastifyPluginCallback } from 'fastify';
import { PAGES, pagePattern } from '@collectif/shared/addresses';
import { ApiHttpError } from '../http/errors';
import { EventsBook, eventsAnswer } from './book';
import { eventFileName } from './ics';
import { EVENT_SLUG } from './read';
import type { ValibotJsonTypeProvider } from '../api/schemas/provider';
import { routeSchemas } from '../api/schemas/routes';

const ICS_TYPE = 'text/calendar; charset=utf-8';
/** An answer is made for its minute: the same answer, and ETag, for every request of that minute. */
const MINUTE_MS = 60_000;

const notFound = () => new ApiHttpError(404, 'event_not_found', 'Cet évènement n’existe pas ou n’est plus à l’agenda.');

export interface EventsRouteOptions {
  /** The site's public origin (SITE_ORIGIN), for the event pages the calendar files link to. */
  siteOrigin: string;
}

/**
 * The collective's events (docs/events.md, « The API »): GET /api/events?residence=&coming=&past= (the
 * coming and past ones, at most that many of each), GET /api/events/:slug (one, found by its slug's fingerprint), GET /api/events.ics
 * (every event, to subscribe to) and GET /api/events/:slug.ics (one, « Ajouter à mon agenda »).
 * Read from the calendars once per version and per day (the `events-book` plugin).
 */
const events: FastifyPluginCallback<EventsRouteOptions> = (instance, options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { sources, apiConfig: config, clock, eventsBook: book } = app;
  const residences = new Set(sources.residences.map((residence) => residence.id));
  const source = config.events === null ? 'demo' : 'calendar';
  // Each event's page on the site's public origin, never on a Host header a client wrote.
  const { siteOrigin } = options;
  /** Where events' pages are today, in the page table the remotes declare (docs/parts.md, « Addresses »). */
  const eventPath = async () => pagePattern((await app.sitePages()).pages, PAGES.event);
  const errors = { '4xx': routeSchemas.error, '5xx': routeSchemas.error };

  /** The event a slug names: by its fingerprint, whatever its date says (an event moved keeps it). */
  const eventOf = async (slug: string) => {
    const fingerprint = EVENT_SLUG.exec(slug)?.[4];
    // Anything that cannot be a slug is unknown without a look.
    if (fingerprint === undefined) throw notFound();
    const read = await book.read();
    const event = read.reading.byFingerprint.get(fingerprint);
    if (event === undefined) throw notFound();
    return { read, event };
  };

  app.get(
    '/events',
    { schema: { querystring: routeSchemas.eventsQuery, response: { 200: routeSchemas.events, ...errors } } },
    async (request, reply) => {
      const { residence, coming, past } = request.query;
      if (residence !== undefined && !residences.has(residence)) {
        throw new ApiHttpError(404, 'not_found', 'Résidence inconnue.');
      }
      const read = await book.read();
      const answered = book.answered(read);
      const now = Math.floor(clock() / MINUTE_MS) * MINUTE_MS;
      const stale = answered.state === 'stale';
      return reply.representation(
        `events|${read.reading.key}|${residence ?? ''}|${String(coming)}|${String(past)}|${String(now)}|${String(stale)}`,
        () => reply.serialized(eventsAnswer(read.reading.events, { now, residence, stale, source, coming, past })),
        answered,
      );
    },
  );

  app.get('/events.ics', { schema: { response: errors } }, async (_request, reply) => {
    const read = await book.read();
    const path = await eventPath();
    let text: string;
    try {
      text = await book.subscription(read.reading, { origin: siteOrigin, eventPath: path });
    } catch (error) {
      throw new ApiHttpError(
        502,
        'upstream_invalid',
        `Les évènements n’ont pas pu être écrits : ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    reply.header('Content-Disposition', 'inline; filename="evenements.ics"');
    return reply.representation(`events.ics|${read.reading.key}|${path ?? ''}|${siteOrigin}`, () => text, {
      type: ICS_TYPE,
      ...book.answered(read),
    });
  });

  app.get(
    '/events/:slug',
    { schema: { params: routeSchemas.eventParams, response: { 200: routeSchemas.event, ...errors } } },
    async (request, reply) => {
      const { read, event } = await eventOf(request.params.slug);
      return reply.representation(
        `event|${read.reading.key}|${event.fingerprint}`,
        () => reply.serialized(event),
        book.answered(read),
      );
    },
  );

  app.get(
    '/events/:slug.ics',
    { schema: { params: routeSchemas.eventParams, response: errors } },
    async (request, reply) => {
      const { read, event } = await eventOf(request.params.slug);
      const path = await eventPath();
      reply.header('Content-Disposition', `attachment; filename="${eventFileName(event)}"`);
      return reply.representation(
        `event.ics|${read.reading.key}|${event.fingerprint}|${path ?? ''}|${siteOrigin}`,
        () => EventsBook.single(event, read.reading, { origin: siteOrigin, eventPath: path }),
        { type: ICS_TYPE, ...book.answered(read) },
      );
    },
  );
  done();
};

export default events;
