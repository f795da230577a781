import { useEventQuery, type EventItem, type PageRoute, type RemoteContract } from '@collectif/shared';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import { useScheduleClock, useVisitorZone } from '@collectif/shared/schedule';
import { ExternalLink } from '@collectif/shared/ui';
import { EventStatus, Poster, Tickets } from '../events/EventCard';
import { EventText } from '../events/EventText';
import { eventDateLabel, eventHours, mapHref, visitorHours } from '../events/format';
import { eventIcsHref } from '../events/files';
import { Lineup } from '../events/Lineup';
import { BySlugPending, useBySlug } from '../ui/bySlug';
import { EVENT_POSTER_SIZES, isEventSlug } from '../pages/event';
import '../styles/events.css';

function NotFound() {
  return (
    <div className="page event-missing">
      <h1>Évènement introuvable</h1>
      <p>Cet évènement n&apos;existe pas ou n&apos;est plus à l&apos;agenda.</p>
      <p>
        <PageLink className="button" page={PAGES.events}>
          Voir tous les évènements
        </PageLink>
      </p>
    </div>
  );
}

function EventView({ event, arrived }: { event: EventItem; arrived: number | undefined }) {
  const zone = useVisitorZone();
  // « Billets » while the event is to come: when its answer arrived (the server's and the
  // browser's first render agree), then the page's clock.
  const now = useScheduleClock(arrived);
  const coming = Date.parse(event.end) > now;
  const own = visitorHours(event, zone);
  const map = mapHref(event);
  const cancelled = event.status === 'cancelled';
  return (
    <article className={cancelled ? 'event event--cancelled' : 'event'}>
      <Poster event={event} sizes={EVENT_POSTER_SIZES} alt={`Affiche : ${event.title}`} priority />
      <div className="event__body">
        {cancelled ? (
          <p className="event__cancelled" role="note">
            Annulé : cet évènement n’aura pas lieu.
          </p>
        ) : null}
        <h1 className="event__title">{event.title}</h1>
        {cancelled ? null : <EventStatus event={event} />}
        <dl className="event__facts">
          <div>
            <dt>Date</dt>
            <dd>
              <time dateTime={event.start}>{eventDateLabel(event)}</time>
            </dd>
          </div>
          <div>
            <dt>Horaires</dt>
            <dd>
              {eventHours(event)}
              {event.allDay ? null : <span className="event__zone"> (heure de Paris)</span>}
              {own === '' ? null : <span className="show__own"> · {own} chez vous</span>}
            </dd>
          </div>
          {event.venue === null ? null : (
            <div>
              <dt>Lieu</dt>
              <dd>
                <span className="event__venue">{event.venue}</span>
                {event.address === null ? null : <span className="event__address">{event.address}</span>}
                {map === null ? null : (
                  <ExternalLink className="event__map" href={map}>
                    Ouvrir dans une carte
                  </ExternalLink>
                )}
              </dd>
            </div>
          )}
          {event.lineup.length === 0 ? null : (
            <div>
              <dt>Avec</dt>
              <dd>
                <Lineup lineup={event.lineup} />
              </dd>
            </div>
          )}
          {event.categories.length === 0 ? null : (
            <div>
              <dt>Styles</dt>
              <dd>{event.categories.join(', ')}</dd>
            </div>
          )}
        </dl>
        <p className="event__actions">
          <Tickets event={event} coming={coming} title={event.title} />
          {cancelled ? null : (
            <a className="button button--ghost" href={eventIcsHref(event.slug)} download type="text/calendar">
              Ajouter à mon agenda
            </a>
          )}
        </p>
        <EventText text={event.description} />
        <p className="event__all">
          <PageLink page={PAGES.events}>Tous les évènements</PageLink>
        </p>
      </div>
    </article>
  );
}

/** evenements/:slug: one event, or a French « not found » page that leads to the list. */
function EventPage() {
  const { query, missing } = useBySlug(isEventSlug, useEventQuery);
  if (missing) return <NotFound />;
  if (query.data === undefined) {
    return (
      <BySlugPending
        query={query}
        unavailable="Cet évènement est momentanément indisponible."
        loading="Chargement de l’évènement ..."
      />
    );
  }
  return (
    <div className="page">
      <EventView key={query.data.slug} event={query.data} arrived={query.fulfilledTimeStamp} />
    </div>
  );
}

export default EventPage satisfies RemoteContract['radio']['EventPage'];

/** Its data and head, read alike by the server and the browser. */
export { eventPage as page } from '../pages/event';

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'evenements/:slug',
  title: 'Évènement',
  area: "La page de l'évènement",
  back: 'evenements',
};
