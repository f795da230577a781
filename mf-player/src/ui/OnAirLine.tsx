import {
  dayOf,
  hourOf,
  nextShows,
  scheduleRange,
  showOnAir,
  useScheduleClock,
  useScheduleQuery,
  useShown,
} from '@collectif/shared';

/** The days the player looks at for the show on air and the next one: today and tomorrow (Paris). */
const PLAYER_SCHEDULE_DAYS = 2;

/**
 * In live mode, what is on and what comes next (docs/player.md, « On air »): « À l'antenne :
 * Velours Club · À suivre · 22:00 · Axonberg », in Paris time. Asked once the page is shown (the
 * server's HTML has no such line, so the two agree); nothing when the schedule says nothing.
 */
export function OnAirLine() {
  const shown = useShown();
  const now = useScheduleClock(undefined);
  const { data } = useScheduleQuery(scheduleRange(dayOf(now), PLAYER_SCHEDULE_DAYS), { skip: !shown });
  if (!shown || data === undefined) return null;
  const onAir = showOnAir(data.events, now);
  const [next] = nextShows(data.events, now, 1);
  const parts = [
    ...(onAir === null ? [] : [`À l’antenne : ${onAir.title}`]),
    ...(next === undefined ? [] : [`À suivre · ${hourOf(next.start)} · ${next.title}`]),
  ];
  if (parts.length === 0) return null;
  return <p className="player__next">{parts.join(' · ')}</p>;
}
