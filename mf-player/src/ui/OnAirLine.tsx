import { api, useScheduleQuery, type PlayedTrack } from '@collectif/shared';
import { CloseIcon } from './icons';
import { useEscape } from './useEscape';
import {
  dayOf,
  hourOf,
  nextShows,
  relativeDayLabel,
  showOnAir,
  useScheduleClock,
  upcomingRange,
  useShown,
} from '@collectif/shared/schedule';

/** The shows the panel lists after the one on air. */
const PANEL_NEXT_SHOWS = 3;

export const ON_AIR_PANEL_ID = 'lecteur-antenne';
const TITLE_ID = 'lecteur-antenne-titre';

/**
 * The schedule of the days to come, asked once the page is shown (the server's HTML has none of
 * it): the same query as the home's block, so one answer serves both.
 */
function usePlayerSchedule() {
  const shown = useShown();
  const now = useScheduleClock(undefined);
  const { data } = useScheduleQuery(upcomingRange(now), { skip: !shown });
  return { shown, now, events: data?.events };
}

/**
 * In live mode, what is on and what comes next (docs/player.md, « On air »): « À l'antenne :
 * Velours Club · À suivre · 22:00 · Axonberg », in Paris time. A button: it opens the panel of what
 * is on air, with « Titres précédents ». Nothing until the page is shown, so the server's HTML and
 * the hydration agree.
 */
export function OnAirLine({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  const { shown, now, events } = usePlayerSchedule();
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

function trackLine({ artist, title }: PlayedTrack): string {
  return [artist, title].filter((text) => text.trim() !== '').join(' — ');
}

/**
 * What is on air, above the player: the show on air, the next ones and « Titres précédents » (the
 * last five tracks of the radio, pushed with now-playing), in Paris time. Escape or its close button
 * closes it, and the focus goes back to the line that opened it.
 */
export function OnAirPanel({ onClose }: { onClose: () => void }) {
  const { now, events } = usePlayerSchedule();
  const history = api.endpoints.nowPlaying.useQuery(undefined).data?.history ?? [];
  useEscape(onClose);
  const onAir = events === undefined ? null : showOnAir(events, now);
  const next = events === undefined ? [] : nextShows(events, now, PANEL_NEXT_SHOWS);
  return (
    <section id={ON_AIR_PANEL_ID} className="player-chat player-chat--fallback player-onair" aria-labelledby={TITLE_ID}>
      <div className="player-chat__header">
        <h2 id={TITLE_ID} className="player-chat__title">
          À l’antenne
        </h2>
        <button
          type="button"
          className="player__button"
          aria-label="Fermer le panneau « À l’antenne »"
          onClick={onClose}
        >
          <CloseIcon />
        </button>
      </div>
      <div className="player-onair__body">
        <h3 className="player-onair__heading">En ce moment</h3>
        <p className="player-onair__now">
          {onAir === null ? 'Programmation continue' : `${hourOf(onAir.start)} – ${hourOf(onAir.end)} · ${onAir.title}`}
        </p>
        {next.length === 0 ? null : (
          <>
            <h3 className="player-onair__heading">À suivre</h3>
            <ol className="player-onair__list">
              {next.map((show) => (
                <li key={show.id}>
                  {relativeDayLabel(dayOf(Date.parse(show.start)), now)}{' '}
                  <time dateTime={show.start}>{hourOf(show.start)}</time> · {show.title}
                </li>
              ))}
            </ol>
          </>
        )}
        {history.length === 0 ? null : (
          <>
            <h3 className="player-onair__heading">Titres précédents</h3>
            <ol className="player-onair__list">
              {history.map((track, index) => (
                <li key={`${track.playedAt}|${String(index)}`}>
                  <time dateTime={track.playedAt}>{hourOf(track.playedAt)}</time> · {trackLine(track)}
                </li>
              ))}
            </ol>
          </>
        )}
        <p className="player-onair__zone">Heures de Paris</p>
      </div>
    </section>
  );
}
