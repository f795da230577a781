import { useAppSelector, useEpisodeQuery } from '@collectif/shared';
import { selectCurrentTrack, selectReplaySlug } from '../player/tracklist';

/**
 * In a replay whose episode has a tracklist, the track that plays now: « Artiste — Titre », under
 * the names (docs/player.md, « The current track of a replay »). It holds the episode's answer for
 * as long as the replay is open: on the episode's page the page's own, so nothing is asked again.
 * Not a live region: a sentence at every change of track would talk over the music's own pace.
 */
export function CurrentTrack() {
  const slug = useAppSelector(selectReplaySlug);
  useEpisodeQuery(slug ?? '', { skip: slug === undefined });
  const track = useAppSelector(selectCurrentTrack);
  if (track === null) return null;
  return (
    <p className="player__track">
      <span className="visually-hidden">Titre en cours : </span>
      {track.artist} — {track.title}
    </p>
  );
}
