import { useId, useState, useSyncExternalStore } from 'react';
import { useEpisodeQuery, useEpisodesQuery, type Episode } from '@collectif/shared';
import { EpisodeSearchInput } from '../episodes/SearchInput';
import { useDebounced } from '../ui/useDebounced';
import { Choice } from './Choice';
import { SEARCH_FIELD, SEARCH_RESULTS } from './configurator';
import { cardDate } from '@collectif/shared/ui';

/** The episode search follows the typing after this pause, like the archive's. */
export const EMBED_SEARCH_DEBOUNCE_MS = 300;

const subscribeNothing = () => () => undefined;

/**
 * False on the server and while the browser hydrates, true after: an error the server met is not
 * handed over with its data (only answers are), so it is shown only once the browser has its own.
 */
function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}

const episodeLabel = (episode: Pick<Episode, 'artist' | 'show'>) =>
  episode.show.trim() === '' ? episode.artist : `${episode.artist} · ${episode.show}`;

/** The episode search: a field, « Chercher », and the first results to choose from. */
export function EpisodePicker({
  initialQuery,
  chosen,
  onChoose,
}: {
  initialQuery: string;
  chosen: string | null;
  onChoose: (slug: string) => void;
}) {
  const hydrated = useHydrated();
  const [typed, setTyped] = useState(initialQuery);
  const [searched, setSearched] = useState(initialQuery);
  const search = useDebounced(setSearched, EMBED_SEARCH_DEBOUNCE_MS);
  const q = searched.trim();
  // The same arguments as the page's `load` (exposed/EmbedPage.tsx, `page.load`): the server's answers are used.
  const results = useEpisodesQuery({ q }, { skip: q === '' });
  const current = useEpisodeQuery(chosen ?? '', { skip: chosen === null });
  const found = (results.data?.items ?? []).slice(0, SEARCH_RESULTS);
  const listed = chosen === null || found.some((episode) => episode.slug === chosen) ? found : null;
  const searchId = useId();
  const submitNow = () => {
    search.now(typed);
  };
  let status: string | null = null;
  if (q !== '') {
    if (results.data !== undefined) {
      status = found.length === 0 ? 'Aucun épisode ne correspond à cette recherche.' : null;
    } else if (hydrated && results.isError) {
      status = 'La recherche est momentanément indisponible.';
    } else {
      status = 'Recherche…';
    }
  }
  const chosenLabel =
    current.data !== undefined
      ? episodeLabel(current.data)
      : hydrated && current.isError
        ? `Épisode introuvable (${chosen ?? ''})`
        : (chosen ?? '');
  return (
    <div className="integrer__more integrer__episodes">
      <label htmlFor={searchId}>Rechercher un épisode</label>
      <div className="integrer__search">
        {/* Enter searches at once, here only: the rest of the form applies as it changes. */}
        <EpisodeSearchInput
          id={searchId}
          name={SEARCH_FIELD}
          value={typed}
          onType={(value) => {
            setTyped(value);
            search.later(value);
          }}
          onEnter={submitNow}
        />
        <button type="submit" className="button button--ghost" onClick={submitNow}>
          Chercher
        </button>
      </div>
      {chosen === null && found.length === 0 ? null : (
        <fieldset className="integrer__results">
          <legend className="visually-hidden">Épisodes</legend>
          {listed === null && chosen !== null ? (
            <Choice
              name="episode"
              value={chosen}
              checked
              onChoose={() => {
                onChoose(chosen);
              }}
              label={chosenLabel}
              note="choisi"
            />
          ) : null}
          {found.map((episode) => {
            const date = cardDate(episode.pubDate);
            return (
              <Choice
                key={episode.slug}
                name="episode"
                value={episode.slug}
                checked={episode.slug === chosen}
                onChoose={() => {
                  onChoose(episode.slug);
                }}
                label={episodeLabel(episode)}
                {...(date === null ? {} : { note: date })}
              />
            );
          })}
        </fieldset>
      )}
      <p className="integrer__status" role="status">
        {status}
      </p>
    </div>
  );
}
