import { useEventsQuery } from '@collectif/shared';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import { useVisitorZone } from '@collectif/shared/schedule';
import { EventCard } from './EventCard';
import '../styles/events.css';

/** The residence's events args, as its page loads them (pages/residence.ts): the coming ones only. */
export const residenceEventsArgs = (residence: string) => ({ residence, past: 0 });

/**
 * « Prochains évènements » on a residence's page: the coming events whose line-up names it
 * (docs/events.md, « Line-up »); nothing when it has none, or when the events cannot be read.
 */
export function ResidenceEvents({ residence, artist }: { residence: string; artist: string }) {
  const { data } = useEventsQuery(residenceEventsArgs(residence));
  const zone = useVisitorZone();
  const coming = data?.coming ?? [];
  if (coming.length === 0) return null;
  return (
    <section className="residence__events" aria-labelledby="prochains-evenements">
      <h2 id="prochains-evenements">Prochains évènements avec {artist}</h2>
      <ol className="events__list">
        {coming.map((event) => (
          <EventCard key={event.slug} event={event} coming zone={zone} residence={residence} />
        ))}
      </ol>
      <p>
        <PageLink page={PAGES.events}>Tous les évènements</PageLink>
      </p>
    </section>
  );
}
