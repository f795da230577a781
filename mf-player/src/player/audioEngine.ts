import type { AppDispatch } from '@collectif/shared';
import {
  audioCanPlay,
  audioEnded,
  audioErrored,
  audioPaused,
  audioPlaying,
  audioStalled,
  playRefused,
  progressed,
} from './playerSlice';

/**
 * The one audio element of the page. It is created once and kept for the page's lifetime, outside
 * React, so that no route change or re-render can recreate it and cut the sound.
 */
export const AUDIO_ELEMENT_ID = 'lecteur-audio';

/** The progress tick of SPEC section 9. */
export const PROGRESS_TICK_MS = 100;

const HLS_TYPE = 'application/vnd.apple.mpegurl';

interface HlsLike {
  destroy(): void;
}

interface Engine {
  audio: HTMLAudioElement;
  dispatch: AppDispatch | null;
  tick: ReturnType<typeof setInterval> | null;
  hls: HlsLike | null;
  /** What the element holds: the replay's key, the live URL, or null once unloaded. */
  sourceKey: string | null;
  /** Incremented by every load, so that a slow HLS import for an older source gives up. */
  generation: number;
  /** The current source failed ('error'); cleared by the next load or by sound. */
  failed: boolean;
  lastProgress: { currentTime: number; duration: number };
  detach: () => void;
}

let engine: Engine | null = null;

function send(action: Parameters<AppDispatch>[0]): void {
  engine?.dispatch?.(action);
}

function reportProgress(): void {
  if (engine === null || engine.sourceKey === null) return;
  const { currentTime, duration } = engine.audio;
  const last = engine.lastProgress;
  if (currentTime === last.currentTime && (duration === last.duration || Number.isNaN(duration))) return;
  engine.lastProgress = { currentTime, duration };
  send(progressed({ currentTime, duration }));
}

function stopTick(): void {
  if (engine?.tick != null) {
    clearInterval(engine.tick);
    engine.tick = null;
  }
}

function create(): Engine {
  const audio = document.createElement('audio');
  audio.id = AUDIO_ELEMENT_ID;
  audio.preload = 'none';
  audio.setAttribute('data-testid', AUDIO_ELEMENT_ID);
  document.body.appendChild(audio);

  const loaded = () => engine !== null && engine.sourceKey !== null;
  const handlers: Record<string, () => void> = {
    playing: () => {
      if (engine !== null) engine.failed = false;
      send(audioPlaying());
      stopTick();
      if (engine !== null) engine.tick = setInterval(reportProgress, PROGRESS_TICK_MS);
    },
    canplay: () => {
      send(audioCanPlay());
    },
    pause: () => {
      stopTick();
      // The end of the media also pauses it, and so does a failed load (Chromium fires 'pause' after
      // 'error'): 'ended' and 'error' report those, and a live stream is then rejoined. Reported as a
      // pause, they would read as the visitor's wish to stop and cancel the reconnection.
      if (!audio.ended && engine?.failed !== true) send(audioPaused());
    },
    ended: () => {
      stopTick();
      reportProgress();
      send(audioEnded());
    },
    error: () => {
      stopTick();
      if (engine !== null) engine.failed = true;
      // An element emptied on purpose (unload) has no source; its errors are not the visitor's problem.
      if (!loaded()) return;
      const error = audio.error;
      console.error('Erreur du lecteur audio', error?.code, error?.message);
      send(audioErrored());
    },
    stalled: () => {
      if (loaded()) send(audioStalled());
    },
    waiting: () => {
      if (loaded()) send(audioStalled());
    },
    timeupdate: reportProgress,
    durationchange: reportProgress,
    seeked: reportProgress,
    loadedmetadata: reportProgress,
  };
  for (const [name, handler] of Object.entries(handlers)) audio.addEventListener(name, handler);

  return {
    audio,
    dispatch: null,
    tick: null,
    hls: null,
    sourceKey: null,
    generation: 0,
    failed: false,
    lastProgress: { currentTime: 0, duration: Number.NaN },
    detach: () => {
      for (const [name, handler] of Object.entries(handlers)) audio.removeEventListener(name, handler);
    },
  };
}

function current(): Engine {
  engine ??= create();
  return engine;
}

/** The page's audio element (created on first use). */
export function audioElement(): HTMLAudioElement {
  return current().audio;
}

/** Sends the element's events to `dispatch` (the store of the mounted player); returns the undo. */
export function attachAudio(dispatch: AppDispatch): () => void {
  const e = current();
  e.dispatch = dispatch;
  return () => {
    if (engine === e && e.dispatch === dispatch) e.dispatch = null;
  };
}

function isHls(url: string): boolean {
  try {
    return new URL(url).pathname.toLowerCase().endsWith('.m3u8');
  } catch {
    return false;
  }
}

function dropHls(e: Engine): void {
  if (e.hls !== null) {
    e.hls.destroy();
    e.hls = null;
  }
}

/**
 * Loads `url` as the element's source, remembered under `key`. HLS goes through the browser where it
 * plays it natively, else through hls.js, fetched only now.
 */
export async function loadSource(url: string, key: string): Promise<void> {
  const e = current();
  e.generation += 1;
  e.failed = false;
  const generation = e.generation;
  stopTick();
  dropHls(e);
  e.sourceKey = key;
  e.lastProgress = { currentTime: 0, duration: Number.NaN };
  if (!isHls(url) || e.audio.canPlayType(HLS_TYPE) !== '') {
    // Setting src runs the element's load algorithm: the old source and its buffer are dropped.
    e.audio.src = url;
    return;
  }
  const { default: Hls } = await import(/* webpackChunkName: "hls" */ 'hls.js/light');
  if (generation !== e.generation) return;
  if (!Hls.isSupported()) {
    console.error('Erreur du lecteur audio : ce navigateur ne lit pas les flux HLS');
    send(audioErrored());
    return;
  }
  const hls = new Hls({ enableWorker: true });
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal && e.hls === hls) {
      console.error('Erreur du lecteur audio (HLS)', data.type, data.details);
      send(audioErrored());
    }
  });
  hls.loadSource(url);
  hls.attachMedia(e.audio);
  e.hls = hls;
}

/** The live stream from its current edge: a fresh URL, so that no stale buffer is ever played. */
export async function loadLive(url: string): Promise<void> {
  const fresh = new URL(url);
  fresh.searchParams.set('direct', Date.now().toString(36));
  await loadSource(fresh.href, url);
}

export function sourceKey(): string | null {
  return engine?.sourceKey ?? null;
}

/** How many loads happened; a delayed reconnection checks that nobody loaded in between. */
export function loadGeneration(): number {
  return engine?.generation ?? 0;
}

/** Starts playback; a refusal of the browser (autoplay rules) is reported, a superseded play is not. */
export async function play(): Promise<void> {
  const e = current();
  try {
    await e.audio.play();
  } catch (error) {
    const name = error instanceof DOMException ? error.name : '';
    if (name === 'AbortError') return;
    if (name === 'NotAllowedError') {
      send(playRefused());
      return;
    }
    // Unplayable sources also raise the element's error event, which does the reporting.
    if (e.audio.error === null) {
      console.error('Erreur du lecteur audio', error);
      send(audioErrored());
    }
  }
}

export function pause(): void {
  engine?.audio.pause();
}

/**
 * Empties the element while the next source is being resolved. Unlike a pause, emptying fires no
 * 'pause' event, so the visitor's wish to hear the next source stands.
 */
export function release(): void {
  const e = engine;
  if (e === null || e.sourceKey === null) return;
  e.generation += 1;
  e.failed = false;
  stopTick();
  dropHls(e);
  e.sourceKey = null;
  e.audio.removeAttribute('src');
  e.audio.load();
}

/** Drops the source and its connection (the live stream is never resumed from an old buffer). */
export function unload(): void {
  const e = engine;
  if (e === null) return;
  e.generation += 1;
  stopTick();
  dropHls(e);
  e.sourceKey = null;
  e.audio.pause();
  e.audio.removeAttribute('src');
  e.audio.load();
}

export function seekTo(seconds: number): void {
  const e = current();
  if (!Number.isFinite(seconds) || seconds < 0) return;
  try {
    e.audio.currentTime = seconds;
  } catch (error) {
    // Before metadata some browsers refuse; the position is applied again when playback starts.
    console.error('Erreur du lecteur audio : position refusée', error);
  }
  reportProgress();
}

/** The duration the element knows, or NaN. */
export function mediaDuration(): number {
  return engine?.audio.duration ?? Number.NaN;
}

export function mediaTime(): number {
  return engine?.audio.currentTime ?? 0;
}

export function isPaused(): boolean {
  return engine?.audio.paused ?? true;
}

/** Stops and removes the element (the embed's unmount, and tests that need a fresh page). */
export function disposeAudio(): void {
  const e = engine;
  if (e === null) return;
  unload();
  e.detach();
  e.audio.remove();
  e.dispatch = null;
  engine = null;
}
