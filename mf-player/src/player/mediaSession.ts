import { siteConfig, type AppDispatch } from '@collectif/shared';
import { artistOf, coverOf, pauseRequested, playRequested, showOf, sliderMoved, type PlayerState } from './playerSlice';

/** Seek back and forward offset when the system gives none (docs/player.md, « System media controls »). */
export const SEEK_OFFSET_S = 10;

type Handlers = Partial<Record<MediaSessionAction, MediaSessionActionHandler | null>>;

function session(): MediaSession | null {
  return typeof navigator !== 'undefined' && 'mediaSession' in navigator ? navigator.mediaSession : null;
}

function setHandler(media: MediaSession, action: MediaSessionAction, handler: MediaSessionActionHandler | null): void {
  try {
    media.setActionHandler(action, handler);
  } catch {
    // A browser that does not know an action throws; the others still work.
  }
}

function percentOf(state: PlayerState, seconds: number): number {
  return state.duration > 0 ? (seconds / state.duration) * 100 : 0;
}

/** The track of a replay's tracklist that plays now (tracklist.ts), as the system controls say it. */
export interface PlayingTrack {
  artist: string;
  title: string;
}

export type SyncMediaSession = (
  readState: () => PlayerState,
  dispatch: AppDispatch,
  options?: { position?: boolean; track?: PlayingTrack | null },
) => void;

/**
 * Keeps the system media controls (lock screen, headset keys, browser's media hub) in line with the
 * player: what plays, play/pause, and in replay the seeking actions and the position (live, the
 * timeline sets its own once shown: ui/Timeline.tsx). What was
 * last sent is remembered by the returned function, so that unchanged metadata and handlers are not
 * sent again.
 */
export function createMediaSessionSync(): SyncMediaSession {
  let lastMetadataKey: string | null = null;
  let lastMode: PlayerState['mode'] | null = null;
  let lastDispatch: AppDispatch | null = null;

  return (readState, dispatch, { position = true, track = null } = {}) => {
    const media = session();
    if (media === null) return;
    const state = readState();

    // A replay's track that plays is what the system shows, the show as its album (docs/player.md,
    // « The current track of a replay »); otherwise the show and its artist, from the site.
    const inTrack = track !== null && state.mode === 'REPLAY';
    const title = inTrack ? track.title : showOf(state);
    const artist = inTrack ? track.artist : artistOf(state);
    const album = inTrack ? showOf(state) : siteConfig.name;
    const artwork = coverOf(state);
    const metadataKey = `${title}\n${artist}\n${album}\n${artwork}`;
    if (metadataKey !== lastMetadataKey && typeof MediaMetadata === 'function') {
      lastMetadataKey = metadataKey;
      media.metadata = new MediaMetadata({ title, artist, album, artwork: [{ src: artwork }] });
    }

    media.playbackState = state.status === 'playing' ? 'playing' : state.open ? 'paused' : 'none';

    if (state.mode !== lastMode || dispatch !== lastDispatch) {
      lastMode = state.mode;
      lastDispatch = dispatch;
      const handlers: Handlers = {
        play: () => dispatch(playRequested()),
        pause: () => dispatch(pauseRequested()),
        seekbackward: null,
        seekforward: null,
        seekto: null,
      };
      if (state.mode === 'REPLAY') {
        handlers.seekbackward = (details) => {
          const offset = details.seekOffset ?? SEEK_OFFSET_S;
          dispatch(sliderMovedBy(-offset));
        };
        handlers.seekforward = (details) => {
          const offset = details.seekOffset ?? SEEK_OFFSET_S;
          dispatch(sliderMovedBy(offset));
        };
        handlers.seekto = (details) => {
          if (details.seekTime !== undefined) dispatch(sliderMovedTo(details.seekTime));
        };
      }
      for (const [action, handler] of Object.entries(handlers) as [
        MediaSessionAction,
        MediaSessionActionHandler | null,
      ][]) {
        setHandler(media, action, handler);
      }
    }

    // The system extrapolates the position while playing: the progress tick does not need to tell it.
    if (!position || typeof media.setPositionState !== 'function') return;
    try {
      if (state.mode === 'REPLAY' && state.duration > 0) {
        media.setPositionState({
          duration: state.duration,
          position: Math.min(state.currentTime, state.duration),
          playbackRate: 1,
        });
      } else if (state.mode === 'REPLAY' || state.window === null) {
        // Live with its timeline, the timeline says the position and seeks (Timeline.tsx).
        media.setPositionState();
      }
    } catch {
      // An inconsistent position (metadata not loaded yet) is simply not shown.
    }

    // The seek actions read the state at the moment they run, not the one of this sync.
    function sliderMovedBy(offset: number) {
      return sliderMovedTo(readState().currentTime + offset);
    }
    function sliderMovedTo(seconds: number) {
      return sliderMoved(percentOf(readState(), seconds));
    }
  };
}
