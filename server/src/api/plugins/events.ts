import fp from 'fastify-plugin';
import type { FastifyPluginCallback } from 'fastify';
import { EventsBook } from '../../events/book';
import { holdScheduleWorker } from '../../schedule/schedule-worker';

declare module 'fastify' {
  interface FastifyInstance {
    /** The collective's events, read from their calendars once per version and per day (docs/events.md). */
    eventsBook: EventsBook;
  }
}

/**
 * The events as the API's routes, the site's `/evenements.ics` and the sitemap read them: one
 * reading for all, by the schedule's thread (held while the server runs, stopped with the last
 * server that holds it).
 */
const events: FastifyPluginCallback = (app, _options, done) => {
  const thread = holdScheduleWorker();
  app.addHook('onClose', () => thread.release());
  app.decorate(
    'eventsBook',
    new EventsBook({
      source: app.sources.events,
      worker: thread.worker,
      residences: app.sources.residences,
      clock: app.clock,
      ttlMs: app.apiConfig.ttlMs.events,
      warn: (message) => {
        app.log.warn(message);
      },
    }),
  );
  done();
};

export const eventsPlugin = fp(events, { name: 'events-book', dependencies: ['sources'] });
