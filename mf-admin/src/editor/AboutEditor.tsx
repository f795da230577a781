import type { ReactNode } from 'react';
import { Field } from './Field';
import { PagePreview } from './PagePreview';
import { VersionEditor, saveKind, useVersionForm } from './publish';

/*
 * The About page's texts (the `about` kind, docs/content.md, « The editor »): one nested text, in the
 * page's order. The form follows the text's own shape: a section is a group named by its title,
 * a text a field, a list (paragraphs, values, credits) has « Ajouter » and « Retirer »; nothing else
 * can be added or taken away, so what the form sends has the schema's shape. The site's refusals are
 * shown beside the field their pointer names (« /values/items/0/title »).
 */

type Text = string | Text[] | { [key: string]: Text };

/** What each key of the text is, in French. */
const NAMES: Record<string, string> = {
  heading: 'Titre',
  intro: 'Introduction',
  statement: 'Phrase d’ouverture',
  image: 'Image',
  src: 'Chemin de l’image',
  alt: 'Ce que montre l’image',
  collective: 'Le collectif',
  paragraphs: 'Paragraphes',
  values: 'Valeurs',
  items: 'Liste',
  'values.items': 'Les valeurs',
  'credits.items': 'Les crédits',
  title: 'Titre',
  text: 'Texte',
  etymology: 'Étymologie',
  indicators: 'Repères',
  createdLabel: 'Avant l’année de création',
  locationLabel: 'Avant la ville',
  webradio: 'Webradio',
  replayLink: 'Lien vers les replays',
  statsLabel: 'Titre des chiffres',
  stats: 'Mots après les chiffres',
  residencies: 'Résidences',
  streams: 'Écoutes',
  liveSessions: 'Directs',
  label: 'Label',
  stylesLabel: 'Titre des styles',
  styles: 'Styles',
  releases: 'Sorties',
  artists: 'Artistes',
  events: 'Évènements',
  productions: 'Productions',
  thisYear: 'Cette année',
  link: 'Lien',
  funding: 'Financement',
  sourcesLabel: 'Titre des ressources',
  sources: 'Ressources',
  studio: 'Le studio',
  mapTitle: 'Nom du plan',
  mapProvider: 'Fournisseur du plan',
  showMap: 'Bouton « afficher le plan »',
  openMap: 'Lien « ouvrir le plan »',
  team: 'L’équipe',
  stripLabel: 'Nom du bandeau pour les lecteurs d’écran',
  previous: 'Bouton « précédents »',
  next: 'Bouton « suivants »',
  contact: 'Contact',
  labels: 'Intitulés des adresses',
  shows: 'Propositions d’émissions',
  labelDemos: 'Démos du label',
  support: 'Nous soutenir',
  button: 'Bouton',
  credits: 'Crédits',
  role: 'Rôle',
  name: 'Nom',
};

/** An element of a list, in French (« Paragraphe 2 »), by the list's key or its section and key. */
const ITEM_NAMES: Record<string, string> = {
  paragraphs: 'Paragraphe',
  'values.items': 'Valeur',
  'credits.items': 'Crédit',
  styles: 'Style',
  sources: 'Ressource',
};

/** Texts written as paragraphs rather than one line. */
const LONG = new Set(['paragraphs', 'statement', 'text', 'intro']);

const nameOf = (key: string) => NAMES[key] ?? key;

/** The same shape with every text empty: what « Ajouter » adds to a list of objects. */
function emptyLike(text: Text): Text {
  if (typeof text === 'string') return '';
  if (Array.isArray(text)) return [];
  return Object.fromEntries(Object.entries(text).map(([key, value]) => [key, emptyLike(value)]));
}

/** `text` with the value at `path` replaced. */
function replaced(text: Text, path: readonly (string | number)[], value: Text): Text {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(text)) {
    return text.map((item, index) => (index === head ? replaced(item, rest, value) : item));
  }
  if (typeof text === 'string') return text;
  return { ...text, [String(head)]: replaced(text[String(head)] ?? '', rest, value) };
}

/** What an object of a list is called in its legend: its first non-empty text (« L’ouverture »). */
function titleOf(text: Text): string {
  if (typeof text === 'string') return text;
  if (Array.isArray(text)) return '';
  return Object.values(text).find((value): value is string => typeof value === 'string' && value !== '') ?? '';
}

interface Walk {
  formId: string;
  errors: ReadonlyMap<string, string>;
  change: (path: readonly (string | number)[], value: Text) => void;
}

/** One value of the text, at `path`, named `label`, as fields. */
function Node({ text, path, label, walk }: { text: Text; path: (string | number)[]; label: string; walk: Walk }) {
  const pointer = `/${path.join('/')}`;
  const key = [...path].reverse().find((part): part is string => typeof part === 'string') ?? '';
  // The section it is in, to name its buttons apart from the other sections' (« Retirer : Le collectif, Paragraphe 2 »).
  const section = nameOf(String(path[0] ?? ''));
  if (typeof text === 'string') {
    return (
      <Field
        id={`${walk.formId}${pointer.replaceAll('/', '-')}`}
        label={label}
        value={text}
        error={walk.errors.get(pointer)}
        multiline={LONG.has(key) || text.length > 80}
        onChange={(value) => {
          walk.change(path, value);
        }}
      />
    );
  }
  if (Array.isArray(text)) {
    const itemName = ITEM_NAMES[`${String(path[0])}.${key}`] ?? ITEM_NAMES[key] ?? 'Élément';
    const first = text[0];
    return (
      <fieldset className="admin-entry">
        <legend>{label}</legend>
        {text.map((item, index) => {
          const itemLabel = `${itemName} ${String(index + 1)}${typeof item === 'string' ? '' : ` : ${titleOf(item)}`}`;
          return (
            <div className="admin-list-item" key={index}>
              <Node text={item} path={[...path, index]} label={itemLabel} walk={walk} />
              <button
                type="button"
                className="button"
                disabled={text.length === 1}
                aria-label={`Retirer : ${section}, ${itemLabel}`}
                onClick={() => {
                  walk.change(
                    path,
                    text.filter((_, at) => at !== index),
                  );
                }}
              >
                Retirer
              </button>
            </div>
          );
        })}
        {walk.errors.has(pointer) ? (
          <p className="admin-field__error" role="alert">
            {walk.errors.get(pointer)}
          </p>
        ) : null}
        <button
          type="button"
          className="button"
          aria-label={`Ajouter : ${itemName.toLowerCase()}, ${section}`}
          onClick={() => {
            walk.change(path, [...text, first === undefined ? '' : emptyLike(first)]);
          }}
        >
          Ajouter : {itemName.toLowerCase()}
        </button>
      </fieldset>
    );
  }
  const heading = text.heading;
  const children: ReactNode[] = Object.entries(text).map(([child, value]) => (
    <Node
      key={child}
      text={value}
      path={[...path, child]}
      label={NAMES[`${String(path[0])}.${child}`] ?? nameOf(child)}
      walk={walk}
    />
  ));
  // A section of the page is named by its own title, as the page shows it.
  const legend =
    typeof heading === 'string' && heading !== '' && heading !== label && path.length === 1
      ? `${label} : ${heading}`
      : label;
  return path.length === 0 ? (
    <>{children}</>
  ) : (
    <fieldset className="admin-entry">
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}

export function AboutEditor({ onPublished }: { onPublished?: () => void }) {
  const form = useVersionForm<Text>({
    kind: 'about',
    read: (version) => version.data as Text,
    send: saveKind('about'),
    onPublished,
  });

  return (
    <VersionEditor
      form={form}
      title="Textes de la page À propos"
      loading="Chargement des textes ..."
      intro={
        <p className="admin-field__hint">
          Les chiffres, les adresses et les liens de la page viennent de la configuration du site ; les photos de
          l’équipe se modifient dans « L’équipe (page À propos) ».
        </p>
      }
      saved="la page À propos les montre déjà."
      theirs={(current) => <p>{titleOf((current.data as Record<string, Text>).intro ?? '')}</p>}
    >
      {(text, formId) => {
        const walk: Walk = {
          formId,
          errors: form.problems,
          change: (path, value) => {
            form.edit((now) => replaced(now, path, value));
          },
        };
        return (
          <>
            <Node text={text} path={[]} label="" walk={walk} />
            <PagePreview source={{ kind: 'about', data: text }} onRefused={form.setOutcome} />
          </>
        );
      }}
    </VersionEditor>
  );
}
