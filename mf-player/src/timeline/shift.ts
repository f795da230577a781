// The timeline's stream, behind the live edge (docs/player.md, « The timeline »): the HLS of the
// hours the site keeps, played natively where the browser can (Safari), else through hls.js. This
// module, and hls.js after it, are fetched only when a listener first moves back from the edge.
import type { AppDispatch, Rendition } from '@collectif/shared';
import type { Level, LevelDetails } from 'hls.js/light';
import { TIMELINE_SOURCE, type AttachedSource, type AudioEngine } from '../player/audioEngine';
import { currentRendition } from '../player/config';
import { playsDatedHls, timelinePlaylist, type DatedMedia } from './playlist';
import { audioErrored, audioPlaying, EDGE_SEGMENTS, timelineFailed, windowLearned } from '../player/playerSlice';
import { instantAt, spanOf, timeAt } from './mapping';

/** Safari's playlist is not read here: the oldest segment it may seek to is one of the default 10 s in. */
const NATIVE_START_MARGIN_S = 10;

/** A radio that names no rendition plays its normal one, the multivariant playlist's first. */
const NORMAL: Rendition = { id: 'normale', label: 'Normale', url: '', bitrate: 128, codec: 'mp3' };

/** A move closer than this to where the element is changes nothing (seconds). */
const SEEK_SLACK_S = 1;

interface TimelineSource extends AttachedSource {
  /** Plays from `at` (Unix ms), within what the playlist holds. */
  seek(at: number): void;
  /** Plays `rendition` from now on. */
  choose(rendition: Rendition): void;
}

/** A media playlist of the multivariant one: `<id>/index.m3u8` beside it. */
export function variantUrl(playlist: string, id: string): string {
  return new URL(`${encodeURIComponent(id)}/index.m3u8`, playlist).href;
}

/**
 * The variant of hls.js's levels that is `rendition`: by its address, else by its name, else the
 * nearest bitrate.
 */
export function levelOf(levels: readonly Pick<Level, 'url' | 'name' | 'bitrate'>[], rendition: Rendition): number {
  const path = `/${encodeURIComponent(rendition.id)}/index.m3u8`;
  const byUrl = levels.findIndex((level) => level.url.some((url) => new URL(url, 'http://x').pathname.endsWith(path)));
  if (byUrl !== -1) return byUrl;
  const byName = levels.findIndex((level) => level.name === rendition.label);
  if (byName !== -1) return byName;
  const gap = (level: Pick<Level, 'bitrate'> | undefined) => Math.abs((level?.bitrate ?? 0) - rendition.bitrate * 1000);
  return levels.reduce((best, level, index) => (gap(level) < gap(levels[best]) ? index : best), 0);
}

/**
 * Where the element may play `at` in hls.js's playlist: what it holds, from one segment after its
 * start (the oldest one may be gone when asked for) to as near its end as hls.js plays.
 */
export function positionIn(
  details: Pick<LevelDetails, 'fragments' | 'edge' | 'targetduration'>,
  at: number,
): number | null {
  const time = timeAt(details.fragments, at);
  if (time === null) return null;
  const first = details.fragments[0]?.start ?? 0;
  const latest = Math.max(first, details.edge - EDGE_SEGMENTS * details.targetduration);
  return Math.max(Math.min(time, latest), Math.min(first + details.targetduration, latest));
}

function report(dispatch: AppDispatch, current: () => boolean, start: number, end: number, closest?: number): void {
  if (!current() || !(start < end)) return;
  dispatch(windowLearned({ start, edge: end, seen: performance.now(), ...(closest === undefined ? {} : { closest }) }));
}

/** Safari: the variant's own media playlist in the element; its start date dates the position. */
function nativeSource(
  media: DatedMedia,
  playlist: string,
  rendition: Rendition,
  at: number,
  dispatch: AppDispatch,
  current: () => boolean,
): TimelineSource {
  let target: number | null = at;
  let chosen = rendition.id;
  const startDate = () => media.getStartDate?.().getTime() ?? Number.NaN;
  const moment = () => {
    const start = startDate();
    return Number.isFinite(start) ? start + media.currentTime * 1000 : null;
  };
  const seekable = () => {
    const { seekable: ranges } = media;
    return ranges.length === 0 ? null : { start: ranges.start(0), end: ranges.end(ranges.length - 1) };
  };
  const seekTo = (instant: number) => {
    const start = startDate();
    const range = seekable();
    if (!Number.isFinite(start) || range === null) {
      target = instant;
      return;
    }
    target = null;
    // As with hls.js: not the oldest segment, which may be gone when asked for.
    const earliest = Math.min(range.start + NATIVE_START_MARGIN_S, range.end);
    const time = Math.max(earliest, Math.min((instant - start) / 1000, range.end));
    if (Math.abs(time - media.currentTime) >= SEEK_SLACK_S) media.currentTime = time;
  };
  // The window grows as Safari reloads the playlist: what it can seek is what the site keeps.
  let reported = '';
  const learned = () => {
    const start = startDate();
    const range = seekable();
    const span = range === null ? '' : `${String(start)} ${String(range.start)} ${String(range.end)}`;
    if (Number.isFinite(start) && range !== null && span !== reported) {
      reported = span;
      report(dispatch, current, start + range.start * 1000, start + range.end * 1000);
    }
    if (target !== null) seekTo(target);
  };
  const events = ['loadedmetadata', 'durationchange', 'progress'];
  for (const name of events) media.addEventListener(name, learned);
  media.src = variantUrl(playlist, chosen);
  return {
    moment,
    seek: seekTo,
    choose(next) {
      if (next.id === chosen) return;
      chosen = next.id;
      target = moment() ?? target;
      media.src = variantUrl(playlist, chosen);
    },
    destroy() {
      for (const name of events) media.removeEventListener(name, learned);
    },
  };
}

/** Elsewhere: hls.js (light) on the multivariant playlist, on the variant chosen, from `at`. */
async function hlsSource(
  media: HTMLMediaElement,
  playlist: string,
  rendition: Rendition,
  at: number,
  dispatch: AppDispatch,
  current: () => boolean,
): Promise<TimelineSource | null> {
  const { default: Hls } = await import(/* webpackChunkName: "hls" */ 'hls.js/light');
  if (!current()) return null;
  if (!Hls.isSupported()) {
    console.error('Erreur du lecteur audio : ce navigateur ne lit pas les flux HLS');
    dispatch(audioErrored());
    return null;
  }
  // No start position of its own: hls.js's guess (near the edge) is replaced at its first playlist.
  // No metadata cues: the segments' ID3 tags only carry their time, and the cues' track would load
  // a `data:` address the site's Content-Security-Policy refuses.
  const hls = new Hls({
    enableWorker: true,
    liveSyncDurationCount: EDGE_SEGMENTS,
    enableID3MetadataCues: false,
    enableDateRangeMetadataCues: false,
    enableEmsgMetadataCues: false,
  });
  let details: LevelDetails | null = null;
  let started = false;
  let chosen = rendition;
  /** Where to start, until the first playlist says where that is. */
  let target = at;
  hls.on(Hls.Events.MANIFEST_PARSED, (_event, data) => {
    const level = levelOf(data.levels, chosen);
    hls.startLevel = level;
    hls.loadLevel = level;
  });
  hls.on(Hls.Events.LEVEL_UPDATED, (_event, data) => {
    details = data.details;
    const span = spanOf(details.fragments);
    if (span !== null) report(dispatch, current, span.start, span.end, EDGE_SEGMENTS * details.targetduration * 1000);
    if (started) return;
    started = true;
    // hls.js has asked for a first segment by now, where it guessed: the position of the instant is
    // known only with the playlist. Its first load is aborted and it starts again there.
    const position = positionIn(details, target);
    if (position !== null) {
      queueMicrotask(() => {
        if (current()) hls.startLoad(position);
      });
    }
  });
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (!data.fatal || !current()) return;
    console.error('Erreur du lecteur audio (HLS, différé)', data.type, data.details);
    dispatch(audioErrored());
  });
  hls.loadSource(playlist);
  hls.attachMedia(media);
  return {
    moment: () => {
      const playing = hls.playingDate?.getTime();
      if (playing !== undefined && Number.isFinite(playing)) return playing;
      return details === null ? null : instantAt(details.fragments, media.currentTime);
    },
    seek(instant) {
      target = instant;
      if (details === null) return;
      const position = positionIn(details, instant);
      if (position === null || Math.abs(position - media.currentTime) < SEEK_SLACK_S) return;
      // Before any sound the element takes no position: hls.js starts loading there instead.
      if (media.readyState === HTMLMediaElement.HAVE_NOTHING) hls.startLoad(position);
      else media.currentTime = position;
    },
    choose(next) {
      if (next.id === chosen.id) return;
      chosen = next;
      // At the next segment, without cutting what plays; before the levels are known, at the first.
      if (hls.levels.length > 0) hls.nextLevel = levelOf(hls.levels, next);
    },
    destroy: () => {
      hls.destroy();
    },
  };
}

/**
 * Plays the live from `at` (Unix ms): moves within the timeline's stream when it holds the element,
 * else loads it there. Without a playlist, back to the edge.
 */
export async function playMoment(audio: AudioEngine, at: number, dispatch: AppDispatch): Promise<void> {
  const rendition = currentRendition() ?? NORMAL;
  const held = audio.sourceKey() === TIMELINE_SOURCE ? (audio.attached() as TimelineSource | null) : null;
  if (held !== null) {
    held.choose(rendition);
    held.seek(at);
  } else {
    const playlist = timelinePlaylist();
    if (playlist === null) {
      dispatch(timelineFailed());
      return;
    }
    await audio.loadWith(TIMELINE_SOURCE, (media, current) =>
      playsDatedHls(media)
        ? Promise.resolve(nativeSource(media, playlist, rendition, at, dispatch, current))
        : hlsSource(media, playlist, rendition, at, dispatch, current),
    );
  }
  const generation = audio.loadGeneration();
  await audio.play();
  // A move within what plays fires no 'playing': the element says it plays on.
  if (audio.loadGeneration() === generation && !audio.isPaused()) dispatch(audioPlaying());
}
