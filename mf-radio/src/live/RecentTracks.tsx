import { useId } from 'react';
import { type PlayedTrack } from '@collectif/shared';
import { hourOf } from '@collectif/shared/schedule';

/** « Artiste — Titre », or the one the radio gave. */
function trackLine({ artist, title }: PlayedTrack): string {
  return [artist, title].filter((text) => text.trim() !== '').join(' — ');
}

/**
 * « Titres précédents » (docs/api.md, « Now playing »): what the radio played before the current
 * song, newest first, each line « 21:42 · Artiste — Titre ». The time is Paris time whatever the
 * visitor's zone (`hourOf`), so the server's HTML and the browser's first render are the same.
 * Nothing at all without a history.
 */
export function RecentTracks({ history }: { history: readonly PlayedTrack[] | undefined }) {
  const headingId = useId();
  if (history === undefined || history.length === 0) return null;
  return (
    <section className="recent-tracks" aria-labelledby={headingId}>
      <h3 id={headingId} className="recent-tracks__heading">
        Titres précédents
      </h3>
      <ol className="recent-tracks__list">
        {history.map((track, index) => (
          <li key={`${track.playedAt}|${String(index)}`}>
            <time dateTime={track.playedAt}>{hourOf(track.playedAt)}</time>
            {` · ${trackLine(track)}`}
          </li>
        ))}
      </ol>
    </section>
  );
}
