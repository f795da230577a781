import { useId, useState, useSyncExternalStore, type ReactNode } from 'react';
import { cardDate, useEpisodeQuery, useEpisodesQuery, type Episode } from '@collectif/shared';
import {
  EMBED_FORMATS,
  EMBED_THEMES,
  type EmbedFormat,
  type EmbedOptions,
  type EmbedSource,
} from '@collectif/shared/embed';
import { MAX_QUERY_LENGTH } from '../episodes/search';
import { SEARCH_RESULTS } from './configurator';
import { useDebounced } from '../ui/useDebounced';
import {
  DEFAULT_PICKER_COLOUR,
  KIND_FIELD,
  OWN_COLOUR,
  SEARCH_FIELD,
  THEME_LABELS,
  embeddableResidences,
  type SourceKind,
} from './configurator';
import { PAGES, usePageHref } from '@collectif/shared/addresses';

/** The episode search follows the typing after this pause, like the archive's. */
export const EMBED_SEARCH_DEBOUNCE_MS = 300;
/** A colour dragged in the picker is applied after this pause: the preview reloads once. */
export const COLOUR_DEBOUNCE_MS = 250;

const FORMAT_LABELS: Readonly<Record<EmbedFormat, { label: string; note: string }>> = {
  barre: { label: 'Barre', note: 'une ligne, pour un bandeau ou un pied de page' },
  carte: { label: 'Carte', note: 'avec la pochette, pour une colonne ou un article' },
};

const KIND_LABELS: Readonly<Record<SourceKind, string>> = {
  direct: 'Le direct',
  residence: 'Une résidence',
  episode: 'Un épisode',
};

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

/** A radio button and its label; what it opens follows (shown by CSS while it is checked). */
function Choice({
  name,
  value,
  checked,
  onChoose,
  label,
  note,
  className,
  children,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChoose: () => void;
  label: string;
  note?: string;
  className?: string;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div className={className === undefined ? 'integrer__choice' : `integrer__choice ${className}`}>
      <input id={id} type="radio" name={name} value={value} checked={checked} onChange={onChoose} />
      <label htmlFor={id}>
        {label}
        {note === undefined ? null : <span className="integrer__note"> · {note}</span>}
      </label>
      {children}
    </div>
  );
}

const episodeLabel = (episode: Pick<Episode, 'artist' | 'show'>) =>
  episode.show.trim() === '' ? episode.artist : `${episode.artist} · ${episode.show}`;

/** The episode search: a field, « Chercher », and the first results to choose from. */
function EpisodePicker({
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
  // The same arguments as the page's `load` (pages/integrer.ts): the server's answers are used.
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
        <input
          id={searchId}
          type="search"
          name={SEARCH_FIELD}
          value={typed}
          maxLength={MAX_QUERY_LENGTH}
          placeholder="Artiste, émission, style…"
          autoComplete="off"
          onChange={(event) => {
            const value = event.target.value;
            setTyped(value);
            search.later(value);
          }}
          onKeyDown={(event) => {
            // Enter searches at once, here only: the rest of the form applies as it changes.
            if (event.key === 'Enter') {
              event.preventDefault();
              submitNow();
            }
          }}
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

export interface EmbedFormProps {
  options: EmbedOptions;
  kind: SourceKind;
  initialQuery: string;
  /** The residence and the episode last chosen, kept while another source is. */
  residence: string;
  episode: string | null;
  onKind: (kind: SourceKind) => void;
  onSource: (source: EmbedSource) => void;
  onChange: (next: Partial<EmbedOptions>) => void;
}

/**
 * The partner's choices. Each one applies as it changes (the address, the preview and the code
 * follow); without JavaScript the form is an ordinary GET to /integrer, and the server renders the
 * choice it names (docs/embed.md, « Intégrer le lecteur »).
 */
export function EmbedForm({
  options,
  kind,
  initialQuery,
  residence,
  episode,
  onKind,
  onSource,
  onChange,
}: EmbedFormProps) {
  // The picker shows the colour being dragged at once, the address's once it changes (a shared
  // choice, the back button), and keeps the last one while a theme is chosen.
  const [picker, setPicker] = useState({ from: options.colour, value: options.colour ?? DEFAULT_PICKER_COLOUR });
  if (picker.from !== options.colour) {
    setPicker({ from: options.colour, value: options.colour ?? picker.value });
  }
  const colour = useDebounced((value: string) => {
    onChange({ colour: value });
  }, COLOUR_DEBOUNCE_MS);
  const residenceId = useId();
  const colourId = useId();
  // Without JavaScript the choices are sent to this page's own address, which renders them.
  const action = usePageHref()(PAGES.embed) ?? undefined;
  return (
    <form
      className="integrer__form"
      method="get"
      action={action}
      aria-label="Options du lecteur"
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      <fieldset className="integrer__group">
        <legend>Ce que joue le lecteur</legend>
        <Choice
          name={KIND_FIELD}
          value="direct"
          checked={kind === 'direct'}
          onChoose={() => {
            onKind('direct');
          }}
          label={KIND_LABELS.direct}
          note="la radio en continu"
        />
        <Choice
          name={KIND_FIELD}
          value="residence"
          checked={kind === 'residence'}
          onChoose={() => {
            onKind('residence');
          }}
          label={KIND_LABELS.residence}
          note="ses dernières émissions"
        >
          <div className="integrer__more">
            <label htmlFor={residenceId}>Résidence</label>
            <select
              id={residenceId}
              name="residence"
              value={residence}
              onChange={(event) => {
                onSource({ kind: 'residence', id: event.target.value });
              }}
            >
              {embeddableResidences.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.artist} · {entry.show}
                </option>
              ))}
              {/* A residence from a shared address that is not (or no longer) in the list still shows. */}
              {embeddableResidences.some((entry) => entry.id === residence) ? null : (
                <option value={residence}>{residence}</option>
              )}
            </select>
          </div>
        </Choice>
        <Choice
          name={KIND_FIELD}
          value="episode"
          checked={kind === 'episode'}
          onChoose={() => {
            onKind('episode');
          }}
          label={KIND_LABELS.episode}
          note="une émission de l’archive"
        >
          <EpisodePicker
            initialQuery={initialQuery}
            chosen={episode}
            onChoose={(slug) => {
              onSource({ kind: 'episode', slug });
            }}
          />
        </Choice>
      </fieldset>

      <fieldset className="integrer__group">
        <legend>L’allure</legend>
        {EMBED_THEMES.map((theme) => (
          <Choice
            key={theme}
            name="theme"
            value={theme}
            checked={options.colour === null && options.theme === theme}
            onChoose={() => {
              onChange({ theme, colour: null });
            }}
            label={THEME_LABELS[theme]}
          />
        ))}
        <Choice
          className="integrer__choice--colour"
          name="theme"
          value={OWN_COLOUR}
          checked={options.colour !== null}
          onChoose={() => {
            onChange({ colour: picker.value });
          }}
          label="Ma couleur"
        >
          <label className="visually-hidden" htmlFor={colourId}>
            Choisir ma couleur
          </label>
          <input
            id={colourId}
            className="integrer__colour"
            type="color"
            name="couleur"
            value={picker.value}
            onChange={(event) => {
              const value = event.target.value.toLowerCase();
              setPicker({ from: picker.from, value });
              colour.later(value);
            }}
          />
        </Choice>
      </fieldset>

      <fieldset className="integrer__group">
        <legend>La taille</legend>
        {EMBED_FORMATS.map((format) => (
          <Choice
            key={format}
            name="format"
            value={format}
            checked={options.format === format}
            onChoose={() => {
              onChange({ format });
            }}
            label={FORMAT_LABELS[format].label}
            note={FORMAT_LABELS[format].note}
          />
        ))}
      </fieldset>

      {/* Without JavaScript the choices are sent with this; with it, they apply as they change. */}
      <button type="submit" className="button integrer__apply">
        Mettre à jour le code
      </button>
    </form>
  );
}
