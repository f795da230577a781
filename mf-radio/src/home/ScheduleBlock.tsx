import { EmbedFacade, siteConfig, useReveal } from '@collectif/shared';
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
      {/* Loaded on a click only (docs/interface.md, "Third-party embeds"); the link works without it. */}
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
