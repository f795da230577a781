import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { radioSettingsReady, useAppDispatch, useAppSelector, useAppStore, useEpisodesQuery } from '@collectif/shared';
import { showOnAir } from '@collectif/shared/schedule';
import { speakTime } from '@collectif/shared/time';
import {
  edgeAt,
  momentRequested,
  replaySelected,
  selectHeld,
  selectLiveWindow,
  selectMoment,
  selectPlayer,
  timelineHeld,
  windowLearned,
} from '../player/playerSlice';
import { sliderKeyValue } from '../player/sliderKeys';
import { DirectButton } from './DirectButton';
import { replayOf, replayRequest } from '../timeline/replay';
import { canPlayTimeline, timelinePlaylist } from '../timeline/playlist';
import { TimelineRoom } from './TimelineRoom';
import { fetchWindow } from '../timeline/window';
import { adoptStyles } from '../embed/options';
import { usePlayerSchedule } from './OnAirLine';
import * as timelineStyles from './timeline.css';

/** How often the window and what played in it are asked again while the timeline shows. */
export const TIMELINE_REFRESH_MS = 60_000;
/**
 * A window not read (a radio whose recorder has not written its first segment yet, a server that
 * restarts) is asked again after this, then twice as long after each failure, up to the refresh's
 * minute: a visitor who opened the player as the radio started sees the timeline within seconds.
 */
export const TIMELINE_RETRY_MS = 2_000;
/** What the arrow keys move by, and the system's controls when they give no offset (seconds). */
export const TIMELINE_STEP_S = 10;
/** What Page Up and Page Down move by (seconds). */
export const TIMELINE_PAGE_S = 300;

/** The partners' players whose shadow root has the timeline's styles. */
const styledRoots = new WeakSet<ShadowRoot>();
/** timeline.css as text in the partner script's build (its CSS is read as source); nothing in the site's. */
const timelineSheet = Object.values(timelineStyles as Record<string, unknown>).find(
  (value) => typeof value === 'string',
);

function setHandler(action: MediaSessionAction, handler: MediaSessionActionHandler | null): void {
  try {
    navigator.mediaSession.setActionHandler(action, handler);
  } catch {
    // A browser that does not know an action throws; the others still work.
  }
}

/** « 12 minutes 30 secondes avant le direct », or « En direct ». */
export function spokenPosition(behindSeconds: number | null): string {
  return behindSeconds === null || behindSeconds < 1 ? 'En direct' : `${speakTime(behindSeconds)} avant le direct`;
}

/**
 * The live as a timeline (docs/player.md, « The timeline »), under the bar once the player is open
 * live: « Reprendre au début » (or « Réécouter l'émission » when the show heard has its replay), the
 * window's slider and, behind the edge, « Direct ». Loaded with its code when first shown.
 */
function Timeline() {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const span = useAppSelector(selectLiveWindow);
  const moment = useAppSelector(selectMoment);
  const held = useAppSelector(selectHeld);
  // Undefined until the radio's settings are read; null where this browser or player has no timeline.
  const [playlist, setPlaylist] = useState<string | null | undefined>(undefined);
  // The window could not be read (its file missing or refused): the row's room is given back.
  const [unreadable, setUnreadable] = useState(false);
  const row = useRef<HTMLDivElement>(null);

  // The site's build loads timeline.css as a sheet with this code; the partner script's reads it as
  // text (docs/embed.md, « The timeline »): it joins the player's shadow root when the timeline
  // first shows, so that a partner's page that never shows it never downloads it.
  useLayoutEffect(() => {
    const root = row.current?.getRootNode();
    if (typeof timelineSheet !== 'string' || !(root instanceof ShadowRoot) || styledRoots.has(root)) return;
    styledRoots.add(root);
    adoptStyles(root, timelineSheet);
  });

  // A partner's page may still be fetching the radio's settings: the playlist is read once they are in.
  useEffect(() => {
    let mounted = true;
    void radioSettingsReady().then(() => {
      if (mounted) setPlaylist(canPlayTimeline() ? timelinePlaylist() : null);
    });
    return () => {
      mounted = false;
    };
  }, []);

  useEffect(() => {
    if (playlist === null || playlist === undefined) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let retry = TIMELINE_RETRY_MS;
    const learn = async () => {
      const learned = await fetchWindow(playlist, controller.signal);
      if (controller.signal.aborted) return;
      setUnreadable(learned === null);
      if (learned === null) {
        timer = setTimeout(() => void learn(), retry);
        retry = Math.min(retry * 2, TIMELINE_REFRESH_MS);
        return;
      }
      retry = TIMELINE_RETRY_MS;
      timer = setTimeout(() => void learn(), TIMELINE_REFRESH_MS);
      const { start, end, closest, played } = learned;
      dispatch(
        windowLearned({
          start,
          edge: end,
          seen: performance.now(),
          ...(closest === undefined ? {} : { closest }),
          ...(played === undefined ? {} : { played }),
        }),
      );
    };
    void learn();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [playlist, dispatch]);

  // The system's controls seek within the window, 10 s a step (docs/player.md, « The timeline »),
  // while the timeline shows; the player's own sync leaves them to it (mediaSession.ts).
  const known = span !== null;
  const hasSession = typeof navigator !== 'undefined' && 'mediaSession' in navigator;
  useEffect(() => {
    if (!known || !hasSession) return;
    const move = (seconds: number) => {
      const { moment: heard, window: kept } = selectPlayer(store.getState());
      if (kept !== null) dispatch(momentRequested((heard ?? edgeAt(kept, performance.now())) + seconds * 1000));
    };
    setHandler('seekbackward', (details) => {
      move(-(details.seekOffset ?? TIMELINE_STEP_S));
    });
    setHandler('seekforward', (details) => {
      move(details.seekOffset ?? TIMELINE_STEP_S);
    });
    setHandler('seekto', (details) => {
      const kept = selectPlayer(store.getState()).window;
      if (details.seekTime !== undefined && kept !== null)
        dispatch(momentRequested(kept.start + details.seekTime * 1000));
    });
    return () => {
      for (const action of ['seekbackward', 'seekforward', 'seekto'] as const) setHandler(action, null);
    };
  }, [known, hasSession, dispatch, store]);
  // Its position: the window from its start, at the edge its end; sent at each move (the system
  // extrapolates it while playing).
  const lengthSeconds = span === null ? 0 : Math.round((span.edge - span.start) / 1000);
  const behindSeconds = span === null || moment === null ? 0 : Math.round((span.edge - moment) / 1000);
  useEffect(() => {
    if (!hasSession || typeof navigator.mediaSession.setPositionState !== 'function' || lengthSeconds <= 0) return;
    try {
      navigator.mediaSession.setPositionState({
        duration: lengthSeconds,
        position: Math.max(0, lengthSeconds - behindSeconds),
        playbackRate: 1,
      });
    } catch {
      // An inconsistent position is simply not shown.
    }
  }, [hasSession, lengthSeconds, behindSeconds]);

  // The show heard: at the moment behind the edge, else on air now.
  const { events } = usePlayerSchedule(moment);
  const heardAt = moment ?? span?.edge ?? null;
  const show = events === undefined || heardAt === null ? null : showOnAir(events, heardAt);
  const residence = show?.residence ?? null;
  const episodes = useEpisodesQuery({ residence: residence ?? '' }, { skip: residence === null }).data?.items;
  const replay =
    show === null || episodes === undefined || events === undefined ? null : replayOf(show, episodes, events);

  // While the settings and the window come, the row's room (the bar keeps its height); none once
  // there is no timeline to show.
  if (playlist === null || (span === null && unreadable)) return null;
  if (playlist === undefined || span === null) return <TimelineRoom />;

  const { start, edge } = span;
  const at = held ?? moment ?? edge;
  const length = Math.max(1, Math.round((edge - start) / 1000));
  const value = Math.min(length, Math.max(0, Math.round((at - start) / 1000)));
  const behind = held === null && moment === null ? null : (edge - at) / 1000;

  const request = (instant: number) => dispatch(momentRequested(instant));

  const grab = () => {
    dispatch(timelineHeld(at));
    // As the replay's slider (ProgressSlider.tsx): the move happens when the thumb is let go, after
    // the click that ends the drag, which must not toggle the player.
    const release = () => {
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', release);
      setTimeout(() => {
        const where = selectHeld(store.getState());
        dispatch(timelineHeld(null));
        if (where !== null) request(where);
      }, 0);
    };
    window.addEventListener('pointerup', release);
    window.addEventListener('pointercancel', release);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const now = edgeAt(span, performance.now());
    const from = ((moment ?? now) - start) / 1000;
    const max = (now - start) / 1000;
    const next = sliderKeyValue(event.key, from, { min: 0, max, step: TIMELINE_STEP_S, page: TIMELINE_PAGE_S });
    if (next === null) return;
    event.preventDefault();
    request(start + next * 1000);
  };

  return (
    // A click in the row is for its controls, never the bar's (which opens and closes the player).
    <div
      ref={row}
      className="player__timeline"
      onClick={(event) => {
        event.stopPropagation();
      }}
    >
      {show === null ? null : replay === null ? (
        <button type="button" className="player__rewind" onClick={() => request(Date.parse(show.start))}>
          Reprendre au début
        </button>
      ) : (
        <button
          type="button"
          className="player__rewind"
          onClick={() =>
            dispatch(replaySelected(replayRequest(replay, show, moment ?? edgeAt(span, performance.now()))))
          }
        >
          Réécouter l’émission
        </button>
      )}
      <input
        className="player__slider player__timeline-slider"
        type="range"
        min={0}
        max={length}
        step="any"
        value={value}
        aria-label="Position dans le direct"
        aria-valuetext={spokenPosition(behind)}
        onPointerDown={grab}
        onChange={(event) => {
          const instant = start + Number(event.currentTarget.value) * 1000;
          if (selectHeld(store.getState()) === null) request(instant);
          else dispatch(timelineHeld(instant));
        }}
        onKeyDown={onKeyDown}
      />
      {moment === null ? null : <DirectButton />}
    </div>
  );
}

// Loaded when the player is first open live (PlayerView.tsx, `lazy`).
export default Timeline;
