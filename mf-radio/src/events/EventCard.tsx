import type { EventItem } from '@collectif/shared';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import { pictureSrcSet } from '@collectif/shared/pictures';
import { FRENCH_MONTHS_SHORT } from '@collectif/shared/schedule';
import { eventDateLabel, eventDay, eventHours, posterAddress, statusLabel, visitorHours, webAddress } from './format';
import { Lineup } from './Lineup';

/** How wide a card's poster is shown (styles/events.css): a column of 1 to 3. */
export const EVENT_CARD_SIZES = '(min-width: 1200px) 24rem, (min-width: 700px) 50vw, 100vw';

/**
 * An event's poster, its size said (3:2) so that nothing moves when it arrives; without one, its
 * day and month in large, on the site's colours.
 */
export function Poster({
  event,
  sizes,
  alt = '',
  priority = false,
}: {
  event: EventItem;
  sizes: string;
  alt?: string;
  priority?: boolean;
}) {
  const src = posterAddress(event.image);
  if (src === null) {
    const day = eventDay(event);
    return (
      <div className="event-poster event-poster--none" aria-hidden="true">
        <span className="event-poster__day">{Number(day.slice(8, 10))}</span>
        <span className="event-poster__month">{FRENCH_MONTHS_SHORT[Number(day.slice(5, 7)) - 1]}</span>
      </div>
    );
  }
  return (
    <img
      className="event-poster"
      src={src}
      srcSet={pictureSrcSet(src)}
      sizes={sizes}
      alt={alt}
      width={1200}
      height={800}
      loading={priority ? 'eager' : 'lazy'}
      // Another poster in view comes after the page's largest paint (docs/head.md).
      fetchPriority={priority ? 'high' : 'low'}
      decoding="async"
    />
  );
}

/** « Annulé », « À confirmer », « Date modifiée »: said in words, not by colour alone. */
export function EventStatus({ event }: { event: EventItem }) {
  const label = statusLabel(event);
  return label === null ? null : (
    <span className={`event-status event-status--${event.status === 'confirmed' ? 'moved' : event.status}`}>
      {label}
    </span>
  );
}

/** « Billets »: the ticket page, in a new tab; none for a cancelled or past event. */
export function Tickets({ event, coming, title }: { event: EventItem; coming: boolean; title: string }) {
  const href = webAddress(event.tickets);
  if (href === null || !coming || event.status === 'cancelled') return null;
  return (
    <a className="button event__tickets" href={href} target="_blank" rel="noopener noreferrer">
      Billets<span className="visually-hidden"> pour {title} (nouvel onglet)</span>
    </a>
  );
}

/** One event of /evenements: poster, date, title (its page), venue, line-up, « Billets ». */
export function EventCard({
  event,
  coming,
  zone,
  priority = false,
  headingLevel = 3,
  residence,
}: {
  event: EventItem;
  coming: boolean;
  zone: string | null;
  priority?: boolean;
  headingLevel?: 2 | 3;
  /** On a residence's page: the residence, not linked in the line-up. */
  residence?: string;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const own = visitorHours(event, zone);
  return (
    <li className={event.status === 'cancelled' ? 'event-card event-card--cancelled' : 'event-card'}>
      <Poster event={event} sizes={EVENT_CARD_SIZES} priority={priority} />
      <div className="event-card__body">
        <p className="event-card__date">
          <time dateTime={event.start}>{eventDateLabel(event)}</time>
          <span className="event-card__hours"> · {eventHours(event)}</span>
          {own === '' ? null : <span className="show__own"> ({own} chez vous)</span>}
        </p>
        <Heading className="event-card__title">
          <PageLink page={PAGES.event} params={{ slug: event.slug }}>
            {event.title}
          </PageLink>
        </Heading>
        <EventStatus event={event} />
        {event.venue === null ? null : <p className="event-card__venue">{event.venue}</p>}
        {event.lineup.length === 0 ? null : (
          <p className="event-card__lineup">
            Avec <Lineup lineup={event.lineup} current={residence} />
          </p>
        )}
        <Tickets event={event} coming={coming} title={event.title} />
      </div>
    </li>
  );
}
