import { ExternalLink, siteConfig, useReveal } from '@collectif/shared';
import { HOME_REVEAL_OFFSET_PX, revealClass } from './reveal';

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

export function ScheduleBlock() {
  const [ref, active] = useReveal<HTMLElement>(HOME_REVEAL_OFFSET_PX);
  const url = calendarEmbedUrl();
  return (
    <section ref={ref} className={revealClass('home-block', active)} aria-labelledby="radio-schedule">
      <h2 id="radio-schedule">Radio Schedule</h2>
      <div className="schedule">
        <iframe
          className="schedule__frame"
          src={url}
          title="Programme de la radio (agenda)"
          width={800}
          height={600}
          loading="lazy"
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
      {/* When the embed is blocked (privacy extensions, strict networks) the agenda stays reachable. */}
      <p className="schedule__fallback">
        <ExternalLink href={url}>Ouvrir le programme dans l&apos;agenda</ExternalLink>
      </p>
    </section>
  );
}
