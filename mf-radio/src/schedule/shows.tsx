import { apiUrl, type ScheduleEvent } from '@collectif/shared';
import '../styles/schedule.css';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import { hourOf, visitorTime } from '@collectif/shared/schedule';
import { StatusMessage } from '@collectif/shared/ui';

/**
 * The pieces every schedule of the site is made of (docs/schedule.md, « What listeners see »): a
 * show's hours in Paris time (and the visitor's own, when their zone writes another), its title
 * linked to its residence, and « Ajouter à mon agenda ».
 */

/** One show as a calendar file, for « Ajouter à mon agenda ». */
export const showIcsHref = (id: string) => `${apiUrl('/schedule/event.ics')}?id=${encodeURIComponent(id)}`;

/** The whole schedule as a calendar to subscribe to, or one residence's shows. */
export const scheduleIcsHref = (residence?: string) =>
  `${apiUrl('/schedule.ics')}${residence === undefined ? '' : `?residence=${encodeURIComponent(residence)}`}`;

/** `20:00`, and `(14:00 chez vous)` when the visitor's zone writes another time. */
export function ShowHour({ at, zone }: { at: string; zone: string | null }) {
  const own = visitorTime(at, zone);
  return (
    <>
      <time dateTime={at}>{hourOf(at)}</time>
      {own === '' ? null : <span className="show__own"> ({own} chez vous)</span>}
    </>
  );
}

/** `20:00 – 22:00`, and `(14:00–16:00 chez vous)` when the visitor's zone writes other times. */
export function ShowHours({ event, zone }: { event: ScheduleEvent; zone: string | null }) {
  const own = visitorTime(event.start, zone) === '' || zone === null ? null : zone;
  return (
    <>
      <time dateTime={event.start}>{hourOf(event.start)}</time> – <time dateTime={event.end}>{hourOf(event.end)}</time>
      {own === null ? null : (
        <span className="show__own">
          {' '}
          ({hourOf(event.start, own)}–{hourOf(event.end, own)} chez vous)
        </span>
      )}
    </>
  );
}

/** Its title, a link to its residence when it names one. */
export function ShowTitle({ event }: { event: ScheduleEvent }) {
  return event.residence === null ? (
    <span className="show__title">{event.title}</span>
  ) : (
    <PageLink className="show__title" page={PAGES.residence} params={{ id: event.residence }}>
      {event.title}
    </PageLink>
  );
}

/** « Ajouter à mon agenda »: the show as one event of a calendar file, in Paris time. */
export function AddToCalendar({ event, label = false }: { event: ScheduleEvent; label?: boolean }) {
  const name = `Ajouter « ${event.title} » à mon agenda`;
  return (
    <a
      className={label ? 'show__add button button--ghost' : 'show__add'}
      href={showIcsHref(event.id)}
      download
      type="text/calendar"
      {...(label ? {} : { 'aria-label': name, title: name })}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M7 2h2v2h6V2h2v2h3v17H4V4h3V2Zm11 7H6v10h12V9Zm-7 1h2v3h3v2h-3v3h-2v-3H8v-2h3v-3Z"
        />
      </svg>
      {label ? 'Ajouter à mon agenda' : null}
    </a>
  );
}

/**
 * « S'abonner au programme »: a `webcal:` address, which calendar programs subscribe to (made from
 * the page's origin on a click, so that the server's HTML and the first render agree); without
 * JavaScript, the calendar file itself.
 */
export function SubscribeCalendar({
  residence,
  href = scheduleIcsHref(residence),
  children,
}: {
  residence?: string;
  /** Another calendar than the programme's (the events'). */
  href?: string;
  children: string;
}) {
  return (
    <a
      className="button button--ghost"
      href={href}
      type="text/calendar"
      onClick={(event) => {
        const url = new URL(href, window.location.href);
        event.currentTarget.href = `webcal://${url.host}${url.pathname}${url.search}`;
      }}
    >
      {children}
    </a>
  );
}

/** The schedule on its way, or not to be had: the French states of every schedule of the site. */
export function ScheduleStatus({ failed, onRetry }: { failed: boolean; onRetry: () => void }) {
  return failed ? (
    <StatusMessage kind="error" onRetry={onRetry}>
      Le programme est momentanément indisponible.
    </StatusMessage>
  ) : (
    <StatusMessage kind="loading">Chargement du programme ...</StatusMessage>
  );
}
