import { radioSettings, type RadioSettings } from '@collectif/shared';
import { resolveMediaUrl, timelineOffered } from '../player/config';

/**
 * The multivariant playlist of the hours kept (docs/player.md, « The timeline »), absolute, or null
 * when there is none to move in: the radio keeps none, or a partner's player did not ask for it.
 */
export function timelinePlaylist(): string | null {
  // An older shell's settings have no timeline (docs/contract.md, 3.2.0).
  const { timeshift } = radioSettings() as Partial<RadioSettings>;
  return timelineOffered() ? resolveMediaUrl(timeshift?.playlist ?? '') : null;
}

/** Safari's element, which knows the date its HLS starts at. */
export type DatedMedia = HTMLMediaElement & { getStartDate?: () => Date };

/**
 * Whether the browser plays the timeline's HLS itself and dates its position: Safari. Chromium
 * also answers HLS to `canPlayType` now, but reads no packed MP3 audio and gives no start date:
 * hls.js plays it there.
 */
export function playsDatedHls(media: HTMLMediaElement): boolean {
  return (
    media.canPlayType('application/vnd.apple.mpegurl') !== '' &&
    typeof (media as DatedMedia).getStartDate === 'function'
  );
}

/**
 * Whether this browser can play the timeline's stream: natively with its dates (Safari), or through
 * Media Source Extensions with MP3 (hls.js). Neither: no timeline, the live at its edge as before.
 * Checked without hls.js, which is fetched only when the listener moves back.
 */
export function canPlayTimeline(): boolean {
  const scope = globalThis as { MediaSource?: typeof MediaSource; ManagedMediaSource?: typeof MediaSource };
  const source = scope.MediaSource ?? scope.ManagedMediaSource;
  return (
    playsDatedHls(document.createElement('audio')) ||
    (typeof source?.isTypeSupported === 'function' &&
      (source.isTypeSupported('audio/mpeg') || source.isTypeSupported('audio/mp4; codecs="mp4a.40.34"')))
  );
}
