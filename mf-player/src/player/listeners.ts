import {
  isAnyOf,
  type UnknownAction,
  api,
  apiUrl,
  nowPlayingAnswer,
  radioSettingsReady,
  readWith,
  type startAppListening,
  type AppDispatch,
  type NowPlaying,
  type ReplaySource,
  type RootState,
} from '@collectif/shared';
import { TIMELINE_SOURCE, type AudioEngine } from './audioEngine';
import { chatUrl, liveStreamUrl, resolveMediaUrl, resolveStreamAnswer } from './config';
import {
  audioEnded,
  audioErrored,
  audioPaused,
  audioStalled,
  chatReached,
  chatToggled,
  chatUnreachable,
  liveDropped,
  liveRequested,
  momentRequested,
  nowPlayingReceived,
  pauseRequested,
  playRequested,
  progressed,
  replaySelected,
  selectPlayer,
  selectSnapshot,
  sliderMoved,
  sliderReleased,
  streamUnavailable,
  sliderOf,
  timelineFailed,
  toggled,
  wantsSound,
  type PlayerState,
} from './playerSlice';
import type { PlayerRuntime } from './runtime';
import { sameSnapshot } from './snapshots';
import { selectCurrentTrack } from './tracklist';
import { rememberPosition, resumeKey } from '@collectif/shared/resume';

/** How long the live stream may wait for data before it is reconnected (docs/player.md, « Live stream »). */
export const LIVE_STALL_GRACE_MS = 8_000;
/** First delay before rejoining a dropped live stream; it doubles up to the maximum. */
export const LIVE_RETRY_BASE_MS = 1_000;
export const LIVE_RETRY_MAX_MS = 30_000;
/** How long the chat widget's host has to answer before the panel says it cannot load (docs/player.md, « Chat »). */
export const CHAT_TIMEOUT_MS = 6_000;

/** How often a playing replay's position is written down (docs/episodes.md, « Resume »). */
export const RESUME_SAVE_INTERVAL_MS = 5_000;

export const TRACK_ERROR_LOG = 'Erreur récupération flux audio depuis backend';

export function liveRetryDelay(attempt: number): number {
  return Math.min(LIVE_RETRY_MAX_MS, LIVE_RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1));
}

function replayKey(source: ReplaySource): string {
  return `replay:${source.trackUrn ?? source.url}`;
}

/** Reads a now-playing answer (HTTP or live channel); anything malformed is ignored. */
export function parseNowPlaying(data: unknown): NowPlaying | null {
  const read = readWith(nowPlayingAnswer, data);
  return 'value' in read ? read.value : null;
}

/** A message of the now-playing channel (`/api/nowplaying/events`), read; null when malformed. */
export function nowPlayingOf(event: Event): NowPlaying | null {
  try {
    return parseNowPlaying(JSON.parse((event as MessageEvent<string>).data));
  } catch {
    return null;
  }
}

async function refreshNowPlaying(dispatch: AppDispatch): Promise<void> {
  const result = await dispatch(api.endpoints.nowPlaying.initiate(undefined, { subscribe: false, forceRefetch: true }));
  // A now-playing failure is not shown: the lines keep their last value (docs/player.md, « Now playing »).
  const nowPlaying = parseNowPlaying(result.data);
  if (nowPlaying !== null) dispatch(nowPlayingReceived(nowPlaying));
}

/** The URL to play for a replay: the backend's stream for a SoundCloud track, else the enclosure. */
async function replayUrl(source: ReplaySource, dispatch: AppDispatch): Promise<string | null> {
  if (source.trackUrn === undefined || source.trackUrn === '') {
    const url = resolveMediaUrl(source.url);
    if (url === null) console.error(`${TRACK_ERROR_LOG} : adresse d'épisode invalide`, source.url);
    return url;
  }
  const result = await dispatch(
    api.endpoints.trackStream.initiate(source.trackUrn, { subscribe: false, forceRefetch: true }),
  );
  if (result.error !== undefined) {
    console.error(TRACK_ERROR_LOG, result.error);
    return null;
  }
  const url = resolveStreamAnswer(result.data);
  if (url === null) console.error(TRACK_ERROR_LOG, 'réponse inutilisable', result.data);
  return url;
}

function seekToSlider(audio: AudioEngine, state: PlayerState): void {
  const known = audio.mediaDuration();
  const duration = Number.isFinite(known) && known > 0 ? known : state.duration;
  audio.seekTo((sliderOf(state) / 100) * duration);
}

function listeningLive(state: RootState): boolean {
  const p = selectPlayer(state);
  return p.open && p.mode === 'LIVE';
}

const playbackTriggers = isAnyOf(
  replaySelected,
  liveRequested,
  toggled,
  playRequested,
  pauseRequested,
  momentRequested,
  timelineFailed,
);

export type StartListening = typeof startAppListening;

/**
 * Registers the player's side effects with `startListening`, working on `runtime` (its audio
 * engine, media session and snapshot throttle) and on the store that dispatched. Called again for
 * the same runtime while registered, it registers nothing more. Returns the undo, which also
 * cancels the effects under way and a `player-state` event still waiting.
 */
export function registerPlayerListeners(startListening: StartListening, runtime: PlayerRuntime): () => void {
  if (runtime.listening !== null) return runtime.listening;
  const { audio, snapshots } = runtime;
  const undo: (() => void)[] = [];
  const listen: StartListening = ((options: Parameters<StartListening>[0]) => {
    const unsubscribe = startListening(options);
    undo.push(() => {
      unsubscribe({ cancelActive: true });
    });
    return unsubscribe;
  }) as StartListening;

  // Bring the audio in line with what the visitor asked for. A newer request cancels an older one
  // that is still waiting (e.g. for a track's stream URL).
  listen({
    predicate: (action, current, previous) =>
      playbackTriggers(action) &&
      (!toggled.match(action) || selectPlayer(current).open !== selectPlayer(previous).open),
    effect: async (action, listener) => {
      listener.cancelActiveListeners();
      const state = selectPlayer(listener.getState());
      if (!wantsSound(state)) {
        audio.pause();
        // A paused live stream lets go of its connection; playing again rejoins the live edge.
        if (state.mode === 'LIVE') audio.unload();
        return;
      }
      if (state.mode === 'LIVE') {
        if (state.moment === null) void refreshNowPlaying(listener.dispatch);
        // The player on a partner site may still be fetching the radio's settings (the stream's address).
        await listener.pause(radioSettingsReady());
        if (state.moment !== null) {
          // Behind the edge: the timeline's HLS (docs/player.md, « The timeline »), its code and
          // hls.js fetched only now. A chunk that cannot be had sends the listener back to the edge.
          // The edge stops at once, not when they arrive.
          if (audio.sourceKey() !== TIMELINE_SOURCE) audio.release();
          const shift = await listener.pause(
            import(/* webpackChunkName: "differe" */ '../timeline/shift').catch((error: unknown) => {
              console.error('Erreur du lecteur audio : écoute en différé indisponible', error);
              return null;
            }),
          );
          if (shift === null) listener.dispatch(timelineFailed());
          else await shift.playMoment(audio, state.moment, listener.dispatch);
          return;
        }
        const url = liveStreamUrl();
        if (url === null) {
          console.error('Erreur du lecteur audio : adresse du direct invalide');
          listener.dispatch(audioErrored());
          return;
        }
        await audio.loadLive(url);
        await audio.play();
        return;
      }
      const source = state.replay;
      if (source === null) return;
      const key = replayKey(source);
      if (replaySelected.match(action) || audio.sourceKey() !== key) {
        // What played before stops now, not when the stream address arrives (up to the API's
        // timeout): under this replay's title it would pass for the replay, and its events would
        // clear the loading state or the error message of the replay.
        audio.release();
        const url = await listener.pause(replayUrl(source, listener.dispatch));
        if (url === null) {
          listener.dispatch(streamUnavailable());
          return;
        }
        await audio.loadSource(url, key);
      }
      seekToSlider(audio, selectPlayer(listener.getState()));
      await audio.play();
    },
  });

  // Dragging only moves the thumb; clicks, keys and the release seek the audio.
  listen({
    matcher: isAnyOf(sliderMoved, sliderReleased),
    effect: (action, listener) => {
      const state = selectPlayer(listener.getState());
      if (state.mode !== 'REPLAY' || (sliderMoved.match(action) && state.held !== null)) return;
      if (sliderReleased.match(action) && selectPlayer(listener.getOriginalState()).held === null) return;
      seekToSlider(audio, state);
    },
  });

  // A live stream that drops, ends or stalls is rejoined at its live edge, with growing delays.
  listen({
    matcher: isAnyOf(audioErrored, audioEnded, audioStalled),
    effect: async (action, listener) => {
      const state = selectPlayer(listener.getState());
      if (state.mode !== 'LIVE' || !wantsSound(state)) return;
      if (state.moment !== null) {
        // hls.js rides out a stall itself; an error or an end of the timeline's stream goes back to the edge.
        if (!audioStalled.match(action)) listener.dispatch(timelineFailed());
        return;
      }
      listener.cancelActiveListeners();
      const generation = audio.loadGeneration();
      const stillWanted = () => {
        const now = selectPlayer(listener.getState());
        return now.mode === 'LIVE' && now.moment === null && wantsSound(now) && audio.loadGeneration() === generation;
      };
      if (audioStalled.match(action)) {
        const before = audio.mediaTime();
        await listener.delay(LIVE_STALL_GRACE_MS);
        if (!stillWanted() || (!audio.isPaused() && audio.mediaTime() > before)) return;
      }
      listener.dispatch(liveDropped());
      await listener.delay(liveRetryDelay(selectPlayer(listener.getState()).reconnectAttempt));
      const url = liveStreamUrl();
      if (!stillWanted() || url === null) return;
      await audio.loadLive(url);
      await audio.play();
    },
  });

  // Now playing, kept current from the live channel while the player is open in live mode.
  listen({
    predicate: (_action, current, previous) => listeningLive(current) !== listeningLive(previous),
    effect: async (_action, listener) => {
      if (!listeningLive(listener.getState())) return;
      listener.cancelActiveListeners();
      if (typeof EventSource !== 'function') return;
      const channel = new EventSource(apiUrl('/nowplaying/events'));
      channel.addEventListener('nowplaying', (event) => {
        const nowPlaying = nowPlayingOf(event);
        if (nowPlaying === null) return;
        listener.dispatch(nowPlayingReceived(nowPlaying));
        // The same answer for every part that shows it (the home's « Titres précédents »), pushed.
        void listener.dispatch(api.util.upsertQueryData('nowPlaying', undefined, nowPlaying));
      });
      try {
        await listener.condition((_a, state) => !listeningLive(state));
      } finally {
        channel.close();
      }
    },
  });

  // The chat widget is a third party: its host is probed, and the panel says so when it cannot load.
  listen({
    actionCreator: chatToggled,
    effect: async (_action, listener) => {
      listener.cancelActiveListeners();
      if (!selectPlayer(listener.getState()).chatOpen) return;
      const reachable = await listener.pause(
        fetch(chatUrl(), {
          mode: 'no-cors',
          credentials: 'omit',
          cache: 'no-store',
          signal: AbortSignal.timeout(CHAT_TIMEOUT_MS),
        }).then(
          () => true,
          () => false,
        ),
      );
      listener.dispatch(reachable ? chatReached() : chatUnreachable());
    },
  });

  // Where the listener is in a replay is remembered in this browser (docs/episodes.md, « Resume »):
  // every few seconds while it plays, and when it pauses, ends or seeks.
  let rememberedAt = Number.NEGATIVE_INFINITY;
  listen({
    matcher: isAnyOf(progressed, audioPaused, audioEnded, sliderReleased, sliderMoved),
    effect: (action, listener) => {
      const state = selectPlayer(listener.getState());
      if (state.mode !== 'REPLAY' || state.replay === null || state.held !== null) return;
      const now = Date.now();
      // A tick at the very start (the audio has not reached a requested start yet) forgets nothing.
      if (progressed.match(action) && (now - rememberedAt < RESUME_SAVE_INTERVAL_MS || state.currentTime < 1)) return;
      rememberedAt = now;
      rememberPosition(resumeKey(state.replay), state.currentTime, state.duration);
    },
  });

  // System media controls and the public `player-state` event follow every change of the player,
  // and the controls the track that plays in a replay's tracklist, which the API's answer may bring.
  listen({
    predicate: (action: UnknownAction, current, previous) =>
      (action.type.startsWith('player/') && selectPlayer(current) !== selectPlayer(previous)) ||
      selectCurrentTrack(current) !== selectCurrentTrack(previous),
    effect: (action, listener) => {
      runtime.syncMediaSession(() => selectPlayer(listener.getState()), listener.dispatch, {
        position: !progressed.match(action),
        track: selectCurrentTrack(listener.getState()),
      });
      const previous = selectSnapshot(listener.getOriginalState());
      const next = selectSnapshot(listener.getState());
      if (!sameSnapshot(previous, next)) snapshots.publish(next);
    },
  });

  const stop = () => {
    if (runtime.listening !== stop) return;
    runtime.listening = null;
    for (const step of undo) step();
    snapshots.cancel();
  };
  runtime.listening = stop;
  return stop;
}
