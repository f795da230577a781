import { useEffect } from 'react';
import {
  api,
  useEventsQuery,
  type EventItem,
  type PageDefinition,
  type PageRoute,
  type RemoteContract,
} from '@collectif/shared';
import { useVisitorZone, visitorZoneName } from '@collectif/shared/schedule';
import { StatusMessage, scrollToTop } from '@collectif/shared/ui';
import { preloadSrcSet } from '@collectif/shared/pictures';
import { EventCard, EVENT_CARD_SIZES } from '../events/EventCard';
import { eventYear, posterAddress } from '../events/format';
import { eventsIcsHref } from '../events/files';
import { SubscribeCalendar } from '../schedule/shows';
import '../styles/events.css';

/** Past events by year, latest year first (they come latest first). */
function byYear(events: readonly EventItem[]): { year: string; events: EventItem[] }[] {
  const years: { year: string; events: EventItem[] }[] = [];
  for (const event of events) {
    const year = eventYear(event);
    const last = years.at(-1);
    if (last?.year === year) last.events.push(event);
    else years.push({ year, events: [event] });
  }
  return years;
}

/** evenements: the coming events first, then the past ones by year (docs/events.md, « /evenements »). */
function EventsPage() {
  const { data, isError, refetch } = useEventsQuery({});
  const zone = useVisitorZone();
  useEffect(() => {
    scrollToTop();
  }, []);
  return (
    <div className="page events">
      <h1>Évènements</h1>
      <p className="events__intro">Soirées, concerts et sound systems du collectif · heures de Paris</p>
      {/* Kept empty until the browser knows the visitor's zone: nothing moves then. */}
      <p className="events__zone">
        {zone === null ? null : `Entre parenthèses : chez vous (${visitorZoneName().replaceAll('_', ' ')})`}
      </p>
      {data === undefined ? (
        isError ? (
          <StatusMessage kind="error" onRetry={() => void refetch()}>
            L’agenda des évènements est momentanément indisponible.
          </StatusMessage>
        ) : (
          <StatusMessage kind="loading">Chargement des évènements ...</StatusMessage>
        )
      ) : (
        <>
          {data.stale ? (
            <p className="events__stale" role="status">
              L’agenda n’a pas pu être relu : ces évènements sont ceux de sa dernière lecture.
            </p>
          ) : null}
          <section className="events__section" aria-labelledby="a-venir">
            <h2 id="a-venir">À venir</h2>
            {data.coming.length === 0 ? (
              <StatusMessage kind="empty">Pas d’évènement annoncé pour le moment : revenez bientôt.</StatusMessage>
            ) : (
              <ol className="events__list">
                {data.coming.map((event, index) => (
                  <EventCard key={event.slug} event={event} coming zone={zone} priority={index === 0} />
                ))}
              </ol>
            )}
            <p className="events__subscribe">
              <SubscribeCalendar href={eventsIcsHref()}>S’abonner aux évènements</SubscribeCalendar>
              <a className="button button--ghost" href={eventsIcsHref()} download="evenements.ics">
                Fichier .ics
              </a>
            </p>
          </section>
          {byYear(data.past).map(({ year, events }) => (
            <section key={year} className="events__section events__section--past" aria-labelledby={`annee-${year}`}>
              <h2 id={`annee-${year}`}>{year === data.now.slice(0, 4) ? `Plus tôt en ${year}` : year}</h2>
              <ol className="events__list events__list--past">
                {events.map((event) => (
                  <EventCard key={event.slug} event={event} coming={false} zone={zone} />
                ))}
              </ol>
            </section>
          ))}
        </>
      )}
    </div>
  );
}

export default EventsPage satisfies RemoteContract['radio']['EventsPage'];

const absolute = (origin: string, path: string) => new URL(path, origin).href;

/** Its data and head, read alike by the server and the browser. */
export const page: PageDefinition = {
  load: ({ dispatch }) => [dispatch(api.endpoints.events.initiate({}))],
  // The first coming event's poster, as the first card shows it.
  preloads: ({ state }) => {
    const first = api.endpoints.events.select({})(state).data?.coming[0];
    const poster = first === undefined ? null : posterAddress(first.image);
    return poster === null || !poster.startsWith('/')
      ? []
      : [{ href: poster, ...preloadSrcSet(poster, EVENT_CARD_SIZES), fetchpriority: 'high' }];
  },
  head: ({ state, origin }) => {
    const data = api.endpoints.events.select({})(state).data;
    // Its share card: the next event's poster (Open Graph), else the site's picture.
    const next = data?.coming.find((event) => event.status !== 'cancelled' && posterAddress(event.image) !== null);
    const poster = next === undefined ? null : posterAddress(next.image);
    return {
      ...(poster === null || next === undefined
        ? {}
        : { image: { url: absolute(origin, poster), alt: `Affiche : ${next.title}`, width: 1200, height: 800 } }),
    };
  },
};

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'evenements',
  title: 'Évènements · Soirées et concerts',
  description: 'Les soirées, concerts et sound systems de {site} : dates, lieux, line-ups et billets.',
  area: 'Les évènements du collectif',
  menu: 'Évènements',
};
