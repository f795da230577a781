import { useAppSelector, useScheduleQuery, type ScheduleEvent } from '@collectif/shared';
import { AddToCalendar, SubscribeCalendar } from './shows';
import {
  dayLabel,
  dayOf,
  hourOf,
  scheduleRange,
  selectScheduleArrival,
  useScheduleClock,
  useVisitorZone,
  visitorTime,
} from '@collectif/shared/schedule';

/** How far a residence page looks for its next show: the days the server knows ahead. */
export const NEXT_SHOW_DAYS = 28;

/** A residence's schedule query for the day of `now`: the page's server code asks the same. */
export const residenceScheduleArgs = (residence: string, now: number) => ({
  ...scheduleRange(dayOf(now), NEXT_SHOW_DAYS),
  residence,
});

/** Its next show: the first that has not ended (the one on air, else the next), whole days left out. */
export function nextShowOf(events: readonly ScheduleEvent[], now: number): ScheduleEvent | null {
  return events.find((event) => !event.allDay && Date.parse(event.end) > now) ?? null;
}

/** « mercredi 25 novembre à 20:00 ». */
export const showDate = (event: ScheduleEvent) =>
  `${dayLabel(dayOf(Date.parse(event.start)))} à ${hourOf(event.start)}`;

/**
 * « Prochaine émission : mercredi 25 novembre à 20:00 » on a residence's page (docs/schedule.md,
 * « What listeners see »), with « Ajouter à mon agenda » and a subscription to its shows.
 */
/** A show on air now: the badge, and until when (the residence's page and « Mes résidences »). */
export function OnAirUntil({ end }: { end: string }) {
  return (
    <>
      <span className="show__badge">
        <span className="live__dot" aria-hidden="true" />
        En ce moment à l’antenne
      </span>{' '}
      jusqu’à <time dateTime={end}>{hourOf(end)}</time>
    </>
  );
}

export function NextShow({ residence }: { residence: string }) {
  const now = useScheduleClock(useAppSelector(selectScheduleArrival));
  const zone = useVisitorZone();
  const { data, isError } = useScheduleQuery(residenceScheduleArgs(residence, now));
  const next = data === undefined ? null : nextShowOf(data.events, now);
  const onAir = next !== null && Date.parse(next.start) <= now;
  const own = next === null ? '' : visitorTime(next.start, zone);
  return (
    <section className="residence__next" aria-label="Prochaine émission">
      <p className="residence__next-line">
        {data === undefined ? (
          isError ? (
            'Le programme est momentanément indisponible.'
          ) : (
            'Chargement du programme ...'
          )
        ) : next === null ? (
          'Pas d’émission annoncée pour le moment.'
        ) : onAir ? (
          <OnAirUntil end={next.end} />
        ) : (
          <>
            Prochaine émission : <time dateTime={next.start}>{showDate(next)}</time>
            {own === '' ? null : <span className="show__own"> ({own} chez vous)</span>}
          </>
        )}
      </p>
      <p className="residence__next-actions">
        {next === null ? null : <AddToCalendar event={next} label />}
        <SubscribeCalendar residence={residence}>S’abonner à ses émissions</SubscribeCalendar>
      </p>
    </section>
  );
}
