import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import { siteConfig } from '@collectif/shared/config';
import { FOLLOW_MAX, isResidenceId } from '@collectif/shared/follow';
import { PAGES, pagePattern } from '@collectif/shared/addresses';
import { ApiHttpError } from '../../http/errors';
import type { ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { routeSchemas } from '../../api/schemas/routes';
import type { Cached } from '../../upstream/cache';
import type { DemoResidence } from '../demo-residences';
import { SCHEDULE_ZONE, wallAt, type Expansion } from '../expand';
import { fileSlug, scheduleIcs, type IcsEvent, type IcsOptions } from '../ics';

const ICS_TYPE = 'text/calendar; charset=utf-8';
/** The followed residences' calendar: a reminder this many minutes before each show (docs/follow.md). */
export const FOLLOW_REMINDER_MINUTES = 15;
/** Followed residences' calendars kept written, by list (the lists come from visitors: bounded). */
const FOLLOW_FILES = 64;

/** How an answer made from the calendars is cached: its Cache-Control and its X-Cache. */
export interface Answered {
  cacheControl: string;
  state: Cached<unknown>['state'];
}

/** What the calendar files are made from: the schedule's expansions (programme.ts). */
export interface CalendarFilesContext {
  /** The calendars' expansion for today, or the last good one (stale). */
  expansionOf: (calendars: Cached<string[]>) => Promise<{ expansion: Expansion; stale: boolean }>;
  answered: (calendars: Cached<string[]>, stale: boolean, now: number) => Answered;
  /** Writes a calendar file on the schedule's thread. */
  write: (events: readonly IcsEvent[], options: IcsOptions) => Promise<string>;
  /** The site's public origin, for the residence pages the files link to. */
  siteOrigin: string;
}

/**
 * GET /api/schedule/event.ics?id=, GET /api/schedule.ics?residence= and GET /api/schedule/suivi.ics?residences=
 * (docs/schedule.md, « Calendar files (.ics) », docs/follow.md): the programme's shows as calendar
 * files. Each show links to its residence's page on the site's public origin, never on a Host header
 * a client wrote.
 */
export function calendarFiles(
  instance: FastifyInstance,
  { expansionOf, answered, write, siteOrigin }: CalendarFilesContext,
): void {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { sources, clock } = app;
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
      file = write(events, icsOptions(expansion, name, true, path));
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
        file = write(events, {
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
}
