import { DEFAULT_COVER, siteConfig, type AppDispatch } from '@collectif/shared';
import { resolveImageUrl } from './config';
import { pauseRequested, playRequested, sliderMoved, type PlayerState } from './playerSlice';

/** Seek back and forward offset of SPEC section 9, in seconds. */
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

let lastMetadataKey: string | null = null;
let lastMode: PlayerState['mode'] | null = null;
let lastDispatch: AppDispatch | null = null;

/**
 * Keeps the system media controls (lock screen, headset keys, browser's media hub) in line with the
 * player: what plays, play/pause, and in replay only the seeking actions and the position.
 */
export function syncMediaSession(
  readState: () => PlayerState,
  dispatch: AppDispatch,
  { position = true }: { position?: boolean } = {},
): void {
  const media = session();
  if (media === null) return;
  const state = readState();

  const artwork = resolveImageUrl(state.cover) ?? resolveImageUrl(DEFAULT_COVER) ?? DEFAULT_COVER;
  const metadataKey = `${state.show}\n${state.artist}\n${artwork}`;
  if (metadataKey !== lastMetadataKey && typeof MediaMetadata === 'function') {
    lastMetadataKey = metadataKey;
    media.metadata = new MediaMetadata({
      title: state.show,
      artist: state.artist,
      album: siteConfig.name,
      artwork: [{ src: artwork }],
    });
  }

  media.playbackState = state.playing ? 'playing' : state.open ? 'paused' : 'none';

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
    } else {
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
}

/** Forgets what was sent to the system controls (a new page, or a test). */
export function resetMediaSession(): void {
  lastMetadataKey = null;
  lastMode = null;
  lastDispatch = null;
}
