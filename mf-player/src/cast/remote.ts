import type { AppStore } from '@collectif/shared';
import { AUDIO_ELEMENT_ID } from '../player/audioEngine';
import { playRequested, selectPlayer, wantsSound } from '../player/playerSlice';
import {
  castConnected,
  castConnecting,
  castDevicesChanged,
  castDisconnected,
  castPressed,
  castRefused,
  castSourceChanged,
  castWatched,
  selectCast,
  type CastApi,
  type CastSource,
} from './castSlice';

/*
 * The browser's side of « Diffuser sur… » (docs/player.md, « Diffuser sur un appareil »): the
 * page's one audio element is sent whole, so what plays, the player's controls, the queue and the
 * system's media controls go on driving it; only where its sound comes out changes.
 */

/** Safari's AirPlay, beside the Remote Playback API. */
interface AirPlayMedia extends HTMLMediaElement {
  webkitShowPlaybackTargetPicker?: () => void;
  webkitCurrentPlaybackTargetIsWireless?: boolean;
}

/** How long a press waits for the live to have a source again (paused, the live lets go of it). */
export const CAST_SOURCE_WAIT_MS = 5_000;

export const CAST_TEXT = {
  timeline:
    'Le différé ne peut pas être diffusé sur un appareil depuis ce navigateur. Revenez au direct pour le diffuser.',
  replay: 'Cette émission ne peut pas être diffusée sur un appareil depuis ce navigateur.',
  unsupported: 'L’appareil choisi ne peut pas lire ce son.',
  noDevice: 'Aucun appareil n’est disponible pour le moment.',
  failed: 'La diffusion n’a pas pu commencer. Réessayez dans quelques instants.',
} as const;

function remoteOf(media: HTMLMediaElement): RemotePlayback | null {
  const remote = (media as Partial<Pick<HTMLMediaElement, 'remote'>>).remote;
  return remote !== undefined && typeof remote.watchAvailability === 'function' ? remote : null;
}

/** The API this browser offers for `media`; none in Firefox (docs/player.md). */
export function castApiOf(media: HTMLMediaElement): CastApi | null {
  if (remoteOf(media) !== null) return 'remote';
  if (typeof (media as AirPlayMedia).webkitShowPlaybackTargetPicker === 'function') return 'airplay';
  return null;
}

/** A `blob:` source is Media Source Extensions (hls.js): a receiver cannot fetch it. */
export function sourceOf(media: HTMLMediaElement): CastSource {
  const src = media.getAttribute('src') ?? '';
  if (src === '') return 'none';
  return src.startsWith('blob:') ? 'mse' : 'plain';
}

const started = new WeakMap<AppStore, HTMLMediaElement>();

/**
 * The page's audio element, which the connected player made (player/connect.ts). Found by its id
 * rather than through the player's runtime, so that the code every page loads exports nothing more.
 */
export function playerMedia(): HTMLAudioElement | null {
  const element = document.getElementById(AUDIO_ELEMENT_ID);
  return element instanceof HTMLAudioElement ? element : null;
}

/**
 * Watches the devices for the audio element of `store`'s player, and where its sound is, once per
 * store and element. Kept for the page's life, so that the way back runs with the bar closed too.
 */
export function startCast(store: AppStore): void {
  const media = playerMedia();
  if (media === null || started.get(store) === media) return;
  started.set(store, media);
  const api = castApiOf(media);
  if (api === null) return;
  const { dispatch } = store;
  dispatch(castWatched(api));

  const readSource = () => {
    const source = sourceOf(media);
    if (selectCast(store.getState()).source !== source) dispatch(castSourceChanged(source));
  };
  readSource();
  media.addEventListener('loadstart', readSource);
  media.addEventListener('emptied', readSource);

  let link = selectCast(store.getState()).link;
  const linked = (next: typeof link) => {
    const before = link;
    link = next;
    if (next === 'connecting') dispatch(castConnecting());
    else if (next === 'connected') dispatch(castConnected());
    else dispatch(castDisconnected());
    // The way back: the sound the visitor wanted comes back to the page now, from where the device
    // was (a replay) or at the live's edge, without a second press (the player's own request).
    if (next === 'disconnected' && before !== 'disconnected' && wantsSound(selectPlayer(store.getState()))) {
      dispatch(playRequested());
    }
  };

  const remote = remoteOf(media);
  if (remote !== null) {
    remote.addEventListener('connecting', () => {
      linked('connecting');
    });
    remote.addEventListener('connect', () => {
      linked('connected');
    });
    remote.addEventListener('disconnect', () => {
      linked('disconnected');
    });
    if (remote.state !== 'disconnected') linked(remote.state);
    // Rejected where the browser cannot watch (a desktop without the backend, disableRemotePlayback):
    // then no device is ever reported, and nothing shows.
    remote
      .watchAvailability((available) => {
        dispatch(castDevicesChanged(available));
      })
      .catch(() => undefined);
    return;
  }
  const airplay = media as AirPlayMedia;
  media.addEventListener('webkitplaybacktargetavailabilitychanged', (event) => {
    dispatch(castDevicesChanged((event as Event & { availability?: string }).availability === 'available'));
  });
  media.addEventListener('webkitcurrentplaybacktargetiswirelesschanged', () => {
    linked(airplay.webkitCurrentPlaybackTargetIsWireless === true ? 'connected' : 'disconnected');
  });
}

function sourceReady(media: HTMLMediaElement): Promise<boolean> {
  if (sourceOf(media) !== 'none') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      media.removeEventListener('loadstart', onLoad);
      resolve(ok);
    };
    const onLoad = () => {
      done(sourceOf(media) !== 'none');
    };
    const timer = setTimeout(() => {
      done(false);
    }, CAST_SOURCE_WAIT_MS);
    media.addEventListener('loadstart', onLoad);
  });
}

/**
 * The press of « Diffuser sur… »: the browser's own device picker (which also stops a link under
 * way). A source a receiver cannot fetch says so instead; a paused live asks for its stream first,
 * since paused it holds none (docs/player.md, « Live stream »).
 */
export async function castRequested(store: AppStore): Promise<void> {
  const { dispatch } = store;
  const media = playerMedia();
  if (media === null) return;
  dispatch(castPressed());
  const cast = selectCast(store.getState());
  if (cast.source === 'mse') {
    dispatch(castRefused(selectPlayer(store.getState()).mode === 'LIVE' ? CAST_TEXT.timeline : CAST_TEXT.replay));
    return;
  }
  const remote = remoteOf(media);
  if (remote === null) {
    (media as AirPlayMedia).webkitShowPlaybackTargetPicker?.();
    return;
  }
  if (cast.link === 'disconnected' && sourceOf(media) === 'none') {
    dispatch(playRequested());
    if (!(await sourceReady(media))) {
      dispatch(castRefused(CAST_TEXT.failed));
      return;
    }
  }
  try {
    await remote.prompt();
  } catch (error) {
    const name = error instanceof DOMException ? error.name : '';
    // The visitor closed the picker: nothing to say.
    if (name === 'NotAllowedError' || name === 'AbortError') return;
    if (name === 'NotFoundError') dispatch(castRefused(CAST_TEXT.noDevice));
    else if (name === 'NotSupportedError') dispatch(castRefused(CAST_TEXT.unsupported));
    else {
      console.error('Lecteur : diffusion impossible', error);
      dispatch(castRefused(CAST_TEXT.failed));
    }
  }
}

/** The device's volume, in percent: the element's, which the Remote Playback API carries to it. */
export function castVolumeChanged(percent: number): void {
  const media = playerMedia();
  if (media === null || !Number.isFinite(percent)) return;
  media.volume = Math.min(100, Math.max(0, percent)) / 100;
}
