import {
  useAppSelector,
  useScheduleQuery,
  useSearchParams,
  type PageRoute,
  type RemoteContract,
  type ScheduleEvent,
  api,
  siteConfig,
  type PageDefinition,
} from '@collectif/shared';
import {
  AddToCalendar,
  scheduleIcsHref,
  ScheduleStatus,
  ShowHours,
  ShowTitle,
  SubscribeCalendar,
} from '../schedule/shows';
import {
  readWeek,
  weekArgs,
  weekSearch,
  weekLabel,
  WEEKS_AFTER,
  WEEKS_BEFORE,
  type ProgrammeWeek,
} from '../schedule/week';
import '../styles/schedule.css';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import { broadcastEvents } from '@collectif/shared/seo';
import {
  addDays,
  dayLabel,
  dayOf,
  dayStart,
  selectScheduleArrival,
  showOnAir,
  showsByDay,
  useScheduleClock,
  useVisitorZone,
  visitorZoneName,
  zonedIso,
} from '@collectif/shared/schedule';
import { StatusMessage } from '@collectif/shared/ui';

function WeekNav({ week }: { week: ProgrammeWeek }) {
  const previous = addDays(week.monday, -7);
  const next = addDays(week.monday, 7);
  const first = addDays(week.current, -7 * WEEKS_BEFORE);
  const last = addDays(week.current, 7 * WEEKS_AFTER);
  return (
    <nav className="programme__weeks" aria-label="Semaines">
      {previous >= first ? (
        <PageLink
          className="button button--ghost"
          page={PAGES.programme}
          search={weekSearch(previous, week.current)}
          rel="prev"
        >
          Semaine précédente
        </PageLink>
      ) : (
        <span />
      )}
      {week.monday === week.current ? (
        <span />
      ) : (
        <PageLink className="button button--ghost" page={PAGES.programme}>
          Cette semaine
        </PageLink>
      )}
      {next <= last ? (
        <PageLink
          className="button button--ghost"
          page={PAGES.programme}
          search={weekSearch(next, week.current)}
          rel="next"
        >
          Semaine suivante
        </PageLink>
      ) : (
        <span />
      )}
    </nav>
  );
}

function Show({ event, onAir, zone }: { event: ScheduleEvent; onAir: boolean; zone: string | null }) {
  return (
    <li className={onAir ? 'show show--live' : 'show'}>
      {onAir ? (
        <span className="show__badge">
          <span className="live__dot" aria-hidden="true" />
          En ce moment
        </span>
      ) : null}
      <span className="show__hours">{event.allDay ? 'Toute la journée' : <ShowHours event={event} zone={zone} />}</span>
      <ShowTitle event={event} />
      <AddToCalendar event={event} />
    </li>
  );
}

function Week({ week, now, zone }: { week: ProgrammeWeek; now: number; zone: string | null }) {
  const { data, isError, refetch } = useScheduleQuery(weekArgs(week.monday));
  if (data === undefined) {
    return <ScheduleStatus failed={isError} onRetry={() => void refetch()} />;
  }
  const today = dayOf(now);
  const onAir = showOnAir(data.events, now);
  // Days past what the server knows of the calendars are not announced yet, rather than empty.
  const knownUntil = data.known === undefined ? Infinity : Date.parse(data.known.to);
  return (
    <ol className="programme__days">
      {showsByDay(data.events, week.monday, 7).map(({ day, events }) => (
        <li key={day} className="programme__day" aria-current={day === today ? 'date' : undefined}>
          <h2 className="programme__date">
            {dayLabel(day)}
            {day === today ? <span className="programme__today"> · aujourd’hui</span> : null}
          </h2>
          {events.length === 0 ? (
            <p className="programme__empty">
              {dayStart(day) >= knownUntil ? 'Pas encore annoncé' : 'Programmation continue'}
            </p>
          ) : (
            <ol className="programme__shows">
              {events.map((event) => (
                <Show key={event.id} event={event} onAir={event.id === onAir?.id} zone={zone} />
              ))}
            </ol>
          )}
        </li>
      ))}
    </ol>
  );
}

function MissingWeek() {
  return (
    <StatusMessage kind="empty">
      Le programme de cette semaine n’est pas connu. <PageLink page={PAGES.programme}>Voir cette semaine</PageLink>
    </StatusMessage>
  );
}

/** programme: the week's shows, day by day, in Paris time (docs/schedule.md, « /programme »). */
function ProgrammePage() {
  const [params] = useSearchParams();
  const now = useScheduleClock(useAppSelector(selectScheduleArrival));
  const zone = useVisitorZone();
  const week = readWeek(params, now);
  return (
    <div className="page programme">
      <h1>Programme</h1>
      {week === null || !week.known ? (
        <MissingWeek />
      ) : (
        <>
          <p className="programme__intro">Semaine {weekLabel(week.monday)} · heures de Paris</p>
          {/* Its line is kept empty until the browser knows the visitor's zone: nothing moves then. */}
          <p className="programme__zone">
            {zone === null ? null : `Entre parenthèses : chez vous (${visitorZoneName().replaceAll('_', ' ')})`}
          </p>
          <WeekNav week={week} />
          <Week week={week} now={now} zone={zone} />
          <p className="programme__subscribe">
            <SubscribeCalendar>S’abonner au programme</SubscribeCalendar>
            <a className="button button--ghost" href={scheduleIcsHref()} download="programme.ics">
              Fichier .ics
            </a>
          </p>
        </>
      )}
    </div>
  );
}

export default ProgrammePage satisfies RemoteContract['radio']['ProgrammePage'];

const absolute = (origin: string, path: string) => new URL(path, origin).href;
/** The shows of a week given to search engines, at most. */
const MAX_BROADCASTS = 80;

/** Its data and head, read alike by the server and the browser. */
export const page: PageDefinition = {
  load: ({ query, dispatch }) => {
    const week = readWeek(query, Date.now());
    return week?.known === true ? [dispatch(api.endpoints.schedule.initiate(weekArgs(week.monday)))] : [];
  },
  head: ({ query, state, origin, href }) => {
    // The week of the schedule the page was given: the server's and the browser's heads agree.
    const week = readWeek(query, selectScheduleArrival(state) ?? Date.now());
    if (week === null || !week.known) {
      return {
        status: 404,
        title: 'Semaine introuvable · Programme',
        description: "Le programme de cette semaine n'est pas connu.",
      };
    }
    const events = api.endpoints.schedule.select(weekArgs(week.monday))(state).data?.events ?? [];
    const station = { name: siteConfig.name, url: absolute(origin, href(PAGES.home) ?? '/') };
    const canonicalPath = href(PAGES.programme, {}, weekSearch(week.monday, week.current));
    const programmePath = href(PAGES.programme) ?? '/';
    return {
      ...(week.monday === week.current ? {} : { title: `Programme de la semaine ${weekLabel(week.monday)}` }),
      description: `Les émissions de ${siteConfig.name} ${weekLabel(week.monday)}, heures de Paris : résidences, invités, direct.`,
      ...(canonicalPath === null ? {} : { canonicalPath }),
      jsonLd: broadcastEvents(
        events
          .filter((event) => !event.allDay)
          .slice(0, MAX_BROADCASTS)
          .map((event) => ({
            name: event.title,
            startDate: zonedIso(event.start),
            endDate: zonedIso(event.end),
            url: absolute(
              origin,
              (event.residence === null ? null : href(PAGES.residence, { id: event.residence })) ?? programmePath,
            ),
            station,
          })),
      ),
    };
  },
};

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'programme',
  title: 'Programme · Cette semaine',
  description: 'Les émissions de la semaine sur {site}, heures de Paris : résidences, invités, direct.',
  area: 'Le programme de la radio',
  menu: 'Programme',
};
