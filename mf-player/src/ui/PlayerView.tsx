import { useEffect, useRef, type MouseEvent } from 'react';
import { DEFAULT_COVER, formatTime, useAppDispatch, useAppSelector } from '@collectif/shared';
import { resolveImageUrl } from '../player/config';
import {
  chatToggled,
  liveRequested,
  pauseRequested,
  playRequested,
  selectPlayer,
  toggled,
} from '../player/playerSlice';
import { CHAT_PANEL_ID, ChatPanel } from './ChatPanel';
import { ChatIcon, CollapseIcon, PauseIcon, PlayIcon } from './icons';
import { ProgressSlider } from './ProgressSlider';
import './player.css';

/** Controls inside the bar act by themselves; a click on them must not also toggle the player. */
const CONTROLS = 'button, a, input, select, textarea, iframe, [role="slider"]';

/** The player: a 'Stream' pill when closed, the bottom bar when open (SPEC "Player"). */
export function PlayerView() {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectPlayer);
  const live = state.mode === 'LIVE';

  // The pill and the bar replace each other: a keyboard user who opens or closes the player keeps
  // the focus on the control that took the place of the one they pressed.
  const focusAfterToggle = useRef(false);
  const pill = useRef<HTMLButtonElement>(null);
  const main = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!focusAfterToggle.current) return;
    focusAfterToggle.current = false;
    (state.open ? main : pill).current?.focus();
  }, [state.open]);
  const toggle = () => {
    focusAfterToggle.current = true;
    dispatch(toggled());
  };

  if (!state.open) {
    return (
      <section className="player player--closed" aria-label="Lecteur radio">
        <button
          type="button"
          ref={pill}
          className="player__pill"
          aria-label="Stream : ouvrir le lecteur"
          onClick={toggle}
        >
          <span>Stream</span>
          <PlayIcon />
        </button>
      </section>
    );
  }

  const onBarClick = (event: MouseEvent<HTMLDivElement>) => {
    const control = event.target instanceof Element ? event.target.closest(CONTROLS) : null;
    if ((control !== null && event.currentTarget.contains(control)) || state.dragging) return;
    toggle();
  };

  const cover = resolveImageUrl(state.cover) ?? resolveImageUrl(DEFAULT_COVER) ?? DEFAULT_COVER;

  return (
    <section className={`player player--open${live ? ' player--live' : ' player--replay'}`} aria-label="Lecteur radio">
      {live && state.chatOpen ? <ChatPanel status={state.chatStatus} /> : null}
      <div className="player__bar" onClick={onBarClick}>
        <div className="player__start">
          {live ? (
            <span className="player__live">
              <span className="player__dot" aria-hidden="true" />
              <span className="visually-hidden">En direct</span>
            </span>
          ) : (
            <span className="player__time">
              <span className="visually-hidden">Temps écoulé : </span>
              {formatTime(state.currentTime)}
            </span>
          )}
        </div>
        <img className="player__cover" src={cover} alt="" width={44} height={44} />
        <button
          ref={main}
          type="button"
          className="player__button player__button--main"
          aria-label={state.wantsToPlay ? 'Pause' : 'Lecture'}
          onClick={() => dispatch(state.wantsToPlay ? pauseRequested() : playRequested())}
        >
          {state.wantsToPlay ? <PauseIcon /> : <PlayIcon />}
        </button>
        <div className="player__centre">
          <div className="player__titles">
            <p className="player__artist">{state.artist}</p>
            <p className="player__show">{state.show}</p>
          </div>
          {state.loading ? <p className="player__loading">chargement ...</p> : null}
          <p className="player__message" role="status">
            {state.message}
          </p>
        </div>
        {live ? null : (
          <>
            <div className="player__progress">
              <ProgressSlider />
            </div>
            <span className="player__time player__time--remaining">
              <span className="visually-hidden">Temps restant : </span>-{formatTime(state.remaining)}
            </span>
          </>
        )}
        <div className="player__end">
          {live ? (
            <button
              type="button"
              className={`player__button${state.chatOpen ? ' player__button--active' : ''}`}
              aria-label={state.chatOpen ? 'Fermer le chat' : 'Ouvrir le chat'}
              aria-controls={state.chatOpen ? CHAT_PANEL_ID : undefined}
              onClick={() => dispatch(chatToggled())}
            >
              <ChatIcon />
            </button>
          ) : (
            <button
              type="button"
              className="player__direct"
              aria-label="Revenir au direct"
              onClick={() => dispatch(liveRequested())}
            >
              Direct
            </button>
          )}
          <button type="button" className="player__button" aria-label="Fermer le lecteur" onClick={toggle}>
            <CollapseIcon />
          </button>
        </div>
      </div>
    </section>
  );
}
