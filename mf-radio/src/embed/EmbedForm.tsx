import { useId } from 'react';
import { useRadioSettings } from '@collectif/shared';
import {
  EMBED_FORMATS,
  EMBED_TIMELINE,
  type EmbedFormat,
  type EmbedOptions,
  type EmbedSource,
} from '@collectif/shared/embed';
import { PAGES, usePageHref } from '@collectif/shared/addresses';
import { Choice } from './Choice';
import { KIND_FIELD, embeddableResidences, type SourceKind } from './configurator';
import { useResidences } from '../residences/residences';
import { EpisodePicker } from './EpisodePicker';
import { ThemeChoice } from './ThemeChoice';

export { EMBED_SEARCH_DEBOUNCE_MS } from './EpisodePicker';
export { COLOUR_DEBOUNCE_MS } from './ThemeChoice';

const FORMAT_LABELS: Readonly<Record<EmbedFormat, { label: string; note: string }>> = {
  barre: { label: 'Barre', note: 'une ligne, pour un bandeau ou un pied de page' },
  carte: { label: 'Carte', note: 'avec la pochette, pour une colonne ou un article' },
};

const KIND_LABELS: Readonly<Record<SourceKind, string>> = {
  direct: 'Le direct',
  residence: 'Une résidence',
  episode: 'Un épisode',
};

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
  const residenceId = useId();
  const embeddable = embeddableResidences(useResidences().residences);
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
              {embeddable.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.artist} · {entry.show}
                </option>
              ))}
              {/* A residence from a shared address that is not (or no longer) in the list still shows. */}
              {embeddable.some((entry) => entry.id === residence) ? null : (
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

      <ThemeChoice theme={options.theme} colour={options.colour} onChange={onChange} />

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

      <TimelineChoice
        checked={options.timeline}
        onChange={(timeline) => {
          onChange({ timeline });
        }}
      />

      {/* Without JavaScript the choices are sent with this; with it, they apply as they change. */}
      <button type="submit" className="button integrer__apply">
        Mettre à jour le code
      </button>
    </form>
  );
}

/** What the timeline's choice says under it: what it offers, or that the radio keeps no hours yet. */
export const TIMELINE_NOTE = '« Reprendre au début » et les dernières heures du direct, une fois le lecteur ouvert.';
export const NO_TIMELINE_NOTE =
  'La radio ne garde pas encore les dernières heures du direct : le lecteur jouera le direct seul.';

/**
 * « Écoute en différé »: the live's timeline in the partner's player, off unless checked
 * (docs/embed.md, « The timeline »). Sent as `differe=1` without JavaScript. The radio's settings
 * decide whether there are hours to offer: when it keeps none, the choice stays and says so.
 */
function TimelineChoice({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  const kept = useRadioSettings().timeshift.playlist !== '';
  return (
    <fieldset className="integrer__group">
      <legend>Le direct</legend>
      <div className="integrer__choice">
        <input
          id={id}
          type="checkbox"
          name={EMBED_TIMELINE}
          value="1"
          checked={checked}
          aria-describedby={`${id}-note`}
          onChange={(event) => {
            onChange(event.target.checked);
          }}
        />
        <label htmlFor={id}>Écoute en différé (revenir en arrière dans le direct)</label>
        <p id={`${id}-note`} className="integrer__hint">
          {kept ? TIMELINE_NOTE : NO_TIMELINE_NOTE}
        </p>
      </div>
    </fieldset>
  );
}
