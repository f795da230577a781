import { useAppSelector, useScheduleQuery } from '@collectif/shared';
import { selectMoment } from '../player/playerSlice';
import { hourOf, nextShows, showOnAir, useScheduleClock, upcomingRange, useShown } from '@collectif/shared/schedule';

/** The panel's element, which the line controls (OnAirPanel.tsx). */
export const ON_AIR_PANEL_ID = 'lecteur-antenne';

/**
 * The schedule of the days to come, asked once the page is shown (the server's HTML has none of
 * it): the same query as the home's block, so one answer serves both. `at`: the instant heard
 * behind the live edge, from whose day it starts when that was before today; then `now` is it.
 */
export function usePlayerSchedule(at: number | null = null) {
  const shown = useShown();
  const clock = useScheduleClock(undefined);
  const now = at ?? clock;
  const { data } = useScheduleQuery(upcomingRange(Math.min(now, clock)), { skip: !shown });
  return { shown, now, events: data?.events };
}

/**
 * In live mode, what is on and what comes next (docs/player.md, « On air »): « À l'antenne :
 * Velours Club · À suivre · 22:00 · Axonberg », in Paris time. A button: it opens the panel of what
 * is on air, with « Titres précédents ». Nothing until the page is shown, so the server's HTML and
 * the hydration agree.
 */
export function OnAirLine({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  // Behind the edge, the show of the moment heard (docs/player.md, « The timeline »).
  const { shown, now, events } = usePlayerSchedule(useAppSelector(selectMoment));
  if (!shown) return null;
  const onAir = events === undefined ? null : showOnAir(events, now);
  const [next] = events === undefined ? [] : nextShows(events, now, 1);
  const parts = [
    ...(onAir === null ? [] : [`À l’antenne : ${onAir.title}`]),
    ...(next === undefined ? [] : [`À suivre · ${hourOf(next.start)} · ${next.title}`]),
  ];
  return (
    <button
      type="button"
      className="player__next"
      aria-expanded={open}
      aria-controls={open ? ON_AIR_PANEL_ID : undefined}
      onClick={onToggle}
    >
      {parts.length === 0 ? 'Titres précédents' : parts.join(' · ')}
    </button>
  );
}
