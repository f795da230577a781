// « Intégrer le lecteur » (/integrer, docs/embed.md): what the page's address and its form say, read
// into the player's options (shared/src/embed.ts), and the links that open it preset.
import {
  DEFAULT_EMBED_OPTIONS,
  embedQuery,
  readColour,
  readEmbedOptions,
  type EmbedOptions,
  type EmbedSource,
  type EmbedTheme,
} from '@collectif/shared/embed';
import type { Residence } from '@collectif/shared';
import { MAX_QUERY_LENGTH } from '../episodes/search';

export type SourceKind = EmbedSource['kind'];

/** The form's own fields, beside the options' names: which source is chosen, and the episode search. */
export const KIND_FIELD = 'joue';
export const SEARCH_FIELD = 'q';
/** The look « Ma couleur » in the form (`theme=couleur`): the theme's default with the partner's colour. */
export const OWN_COLOUR = 'couleur';
/** The colour the picker shows before the partner picks one. */
export const DEFAULT_PICKER_COLOUR = '#7cc4ff';

const KINDS: readonly SourceKind[] = ['direct', 'residence', 'episode'];

export interface Configurator {
  options: EmbedOptions;
  /** The source chosen in the form: « Un épisode » may be chosen before any episode is. */
  kind: SourceKind;
  /** The episode search's text. */
  q: string;
}

/**
 * The configurator's state from its address. An address written by `embedQuery` (a shared choice, an
 * « Intégrer » link) is read as the player reads its own; the form sent without JavaScript adds
 * its fields (`joue`, `theme=couleur`, `q`), and then the colour counts only with « Ma couleur »
 * (the colour picker always sends one).
 */
export function readConfigurator(query: URLSearchParams): Configurator {
  const q = (query.get(SEARCH_FIELD) ?? '').trim().slice(0, MAX_QUERY_LENGTH);
  const read = readEmbedOptions((name) => query.get(name));
  const asked = query.get(KIND_FIELD);
  if (asked === null || !KINDS.includes(asked as SourceKind)) {
    return { options: read, kind: read.source.kind, q };
  }
  const kind = asked as SourceKind;
  const only = (name: 'episode' | 'residence') =>
    readEmbedOptions((field) => (field === name ? query.get(name) : null)).source;
  const source = kind === 'direct' ? DEFAULT_EMBED_OPTIONS.source : only(kind);
  // Only « Un épisode » waits for its choice (the search); a residence is always one of the list's.
  const own = query.get('theme') === OWN_COLOUR;
  return {
    options: {
      ...read,
      source,
      theme: own ? DEFAULT_EMBED_OPTIONS.theme : read.theme,
      colour: own ? (readColour(query.get('couleur')) ?? DEFAULT_PICKER_COLOUR) : null,
    },
    kind: kind === 'episode' ? kind : source.kind,
    q,
  };
}

/**
 * The query of the configurator's address preset on a source (`?residence=…`), for the « Intégrer »
 * links to its page; null when the player could not read it back from an address (ids are
 * lower-case words: `130E0A` is not one).
 */
export function configuratorSearchFor(source: EmbedSource): string | null {
  const query = embedQuery({ ...DEFAULT_EMBED_OPTIONS, source });
  const back = readEmbedOptions((name) => new URLSearchParams(query).get(name)).source;
  return JSON.stringify(back) === JSON.stringify(source) ? query : null;
}

/** The episodes the configurator's search offers to choose from. */
export const SEARCH_RESULTS = 5;

/** The residences a player can play, by artist. */
export const embeddableResidences = (residences: readonly Residence[]): Residence[] =>
  residences
    .filter((residence) => configuratorSearchFor({ kind: 'residence', id: residence.id }) !== null)
    .sort((a, b) => a.artist.localeCompare(b.artist, 'fr'));

/** The themes in the form's order, with their French names. */
export const THEME_LABELS: Readonly<Record<EmbedTheme, string>> = {
  sombre: 'Sombre',
  clair: 'Clair',
  jaune: 'Jaune (couleurs du collectif)',
};

/**
 * The origin the live stream is played from, for the partner's Content-Security-Policy: null when it
 * is the site's own (a path, or the same origin).
 */
export function streamOriginOf(liveStreamUrl: string, origin: string): string | null {
  try {
    const stream = new URL(liveStreamUrl, origin).origin;
    return stream === origin || stream === 'null' ? null : stream;
  } catch {
    return null;
  }
}
