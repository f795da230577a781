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
 * The one audio element of the page. It is kept for the page's lifetime, outside React, so that no
 * route change or re-render can recreate it and cut the sound.
 */
export const AUDIO_ELEMENT_ID = 'lecteur-audio';

/** The key of the timeline's stream, behind the live edge (timeline/shift.ts). */
export const TIMELINE_SOURCE = 'direct:differe';

/** The progress tick while playing (docs/player.md, « Progress »). */
export const PROGRESS_TICK_MS = 100;

const HLS_TYPE = 'application/vnd.apple.mpegurl';

/** Set on the element by the engine that drives it, so that a newer engine can take it over cleanly. */
const RELEASE = Symbol.for('collectif.player.audioRelease');

type OwnedAudio = HTMLAudioElement & { [RELEASE]?: () => void };

interface HlsLike {
  destroy(): void;
}

/**
 * A source that loads the element itself (the timeline's HLS, timeline/shift.ts), and says which
 * instant the element's position is, where it knows one.
 */
export interface AttachedSource extends HlsLike {
  moment?(): number | null;
}

/** What drives the page's audio element: one per player store (see runtime.ts). */
export interface AudioEngine {
  /** The page's audio element (found or created on first use). */
  element(): HTMLAudioElement;
  /** Sends the element's events to `dispatch` (the store of the mounted player); returns the undo. */
  attach(dispatch: AppDispatch): () => void;
  /**
   * Loads `url` as the element's source, remembered under `key`. HLS goes through the browser where
   * it plays it natively, else through hls.js, fetched only now.
   */
  loadSource(url: string, key: string): Promise<void>;
  /** The live stream from its current edge: a fresh URL, so that no stale buffer is ever played. */
  loadLive(url: string): Promise<void>;
  /**
   * Hands the element to `attach` under `key` (the old source dropped first); what it returns is
   * kept until the next load, and dropped with it. Null: nothing could be attached.
   */
  loadWith(
    key: string,
    attach: (media: HTMLAudioElement, current: () => boolean) => Promise<AttachedSource | null>,
  ): Promise<void>;
  /** What `loadWith` attached, while it holds the element. */
  attached(): AttachedSource | null;
  /** What the element holds: the replay's key, the live URL, or null once emptied. */
  sourceKey(): string | null;
  /** How many loads happened; a delayed reconnection checks that nobody loaded in between. */
  loadGeneration(): number;
  /** Starts playback; a refusal of the browser (autoplay rules) is reported, a superseded play is not. */
  play(): Promise<void>;
  pause(): void;
  /**
   * Empties the element while the next source is being resolved. Unlike a pause, emptying fires no
   * 'pause' event, so the visitor's wish to hear the next source stands.
   */
  release(): void;
  /** Drops the source and its connection (the live stream is never resumed from an old buffer). */
  unload(): void;
  seekTo(seconds: number): void;
  /** The duration the element knows, or NaN. */
  mediaDuration(): number;
  mediaTime(): number;
  isPaused(): boolean;
  /** Stops and removes the element (the embed's unmount). */
  dispose(): void;
}

function isHls(url: string): boolean {
  try {
    return new URL(url).pathname.toLowerCase().endsWith('.m3u8');
  } catch {
    return false;
  }
}

/**
 * A fresh engine. Its element is created when first needed and kept until `dispose`, whatever
 * happens to the components that show the player.
 */
export function createAudioEngine(): AudioEngine {
  let audio: OwnedAudio | null = null;
  let dispatch: AppDispatch | null = null;
  let tick: ReturnType<typeof setInterval> | null = null;
  let hls: AttachedSource | null = null;
  let key: string | null = null;
  /** Incremented by every load, so that a slow HLS import for an older source gives up. */
  let generation = 0;
  /** The current source failed ('error'); cleared by the next load or by sound. */
  let failed = false;
  let lastProgress = { currentTime: 0, duration: Number.NaN };

  function send(action: Parameters<AppDispatch>[0]): void {
    dispatch?.(action);
  }

  function reportProgress(): void {
    if (audio === null || key === null) return;
    const { currentTime, duration } = audio;
    if (currentTime === lastProgress.currentTime && (duration === lastProgress.duration || Number.isNaN(duration))) {
      return;
    }
    lastProgress = { currentTime, duration };
    const moment = hls?.moment?.();
    send(
      progressed(
        moment === undefined ? { currentTime, duration } : { currentTime, duration, moment, seen: performance.now() },
      ),
    );
  }

  function stopTick(): void {
    if (tick !== null) {
      clearInterval(tick);
      tick = null;
    }
  }

  function dropHls(): void {
    if (hls !== null) {
      hls.destroy();
      hls = null;
    }
  }

  function take(): OwnedAudio {
    // One element per page: one left by another engine (another store's player) is stopped and
    // replaced, since this engine's store knows nothing of what it played.
    const previous = document.getElementById(AUDIO_ELEMENT_ID);
    if (previous instanceof HTMLAudioElement) {
      (previous as OwnedAudio)[RELEASE]?.();
      previous.removeAttribute('src');
      previous.load();
      previous.remove();
    }
    const element: OwnedAudio = document.createElement('audio');
    element.id = AUDIO_ELEMENT_ID;
    element.preload = 'none';
    element.setAttribute('data-testid', AUDIO_ELEMENT_ID);
    document.body.appendChild(element);

    const loaded = () => key !== null;
    const handlers: Record<string, () => void> = {
      playing: () => {
        failed = false;
        send(audioPlaying());
        stopTick();
        tick = setInterval(reportProgress, PROGRESS_TICK_MS);
      },
      canplay: () => {
        send(audioCanPlay());
      },
      pause: () => {
        stopTick();
        // The end of the media also pauses it, and so does a failed load (Chromium fires 'pause' after
        // 'error'): 'ended' and 'error' report those, and a live stream is then rejoined. Reported as a
        // pause, they would read as the visitor's wish to stop and cancel the reconnection.
        if (!element.ended && !failed) send(audioPaused());
      },
      ended: () => {
        stopTick();
        reportProgress();
        send(audioEnded());
      },
      error: () => {
        stopTick();
        failed = true;
        // An element emptied on purpose (unload) has no source; its errors are not the visitor's problem.
        if (!loaded()) return;
        const error = element.error;
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
    for (const [name, handler] of Object.entries(handlers)) element.addEventListener(name, handler);
    element[RELEASE] = () => {
      stopTick();
      dropHls();
      key = null;
      dispatch = null;
      for (const [name, handler] of Object.entries(handlers)) element.removeEventListener(name, handler);
      Reflect.deleteProperty(element, RELEASE);
      audio = null;
    };
    return element;
  }

  function element(): OwnedAudio {
    audio ??= take();
    return audio;
  }

  async function loadSource(url: string, sourceKey: string): Promise<void> {
    const media = element();
    generation += 1;
    failed = false;
    const loading = generation;
    stopTick();
    dropHls();
    key = sourceKey;
    lastProgress = { currentTime: 0, duration: Number.NaN };
    if (!isHls(url) || media.canPlayType(HLS_TYPE) !== '') {
      // Setting src runs the element's load algorithm: the old source and its buffer are dropped.
      media.src = url;
      return;
    }
    const { default: Hls } = await import(/* webpackChunkName: "hls" */ 'hls.js/light');
    if (loading !== generation) return;
    if (!Hls.isSupported()) {
      console.error('Erreur du lecteur audio : ce navigateur ne lit pas les flux HLS');
      send(audioErrored());
      return;
    }
    const instance = new Hls({ enableWorker: true });
    instance.on(Hls.Events.ERROR, (_event, data) => {
      if (data.fatal && hls === instance) {
        console.error('Erreur du lecteur audio (HLS)', data.type, data.details);
        send(audioErrored());
      }
    });
    instance.loadSource(url);
    instance.attachMedia(media);
    hls = instance;
  }

  async function loadWith(
    sourceKey: string,
    attach: (media: HTMLAudioElement, current: () => boolean) => Promise<AttachedSource | null>,
  ): Promise<void> {
    const media = element();
    // What played before stops now; `current` tells the source whether a newer load replaced it.
    empty(media);
    failed = false;
    key = sourceKey;
    lastProgress = { currentTime: 0, duration: Number.NaN };
    const loading = generation;
    const current = () => loading === generation;
    const source = await attach(media, current);
    if (current()) hls = source;
    else source?.destroy();
  }

  function empty(media: HTMLAudioElement): void {
    generation += 1;
    stopTick();
    dropHls();
    key = null;
    media.removeAttribute('src');
    media.load();
  }

  return {
    element,
    attach(target) {
      element();
      dispatch = target;
      return () => {
        if (dispatch === target) dispatch = null;
      };
    },
    loadSource,
    loadWith,
    attached: () => hls,
    async loadLive(url) {
      const fresh = new URL(url);
      fresh.searchParams.set('direct', Date.now().toString(36));
      await loadSource(fresh.href, url);
    },
    sourceKey: () => key,
    loadGeneration: () => generation,
    async play() {
      const media = element();
      const playing = generation;
      try {
        await media.play();
      } catch (error) {
        // Refused for a source replaced since (the timeline's failed, the edge loads): not this one's failure.
        if (playing !== generation) return;
        const name = error instanceof DOMException ? error.name : '';
        if (name === 'AbortError') return;
        if (name === 'NotAllowedError') {
          send(playRefused());
          return;
        }
        // Unplayable sources also raise the element's error event, which does the reporting.
        if (media.error === null) {
          console.error('Erreur du lecteur audio', error);
          send(audioErrored());
        }
      }
    },
    pause() {
      audio?.pause();
    },
    release() {
      if (audio === null || key === null) return;
      failed = false;
      empty(audio);
    },
    unload() {
      if (audio === null) return;
      audio.pause();
      empty(audio);
    },
    seekTo(seconds) {
      const media = element();
      if (!Number.isFinite(seconds) || seconds < 0) return;
      try {
        media.currentTime = seconds;
      } catch (error) {
        // Before metadata some browsers refuse; the position is applied again when playback starts.
        console.error('Erreur du lecteur audio : position refusée', error);
      }
      reportProgress();
    },
    mediaDuration: () => audio?.duration ?? Number.NaN,
    mediaTime: () => audio?.currentTime ?? 0,
    isPaused: () => audio?.paused ?? true,
    dispose() {
      const media = audio;
      if (media === null) return;
      media.pause();
      empty(media);
      media[RELEASE]?.();
      media.remove();
    },
  };
}
