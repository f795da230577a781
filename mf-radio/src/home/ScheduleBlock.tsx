import { siteConfig, useAppSelector, useScheduleQuery, type ScheduleEvent } from '@collectif/shared';
import { AddToCalendar, ScheduleStatus, ShowHour, ShowHours, ShowTitle } from '../schedule/shows';
import { HOME_REVEAL_OFFSET_PX, revealClass } from './reveal';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import {
  dayOf,
  nextShows,
  relativeDayLabel,
  selectScheduleArrival,
  showOnAir,
  useScheduleClock,
  upcomingRange,
  useVisitorZone,
} from '@collectif/shared/schedule';
import { EmbedFacade, useReveal, useWanted } from '@collectif/shared/ui';

const CALENDAR_EMBED = 'https://calendar.google.com/calendar/embed';

/** The calendar provider's embed address: agenda mode, no controls, Paris time, one `src` per calendar. */
export function calendarEmbedUrl(calendarIds: readonly string[] = siteConfig.radio.calendarIds): string {
  const params = new URLSearchParams({
    mode: 'AGENDA',
    showTitle: '0',
    showNav: '0',
    showPrint: '0',
    showTabs: '0',
    showCalendars: '0',
    showTz: '0',
    ctz: 'Europe/Paris',
  });
  for (const id of calendarIds) params.append('src', id);
  return `${CALENDAR_EMBED}?${params.toString()}`;
}

/** The shows « À suivre » lists, from the days to come (`upcomingRange`, which the page's server code asks too). */
export const HOME_NEXT_SHOWS = 5;

function OnAir({ event, zone }: { event: ScheduleEvent | null; zone: string | null }) {
  return (
    <div className="onair__now">
      <h3 className="onair__label">
        <span className="live__dot" aria-hidden="true" />
        En ce moment
      </h3>
      {event === null ? (
        <p className="onair__none">Pas d’émission : la radio joue sa programmation continue.</p>
      ) : (
        <p className="show show--now">
          <span className="show__hours">
            <ShowHours event={event} zone={zone} />
          </span>{' '}
          <ShowTitle event={event} />
        </p>
      )}
    </div>
  );
}

function UpNext({ events, now, zone }: { events: readonly ScheduleEvent[]; now: number; zone: string | null }) {
  return (
    <div className="onair__next">
      <h3 className="onair__label">À suivre</h3>
      {events.length === 0 ? (
        <p className="onair__none">Aucune émission annoncée pour les prochains jours.</p>
      ) : (
        <ol className="onair__list">
          {events.map((event) => (
            <li key={event.id} className="show">
              <span className="show__hours">
                <span className="show__day">{relativeDayLabel(dayOf(Date.parse(event.start)), now)}</span>{' '}
                <ShowHour at={event.start} zone={zone} />
              </span>{' '}
              <ShowTitle event={event} /> <AddToCalendar event={event} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/**
 * « En ce moment » and « À suivre » (docs/schedule.md, « What listeners see »): the show on air and
 * the next ones, from the collective's calendars, in Paris time.
 */
function OnAirNow({ wanted }: { wanted: boolean }) {
  const now = useScheduleClock(useAppSelector(selectScheduleArrival));
  const zone = useVisitorZone();
  const { data, isError, refetch } = useScheduleQuery(upcomingRange(now), { skip: !wanted });
  if (data === undefined) {
    return <ScheduleStatus failed={isError} onRetry={() => void refetch()} />;
  }
  return (
    <div className="onair">
      <OnAir event={showOnAir(data.events, now)} zone={zone} />
      <UpNext events={nextShows(data.events, now, HOME_NEXT_SHOWS)} now={now} zone={zone} />
    </div>
  );
}

export function ScheduleBlock() {
  const [ref, active] = useReveal<HTMLElement>(HOME_REVEAL_OFFSET_PX);
  // Below the first screen: its shows are asked for once it is in view or the page is scrolled.
  const wanted = useWanted(ref);
  const url = calendarEmbedUrl();
  return (
    <section ref={ref} className={revealClass('home-block', active)} aria-labelledby="radio-schedule">
      <h2 id="radio-schedule">Radio Schedule</h2>
      <OnAirNow wanted={wanted} />
      <p className="onair__more">
        <PageLink page={PAGES.programme}>Tout le programme de la semaine</PageLink>
        <span className="onair__zone"> · heures de Paris</span>
      </p>
      {/* The collective's own agenda, loaded on a click only (docs/interface.md, "Third-party embeds"). */}
      <EmbedFacade
        className="schedule"
        name="Programme de la radio"
        provider="Google Agenda"
        showLabel="Afficher l'agenda"
        directUrl={url}
        directLabel="Ouvrir l'agenda"
      >
        <iframe
          className="schedule__frame"
          src={url}
          title="Programme de la radio (agenda)"
          width={800}
          height={600}
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </EmbedFacade>
    </section>
  );
}
