import { useState } from 'react';
import {
  api,
  useAppDispatch,
  useAppSelector,
  useRadioSettings,
  type PlayedTrack,
  type RadioSettings,
} from '@collectif/shared';
import { currentRendition, rememberQuality, streamOverridden } from '../player/config';
import { liveRequested, momentRequested, selectMoment, selectWantsSound } from '../player/playerSlice';
import { dayOf, hourOf, nextShows, relativeDayLabel, showOnAir } from '@collectif/shared/schedule';
import { CloseIcon } from './icons';
import { ON_AIR_PANEL_ID, usePlayerSchedule } from './OnAirLine';
import { useEscape } from './useEscape';
import './panels.css';

/** The shows the panel lists after the one on air. */
const PANEL_NEXT_SHOWS = 3;

const TITLE_ID = 'lecteur-antenne-titre';

function trackLine({ artist, title }: PlayedTrack): string {
  return [artist, title].filter((text) => text.trim() !== '').join(' — ');
}

/**
 * « Qualité » (docs/player.md, « Quality »): the radio's renditions, the one this device plays
 * checked; a choice is kept on the device and, while the live plays, taken at once: the edge
 * starts again on the chosen stream, the timeline's stream moves to its variant.
 */
function QualityChoice() {
  const dispatch = useAppDispatch();
  // An older shell's settings have none (docs/contract.md, 3.2.0).
  const renditions = (useRadioSettings() as Partial<RadioSettings>).renditions ?? [];
  const listening = useAppSelector(selectWantsSound);
  const moment = useAppSelector(selectMoment);
  const [chosen, setChosen] = useState(() => currentRendition()?.id);
  if (renditions.length < 2 || streamOverridden()) return null;
  return (
    <fieldset className="player-onair__quality">
      <legend className="player-onair__heading">Qualité</legend>
      {renditions.map((rendition) => (
        <label key={rendition.id} className="player-onair__choice">
          <input
            type="radio"
            name="lecteur-qualite"
            value={rendition.id}
            checked={rendition.id === chosen}
            onChange={() => {
              rememberQuality(rendition.id);
              setChosen(rendition.id);
              if (!listening) return;
              dispatch(moment === null ? liveRequested() : momentRequested(moment));
            }}
          />
          {rendition.label} <span className="player-onair__bitrate">{rendition.bitrate} kb/s</span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * What is on air, above the player: the show on air, the next ones and « Titres précédents » (the
 * last five tracks of the radio, pushed with now-playing), in Paris time. Escape or its close button
 * closes it, and the focus goes back to the line that opened it.
 */
function OnAirPanel({ onClose }: { onClose: () => void }) {
  const { now, events } = usePlayerSchedule(useAppSelector(selectMoment));
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
        <QualityChoice />
      </div>
    </section>
  );
}

// Loaded when first opened (PlayerView.tsx, `lazy`).
export default OnAirPanel;
