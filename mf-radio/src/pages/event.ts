// mf-radio's event page besides its view (docs/head.md, « One head »): the data it needs for its
// route and its head from that data, exported by the page's module as `page`.
import { api, siteConfig, type EventItem, type PageDefinition } from '@collectif/shared';
import { preloadSrcSet } from '@collectif/shared/pictures';
import { describe, musicEvent } from '@collectif/shared/seo';
import { PAGES } from '@collectif/shared/addresses';
import { zonedIso } from '@collectif/shared/schedule';
import { eventDateLabel, eventDay, eventHours, posterAddress, webAddress } from '../events/format';

const absolute = (origin: string, path: string) => new URL(path, origin).href;

/** How wide the poster is shown (styles/events.css): the column, 40rem at most from 800 px. */
export const EVENT_POSTER_SIZES = '(min-width: 800px) 40rem, 100vw';

/** An event's address as the API reads it: its Paris day and its fingerprint (docs/events.md, « Addresses »). */
export const isEventSlug = (slug: string): boolean => /^\d{4}-\d{2}-\d{2}-[0-9a-f]{10}$/.test(slug);

/** The whole days of an event as schema.org wants them: its first and last dates. */
function jsonLdDates(event: EventItem): { startDate: string; endDate: string } {
  if (!event.allDay) return { startDate: zonedIso(event.start, event.zone), endDate: zonedIso(event.end, event.zone) };
  const last = new Date(Date.parse(event.end) - 12 * 3600 * 1000);
  return { startDate: eventDay(event), endDate: eventDay({ start: last.toISOString(), allDay: false }) };
}

/** The event's answer, and whether the API said it does not exist. */
export function readEvent(slug: string, state: Parameters<ReturnType<typeof api.endpoints.event.select>>[0]) {
  const read = isEventSlug(slug) ? api.endpoints.event.select(slug)(state) : undefined;
  const missing =
    read === undefined || (read.error !== undefined && 'status' in read.error && read.error.status === 404);
  return { event: read?.data, missing };
}

export const eventPage: PageDefinition = {
  // Its poster, as src/exposed/EventPage.tsx renders it, when it is a picture of the site.
  preloads: ({ params, state }) => {
    const { event } = readEvent(params.slug ?? '', state);
    const poster = event === undefined ? null : posterAddress(event.image);
    return poster === null || !poster.startsWith('/')
      ? []
      : [{ href: poster, ...preloadSrcSet(poster, EVENT_POSTER_SIZES), fetchpriority: 'high' }];
  },
  load: ({ params, dispatch }) => {
    const slug = params.slug ?? '';
    return isEventSlug(slug) ? [dispatch(api.endpoints.event.initiate(slug))] : [];
  },
  head: ({ params, state, origin, href }) => {
    const { event, missing } = readEvent(params.slug ?? '', state);
    if (event === undefined) {
      return missing
        ? {
            status: 404,
            title: 'Évènement introuvable · Évènements',
            description: "Cet évènement n'existe pas ou n'est plus à l'agenda.",
          }
        : {};
    }
    // Its address today (an old address of a moved event points here).
    const path = href(PAGES.event, { slug: event.slug }) ?? '/';
    const url = absolute(origin, path);
    const poster = posterAddress(event.image);
    const image = poster === null ? undefined : absolute(origin, poster);
    const when = `${eventDateLabel(event)}, ${eventHours(event).toLowerCase()}`;
    const status = event.status === 'cancelled' ? 'Annulé : ' : event.status === 'tentative' ? 'À confirmer : ' : '';
    const text = describe(event.description.replace(/</g, '‹'));
    return {
      title: `${status}${event.title} · Évènements`,
      description: `${when}${event.venue === null ? '' : `, ${event.venue}`}. ${text}`.trim().slice(0, 300),
      ...(image === undefined
        ? {}
        : { image: { url: image, alt: `Affiche : ${event.title}`, width: 1200, height: 800 } }),
      canonicalPath: path,
      jsonLd: [
        musicEvent({
          name: event.title,
          url,
          ...jsonLdDates(event),
          status: event.status,
          rescheduled: event.rescheduled,
          ...(text === '' ? {} : { description: text }),
          ...(image === undefined ? {} : { image }),
          location: event.venue === null ? null : { name: event.venue, address: event.address, geo: event.geo },
          tickets: webAddress(event.tickets),
          performers: event.lineup.map((artist) => {
            const page = artist.residence === null ? null : href(PAGES.residence, { id: artist.residence });
            return page === null ? { name: artist.name } : { name: artist.name, url: absolute(origin, page) };
          }),
          organizer: { name: siteConfig.name, url: absolute(origin, href(PAGES.home) ?? '/') },
        }),
      ],
    };
  },
};
