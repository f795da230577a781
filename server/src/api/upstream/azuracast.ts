import type { NowPlaying } from '@collectif/shared';
import { UpstreamError } from '../errors';
import { ensureOk, fetchUpstream, jsonBody, type UpstreamLimits } from './fetch';

/** A missing artist or title shows as 'Inconnu' (docs/player.md). */
export const UNKNOWN = 'Inconnu';

function text(value: unknown): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : UNKNOWN;
}

/**
 * An AzuraCast now-playing answer (`/api/nowplaying`: one entry per station, or one station's
 * entry): the first entry's `now_playing.song`.
 */
export function mapNowPlaying(body: unknown): NowPlaying {
  const entry: unknown = Array.isArray(body) ? body[0] : body;
  if (typeof entry !== 'object' || entry === null) throw new UpstreamError('azuracast', 'invalid', 'aucune station');
  const nowPlaying = (entry as { now_playing?: unknown }).now_playing;
  const song =
    typeof nowPlaying === 'object' && nowPlaying !== null ? (nowPlaying as { song?: unknown }).song : undefined;
  const fields = typeof song === 'object' && song !== null ? (song as Record<string, unknown>) : {};
  const art = fields.art;
  return {
    artist: text(fields.artist),
    title: text(fields.title),
    ...(typeof art === 'string' && /^https?:\/\//.test(art) ? { cover: art } : {}),
  };
}

export function azuracastNowPlaying(config: { url: string }, limits: UpstreamLimits): () => Promise<NowPlaying> {
  return async () =>
    mapNowPlaying(
      jsonBody(
        'azuracast',
        ensureOk(
          'azuracast',
          await fetchUpstream('azuracast', { url: config.url, headers: { Accept: 'application/json' } }, limits),
        ),
      ),
    );
}
