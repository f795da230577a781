import { api, type TracklistRow } from '@collectif/shared';
import { selectPlayer, type StateWithPlayer } from './playerSlice';

/**
 * The row of a tracklist that plays at `seconds` (docs/player.md, « The current track of a
 * replay »): the last one whose start is at or before it, the rows being in time order; null before
 * the first row, or for no row at all.
 */
export function rowAt<Row extends { start: number }>(rows: readonly Row[], seconds: number): Row | null {
  let found: Row | null = null;
  for (const row of rows) {
    if (row.start > seconds) break;
    found = row;
  }
  return found;
}

/** The slug of the replay that plays, when its page was named (`replay-selected`'s `slug`). */
export function selectReplaySlug(state: StateWithPlayer): string | undefined {
  const player = selectPlayer(state);
  return player.mode === 'REPLAY' ? player.replay?.slug : undefined;
}

/**
 * The `episode` answer's selector of the replay's slug, made once per slug: the player's listener
 * reads the current track at every action of the store, and RTK Query's `select(arg)` makes a new
 * selector at each call.
 */
let episodeSelector: { slug: string; select: ReturnType<typeof api.endpoints.episode.select> } | null = null;
function episodeOf(slug: string) {
  if (episodeSelector?.slug !== slug) episodeSelector = { slug, select: api.endpoints.episode.select(slug) };
  return episodeSelector.select;
}

/**
 * The track that plays now in a replay whose episode has a tracklist: read from the API slice's
 * `episode` answer (the episode page's own, or the player's), the same row object for as long as it
 * plays; null in live mode, without a slug, before the answer or before the first row.
 */
export function selectCurrentTrack(state: StateWithPlayer): TracklistRow | null {
  const slug = selectReplaySlug(state);
  if (slug === undefined) return null;
  const rows = episodeOf(slug)(state).data?.tracks;
  return rows === undefined ? null : rowAt(rows, selectPlayer(state).currentTime);
}
