import type { NowPlaying, PlayedTrack } from '@collectif/shared';
import { RECENT_TRACKS_MAX } from '@collectif/shared/schemas';
import { UpstreamError } from '../http/errors';
import { ensureOk, fetchUpstream, jsonBody, type UpstreamLimits } from './fetch';

/** A missing artist or title shows as 'Inconnu' (docs/player.md). */
export const UNKNOWN = 'Inconnu';

function text(value: unknown): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : UNKNOWN;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The first instant a track of the history may have started at (an earlier one is a broken clock). */
const EARLIEST_PLAY_MS = Date.UTC(2000, 0, 1);
const DAY_MS = 24 * 3600 * 1000;

/**
 * « Titres précédents » (docs/api.md, « Now playing »): the entries of `song_history` (newest
 * first; AzuraCast leaves the current song out of it) that have a start time in seconds within
 * reason (from 2000 to a day after `now`) and an artist or a title, at most RECENT_TRACKS_MAX. An
 * entry that started with the current song (same `played_at` or `sh_id`) is the current song: left
 * out. Undefined when the upstream gives none.
 */
function mapHistory(history: unknown, current: Record<string, unknown>, now: number): PlayedTrack[] | undefined {
  if (!Array.isArray(history)) return undefined;
  const tracks: { at: number; track: PlayedTrack }[] = [];
  for (const item of history as unknown[]) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const entry = item as Record<string, unknown>;
    const playedAt = entry.played_at;
    if (typeof playedAt !== 'number' || !Number.isFinite(playedAt)) continue;
    const at = playedAt * 1000;
    if (at < EARLIEST_PLAY_MS || at > now + DAY_MS) continue;
    if (playedAt === current.played_at || (typeof entry.sh_id === 'number' && entry.sh_id === current.sh_id)) continue;
    const song = record(entry.song);
    const [artist, title] = [song.artist, song.title].map((value) =>
      typeof value === 'string' ? value.trim() : '',
    ) as [string, string];
    if (artist === '' && title === '') continue;
    tracks.push({
      at,
      track: { artist: artist || UNKNOWN, title: title || UNKNOWN, playedAt: new Date(at).toISOString() },
    });
  }
  if (tracks.length === 0) return undefined;
  return tracks
    .sort((a, b) => b.at - a.at)
    .slice(0, RECENT_TRACKS_MAX)
    .map(({ track }) => track);
}

/**
 * An AzuraCast now-playing answer (`/api/nowplaying`: one entry per station, or one station's
 * entry): the first entry's `now_playing.song`, and the songs before it (`song_history`), read at `now`.
 */
export function mapNowPlaying(body: unknown, now: number = Date.now()): NowPlaying {
  const entry: unknown = Array.isArray(body) ? body[0] : body;
  if (typeof entry !== 'object' || entry === null) throw new UpstreamError('azuracast', 'invalid', 'aucune station');
  const nowPlaying = record((entry as { now_playing?: unknown }).now_playing);
  const fields = record(nowPlaying.song);
  const art = fields.art;
  const history = mapHistory((entry as { song_history?: unknown }).song_history, nowPlaying, now);
  return {
    artist: text(fields.artist),
    title: text(fields.title),
    ...(typeof art === 'string' && /^https?:\/\//.test(art) ? { cover: art } : {}),
    ...(history === undefined ? {} : { history }),
  };
}

export function azuracastNowPlaying(
  config: { url: string },
  limits: UpstreamLimits,
  now: () => number = Date.now,
): () => Promise<NowPlaying> {
  return async () =>
    mapNowPlaying(
      jsonBody(
        'azuracast',
        ensureOk(
          'azuracast',
          await fetchUpstream('azuracast', { url: config.url, headers: { Accept: 'application/json' } }, limits),
        ),
      ),
      now(),
    );
}

/**
 * The live's listeners as AzuraCast counts them (docs/figures.md, « What is counted »): the first
 * station's `listeners.current` (else `listeners.total`), a whole number within reason; undefined
 * when the answer gives none.
 */
export function mapListeners(body: unknown): number | undefined {
  const entry: unknown = Array.isArray(body) ? body[0] : body;
  const listeners = record(record(entry).listeners);
  for (const value of [listeners.current, listeners.total]) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 10_000_000) return value;
  }
  return undefined;
}

/** Reads AzuraCast's now-playing answer for its listeners (the figures' sampler, once a minute). */
export function azuracastListeners(config: { url: string }, limits: UpstreamLimits): () => Promise<number | undefined> {
  return async () =>
    mapListeners(
      jsonBody(
        'azuracast',
        ensureOk(
          'azuracast',
          await fetchUpstream('azuracast', { url: config.url, headers: { Accept: 'application/json' } }, limits),
        ),
      ),
    );
}
