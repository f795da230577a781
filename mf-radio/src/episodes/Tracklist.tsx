import type { MouseEvent } from 'react';
import { emit, releaseUrl, useSearchParams, type EpisodeDetail, type TracklistRow } from '@collectif/shared';
import { PageLink, PAGES, usePageHref } from '@collectif/shared/addresses';
import { formatTime } from '@collectif/shared/time';
import { ExternalLink } from '@collectif/shared/ui';
import { QueueButton } from '../queue/QueueButton';
import '../styles/tracklist.css';

/** Other episodes named under a row, at most (« Aussi dans : »). */
export const ALSO_SHOWN = 3;

const HEADING_ID = 'titres-joues';

/** The row that plays at `seconds`: the last one started, the rows being in time order. */
export function rowPlayingAt(rows: readonly TracklistRow[], seconds: number): TracklistRow | undefined {
  return rows.findLast((row) => row.start <= seconds);
}

/** A click the browser would open elsewhere (a new tab, a window, a download) keeps its own way. */
function openedElsewhere(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

interface TracklistProps {
  episode: EpisodeDetail;
  /** Where the player stands in this episode, while it holds it; null otherwise. */
  playingAt: number | null;
}

/**
 * « Titres joués » of an episode's page (docs/episodes.md, « Tracklist »): each row's time is a link
 * to this page at that moment (`?t=`), which the server renders without JavaScript; with it, the
 * persistent player plays the episode from there and the address takes the `?t=`, the page staying
 * where it is. The row that plays is marked while the player holds this episode. A row's artist
 * leads to their page when the played artists' index has one, and its « + » puts the episode in the
 * player's queue from the row's moment (docs/player.md, « The queue »).
 */
export function Tracklist({ episode, playingAt }: TracklistProps) {
  const [, setSearchParams] = useSearchParams();
  const href = usePageHref();
  const rows = episode.tracks ?? [];
  if (rows.length === 0) return null;
  const current = playingAt === null ? undefined : rowPlayingAt(rows, playingAt);

  const playFrom = (event: MouseEvent<HTMLAnchorElement>, start: number) => {
    if (openedElsewhere(event)) return;
    event.preventDefault();
    emit('replay-selected', { ...episode, start });
    // The address says the moment, to share it; replaced, not one more step back.
    setSearchParams(
      (params) => {
        params.set('t', String(start));
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  return (
    <section className="tracklist" aria-labelledby={HEADING_ID}>
      <h2 id={HEADING_ID}>Titres joués</h2>
      <ol className="tracklist__rows">
        {rows.map((row) => {
          const time = formatTime(row.start);
          const to = href(PAGES.episode, { slug: episode.slug }, { t: String(row.start) });
          const also = row.also.slice(0, ALSO_SHOWN);
          return (
            <li
              key={`${String(row.start)} ${row.artist} ${row.title}`}
              className="tracklist__row"
              aria-current={row === current ? 'true' : undefined}
            >
              {to === null ? (
                <span className="tracklist__time">{time}</span>
              ) : (
                <a
                  className="tracklist__time"
                  href={to}
                  aria-label={`Écouter à partir de ${time}`}
                  onClick={(event) => {
                    playFrom(event, row.start);
                  }}
                >
                  {time}
                </a>
              )}
              <div>
                <p>
                  <b>
                    {/* The played artist's page, when the index has one (docs/artists.md). */}
                    {row.artistSlug === undefined ? (
                      row.artist
                    ) : (
                      <PageLink page={PAGES.playedArtist} params={{ slug: row.artistSlug }}>
                        {row.artist}
                      </PageLink>
                    )}
                  </b>
                  {' — '}
                  {row.release === undefined ? (
                    row.title
                  ) : (
                    <ExternalLink href={releaseUrl(row.release)}>{row.title}</ExternalLink>
                  )}
                </p>
                {also.length === 0 ? null : (
                  <p className="tracklist__also">
                    {'Aussi dans : '}
                    {also.map((other, index) => (
                      <span key={other.slug}>
                        {index === 0 ? null : ', '}
                        <PageLink page={PAGES.episode} params={{ slug: other.slug }}>
                          {`${other.artist} · ${other.show}`}
                        </PageLink>
                      </span>
                    ))}
                  </p>
                )}
              </div>
              {/* This episode at this row's moment, at the end of the player's queue. */}
              <QueueButton
                className="queue-row"
                items={[{ slug: episode.slug, start: row.start }]}
                name={`Ajouter à la file à partir de ${time} : ${row.artist} — ${row.title}`}
              >
                <span className="visually-hidden">Ajouter à la file</span>
              </QueueButton>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
