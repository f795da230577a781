import type { PicturePurpose } from './call';
import { Field } from './Field';
import { PagePreview } from './PagePreview';
import { PictureUpload } from './PictureUpload';
import { VersionEditor, saveKind, useVersionForm } from './publish';
import { RowActions } from './RowActions';

/*
 * The forms of the kinds that are lists of a few texts (docs/content.md, « The editor »): the label's
 * releases, the About page's team, the home's slides. Each entry's fields, entries added, removed
 * and moved, the whole list saved on the version it was opened from; the site's refusals beside the
 * field of the entry they name; a change made meanwhile shown beside the volunteer's list.
 */

interface Field {
  name: string;
  label: string;
  hint?: string;
  /** Left out of the entry when empty. */
  optional?: boolean;
  /** A picture's field: « Envoyer une image » fills it (docs/content.md, « Pictures »). */
  purpose?: PicturePurpose;
}

export interface ListKind {
  kind: 'releases' | 'team' | 'slides';
  title: string;
  /** What « Publié » says is now shown, and where. */
  shown: string;
  /** An entry's name in its legend. */
  entryLabel: string;
  nameField: string;
  fields: readonly Field[];
}

export const LIST_KINDS: Record<ListKind['kind'], ListKind> = {
  releases: {
    kind: 'releases',
    title: 'Sorties du label',
    shown: 'la page du label et l’accueil les montrent déjà.',
    entryLabel: 'Sortie',
    nameField: 'title',
    fields: [
      { name: 'title', label: 'Titre' },
      { name: 'artist', label: 'Artiste', hint: '« Various Artists » pour une compilation.' },
      {
        name: 'href',
        label: 'Page de vente',
        hint: 'Son chemin sur la page du label, par exemple /album/garonne-dub-vol-6.',
      },
      {
        name: 'image',
        label: 'Pochette',
        hint: 'Une image envoyée (carrée, au moins 600 × 600), ou son chemin sur le site.',
        purpose: 'cover',
      },
    ],
  },
  team: {
    kind: 'team',
    title: 'L’équipe (page À propos)',
    shown: 'la page À propos la montre déjà.',
    entryLabel: 'Membre',
    nameField: 'title',
    fields: [
      { name: 'title', label: 'Prénom' },
      { name: 'description', label: 'Rôles' },
      {
        name: 'imagePath',
        label: 'Photo',
        hint: 'Une image envoyée (portrait, au moins 480 × 600), ou son chemin sur le site.',
        purpose: 'team',
      },
    ],
  },
  slides: {
    kind: 'slides',
    title: 'Carrousel de l’accueil',
    shown: 'l’accueil le montre déjà.',
    entryLabel: 'Diapositive',
    nameField: 'titre',
    fields: [
      { name: 'titre', label: 'Titre' },
      { name: 'description', label: 'Texte' },
      {
        name: 'imagePath',
        label: 'Image',
        hint: 'Une image envoyée (large, au moins 1600 × 900), ou son chemin sur le site.',
        purpose: 'slide',
      },
      { name: 'link', label: 'Lien', hint: 'Adresse https://… ouverte par « + » (facultatif).', optional: true },
    ],
  },
};

type Entry = Record<string, string>;

const entriesOf = (data: unknown): Entry[] =>
  (data as Record<string, unknown>[]).map((item) =>
    Object.fromEntries(Object.entries(item).map(([key, value]) => [key, typeof value === 'string' ? value : ''])),
  );

function dataOf(list: ListKind, entries: readonly Entry[]): Entry[] {
  return entries.map((entry) => {
    const saved: Entry = {};
    for (const { name, optional } of list.fields) {
      const value = (entry[name] ?? '').trim();
      if (value !== '' || optional !== true) saved[name] = value;
    }
    return saved;
  });
}

export function ListEditor({ list, onPublished }: { list: ListKind; onPublished?: () => void }) {
  const form = useVersionForm<Entry[]>({
    kind: list.kind,
    read: (version) => entriesOf(version.data),
    send: (entries, basedOn) => saveKind(list.kind)(dataOf(list, entries), basedOn),
    onPublished,
  });
  const errors = form.problems;
  const change = (next: Entry[]) => {
    form.edit(() => next);
  };

  return (
    <VersionEditor
      form={form}
      title={list.title}
      saved={list.shown}
      theirs={(current) => (
        <ol>
          {entriesOf(current.data).map((entry, index) => (
            <li key={index}>{entry[list.nameField]}</li>
          ))}
        </ol>
      )}
    >
      {(entries, formId) => (
        <>
          {entries.map((entry, index) => {
            const legend = `${list.entryLabel} ${String(index + 1)} : ${entry[list.nameField] ?? ''}`;
            return (
              <fieldset className="admin-entry" key={index}>
                <legend>{legend}</legend>
                {list.fields.map(({ name, label, hint, purpose }) => (
                  <Field
                    key={name}
                    id={`${formId}-${String(index)}-${name}`}
                    label={label}
                    hint={hint}
                    error={errors.get(`/${String(index)}/${name}`)}
                    value={entry[name] ?? ''}
                    onChange={(value) => {
                      change(entries.map((item, at) => (at === index ? { ...item, [name]: value } : item)));
                    }}
                  >
                    {purpose === undefined ? null : (
                      <PictureUpload
                        purpose={purpose}
                        label={`${label}, ${legend}`}
                        onUploaded={(src) => {
                          form.edit((now) => now.map((item, at) => (at === index ? { ...item, [name]: src } : item)));
                        }}
                      />
                    )}
                  </Field>
                ))}
                <RowActions rows={entries} index={index} legend={legend} change={change} />
              </fieldset>
            );
          })}
          <button
            type="button"
            className="button"
            onClick={() => {
              change([...entries, {}]);
            }}
          >
            Ajouter : {list.entryLabel.toLowerCase()}
          </button>
          <PagePreview source={{ kind: list.kind, data: dataOf(list, entries) }} onRefused={form.setOutcome} />
        </>
      )}
    </VersionEditor>
  );
}
