import { lazy, Suspense, useCallback, useMemo, useState, type MouseEvent, type Ref } from 'react';
import { useAppDispatch, useAppSelector } from '@collectif/shared';
import { formatTime } from '@collectif/shared/time';
import { queueOffered, timelineOffered } from '../player/config';
import {
  chatToggled,
  pauseRequested,
  playRequested,
  selectArtist,
  selectBehind,
  selectChatOpen,
  selectChatStatus,
  selectCover,
  selectCurrentTime,
  selectDragging,
  selectLoading,
  selectMessage,
  selectMode,
  selectMoment,
  selectRemaining,
  selectShow,
  selectWantsSound,
} from '../player/playerSlice';
import { CastLine } from '../cast/CastLine';
import { FigureBeacons } from '../figures/FigureBeacons';
import { ListenerCount } from '../figures/ListenerCount';
import { CurrentTrack } from './CurrentTrack';
import { DirectButton } from './DirectButton';
import { ChatIcon, CollapseIcon, PauseIcon, PlayIcon } from './icons';
import { OnAirLine } from './OnAirLine';
import { CHAT_PANEL_ID } from './panelIds';
import { ProgressSlider } from './ProgressSlider';
import { TimelineRoom } from './TimelineRoom';
import { canPlayTimeline } from '../timeline/playlist';
import { QueueLine } from './QueueLine';
import './bar.css';

/*
 * The panels above the bar, with their styles (panels.css), are loaded when first opened: a closed
 * player is on every page's first screen, and their styles were written into every page.
 */
const ChatPanel = lazy(() => import('./ChatPanel'));
const OnAirPanel = lazy(() => import('./OnAirPanel'));
/** « File d'écoute », the queue's panel (docs/player.md, « The queue »). */
const QueuePanel = lazy(() => import(/* webpackChunkName: "file-panneau" */ './QueuePanel'));
/** The live's timeline: its code and styles when the player is first open live (docs/player.md, « The timeline »). */
const Timeline = lazy(() => import(/* webpackChunkName: "frise" */ './Timeline'));

/** Controls inside the bar act by themselves; a click on them must not also toggle the player. */
const CONTROLS = 'button, a, input, select, textarea, iframe, [role="slider"]';

/**
 * The open player: the bottom bar, the panels above it and the timeline under it (docs/interface.md,
 * « The player »). Its code and its styles (bar.css) come when the player first opens, or when the
 * visitor points at the pill (PlayerView.tsx, `loadPlayerBar`): a closed player shows only its pill,
 * on every page's first screen.
 */
export function PlayerBar({ toggle, mainRef }: { toggle: () => void; mainRef: Ref<HTMLButtonElement> }) {
  const dispatch = useAppDispatch();
  const live = useAppSelector(selectMode) === 'LIVE';
  const wantsSound = useAppSelector(selectWantsSound);
  const loading = useAppSelector(selectLoading);
  const dragging = useAppSelector(selectDragging);
  const chatOpen = useAppSelector(selectChatOpen);
  const chatStatus = useAppSelector(selectChatStatus);
  const artist = useAppSelector(selectArtist);
  const show = useAppSelector(selectShow);
  const cover = useAppSelector(selectCover);
  const message = useAppSelector(selectMessage);
  const currentTime = useAppSelector(selectCurrentTime);
  const remaining = useAppSelector(selectRemaining);
  const behindEdge = useAppSelector(selectMoment) !== null;
  const behind = useAppSelector(selectBehind);
  // The live's timeline, where the radio keeps one and this browser plays it: its row is held from
  // the bar's first frame (TimelineRoom), not added when its code and its window arrive.
  // (Offered is read at each render: a partner's page may learn the radio's settings after the bar.)
  const offered = live && timelineOffered();
  const timeline = useMemo(() => offered && canPlayTimeline(), [offered]);
  // « À l'antenne »: one panel above the bar at a time, the chat's or this one.
  const [onAirOpen, setOnAirOpen] = useState(false);
  const closeOnAir = useCallback(() => {
    setOnAirOpen(false);
    document.querySelector<HTMLElement>('.player__next')?.focus();
  }, []);
  // « File d'écoute »: a panel of the same kind, in both modes; opening one closes the others.
  const [queueOpen, setQueueOpen] = useState(false);
  const closeQueue = useCallback(() => {
    setQueueOpen(false);
    document.querySelector<HTMLElement>('.player__queue')?.focus();
  }, []);
  const toggleQueue = () => {
    if (!queueOpen && chatOpen) dispatch(chatToggled());
    setOnAirOpen(false);
    setQueueOpen(!queueOpen);
  };

  const onBarClick = (event: MouseEvent<HTMLDivElement>) => {
    const control = event.target instanceof Element ? event.target.closest(CONTROLS) : null;
    if ((control !== null && event.currentTarget.contains(control)) || dragging) return;
    toggle();
  };

  return (
    <section className={`player player--open${live ? ' player--live' : ' player--replay'}`} aria-label="Lecteur radio">
      <FigureBeacons />
      <Suspense fallback={null}>
        {live && chatOpen ? <ChatPanel status={chatStatus} /> : null}
        {live && onAirOpen && !chatOpen ? <OnAirPanel onClose={closeOnAir} /> : null}
        {queueOpen && !(live && (chatOpen || onAirOpen)) ? <QueuePanel onClose={closeQueue} /> : null}
      </Suspense>
      <div className="player__bar" onClick={onBarClick}>
        <div className="player__start">
          {live && !behindEdge ? (
            <span className="player__live">
              <span className="player__dot" aria-hidden="true" />
              <span className="visually-hidden">En direct</span>
            </span>
          ) : live ? (
            <span className="player__time">
              <span className="visually-hidden">Retard sur le direct : </span>-{formatTime(behind)}
            </span>
          ) : (
            <span className="player__time">
              <span className="visually-hidden">Temps écoulé : </span>
              {formatTime(currentTime)}
            </span>
          )}
        </div>
        <img className="player__cover" src={cover} alt="" width={44} height={44} />
        <button
          ref={mainRef}
          type="button"
          className="player__button player__button--main"
          aria-label={wantsSound ? 'Pause' : 'Lecture'}
          onClick={() => dispatch(wantsSound ? pauseRequested() : playRequested())}
        >
          {wantsSound ? <PauseIcon /> : <PlayIcon />}
        </button>
        <div className="player__centre">
          <div className="player__titles">
            <p className="player__artist">{artist}</p>
            <p className="player__show">{show}</p>
            {live ? <ListenerCount /> : null}
            {live ? (
              <OnAirLine
                open={onAirOpen && !chatOpen}
                onToggle={() => {
                  if (chatOpen) dispatch(chatToggled());
                  setQueueOpen(false);
                  setOnAirOpen(!onAirOpen || chatOpen);
                }}
              />
            ) : null}
          </div>
          {live ? null : <CurrentTrack />}
          {queueOffered() ? (
            <QueueLine open={queueOpen && !(live && (chatOpen || onAirOpen))} onToggle={toggleQueue} />
          ) : null}
          <CastLine />
          {loading ? <p className="player__loading">chargement ...</p> : null}
          <p className="player__message" role="status">
            {message}
          </p>
        </div>
        {live ? null : (
          <>
            <div className="player__progress">
              <ProgressSlider />
            </div>
            <span className="player__time player__time--remaining">
              <span className="visually-hidden">Temps restant : </span>-{formatTime(remaining)}
            </span>
          </>
        )}
        <div className="player__end">
          {live ? (
            <button
              type="button"
              className={`player__button${chatOpen ? ' player__button--active' : ''}`}
              aria-label={chatOpen ? 'Fermer le chat' : 'Ouvrir le chat'}
              aria-controls={chatOpen ? CHAT_PANEL_ID : undefined}
              onClick={() => {
                setOnAirOpen(false);
                setQueueOpen(false);
                dispatch(chatToggled());
              }}
            >
              <ChatIcon />
            </button>
          ) : (
            <DirectButton />
          )}
          <button type="button" className="player__button" aria-label="Fermer le lecteur" onClick={toggle}>
            <CollapseIcon />
          </button>
        </div>
        {timeline ? (
          <Suspense fallback={<TimelineRoom />}>
            <Timeline />
          </Suspense>
        ) : null}
      </div>
    </section>
  );
}
