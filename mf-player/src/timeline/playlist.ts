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
