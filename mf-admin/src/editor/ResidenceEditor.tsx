import { useId } from 'react';
import type { Residence } from '@collectif/shared';
import { PAGES } from '@collectif/shared/addresses';
import { StatusMessage } from '@collectif/shared/ui';
import { call } from './call';
import { residencePictures } from '@collectif/shared/pictures';
import { Field } from './Field';
import { PictureUpload } from './PictureUpload';
import { PagePreview } from './PagePreview';
import { PublicPageLink } from './PublicPageLink';
import { onPublicSite } from './publicSite';
import { readProblem, type Version } from './outcome';
import { PublishFooter, useVersionForm } from './publish';

/*
 * A residence's form (docs/content.md, « The editor »): its texts and links as the site keeps them
 * (not as served: a description is kept as written and made safe when shown), saved as that one
 * entry, based on the version it was opened from. The site's refusals are shown beside each field;
 * a change made meanwhile by someone else is shown beside the volunteer's own, and nothing is lost.
 */

/** The fields of the form, as text. */
interface Draft {
  artist: string;
  show: string;
  description: string;
  styles: string;
  instagram: string;
  soundcloud: string;
  bandcamp: string;
  website: string;
  /** Uploaded pictures' addresses ('': the ones named after its id). */
  portrait: string;
  header: string;
}

const LINKS = ['instagram', 'soundcloud', 'bandcamp', 'website'] as const;
const FIELDS: readonly { name: keyof Draft; label: string; hint?: string }[] = [
  { name: 'artist', label: 'Artiste', hint: 'Plusieurs artistes : séparez-les par « / ».' },
  { name: 'show', label: 'Émission' },
  {
    name: 'description',
    label: 'Présentation',
    hint: 'Texte simple ; un retour à la ligne reste un retour à la ligne. <em>, <strong> et les liens http(s) sont gardés.',
  },
  { name: 'styles', label: 'Styles', hint: 'Séparés par des virgules, par exemple : dub, jungle.' },
  { name: 'instagram', label: 'Instagram', hint: 'Adresse https://www.instagram.com/…' },
  { name: 'soundcloud', label: 'SoundCloud', hint: 'Adresse https://soundcloud.com/…' },
  { name: 'bandcamp', label: 'Bandcamp', hint: 'Adresse https://….bandcamp.com' },
  { name: 'website', label: 'Site', hint: 'Adresse https://…' },
];

const draftOf = (residence: Residence): Draft => ({
  artist: residence.artist,
  show: residence.show,
  description: residence.description,
  styles: residence.styles.join(', '),
  instagram: residence.instagram ?? '',
  soundcloud: residence.soundcloud ?? '',
  bandcamp: residence.bandcamp ?? '',
  website: residence.website ?? '',
  portrait: residence.portrait ?? '',
  header: residence.header ?? '',
});

/** Its two pictures: what each is, its use (the widths the site makes), how it is shown here. */
const PICTURES = [
  {
    name: 'portrait',
    label: 'Portrait',
    hint: 'Carré, au moins 800 × 800 : la vignette de la liste.',
    purpose: 'portrait',
  },
  { name: 'header', label: 'Bandeau', hint: 'Large, au moins 1600 × 600 : le haut de sa page.', purpose: 'header' },
] as const;

function entryOf(id: string, draft: Draft): Residence {
  const entry: Residence = {
    id,
    artist: draft.artist.trim(),
    show: draft.show.trim(),
    description: draft.description.trim(),
    styles: draft.styles
      .split(',')
      .map((style) => style.trim())
      .filter((style) => style !== ''),
  };
  for (const link of LINKS) if (draft[link].trim() !== '') entry[link] = draft[link].trim();
  for (const { name } of PICTURES) if (draft[name] !== '') entry[name] = draft[name];
  return entry;
}

/** The site's French lines, by field of this form (the first one for each). */
function problemsByField(problems: readonly string[]): Partial<Record<keyof Draft, string>> {
  const found: Partial<Record<keyof Draft, string>> = {};
  for (const line of problems) {
    const problem = readProblem(line);
    const field = [...FIELDS, ...PICTURES].find((known) => known.name === problem?.field)?.name;
    if (problem !== null && field !== undefined) found[field] ??= problem.words;
  }
  return found;
}

export function ResidenceEditor({ id, onPublished }: { id: string; onPublished?: () => void }) {
  const formId = useId();
  const form = useVersionForm<Draft>({
    kind: 'residences',
    read: (version) => {
      const residence = (version.data as Residence[]).find((entry) => entry.id === id);
      return residence === undefined ? { missing: `La résidence « ${id} » n’existe pas.` } : draftOf(residence);
    },
    send: (draft, basedOn) =>
      call<{ version: { id: string; savedAt: string } }>('PUT', `/content/residences/${encodeURIComponent(id)}`, {
        entry: entryOf(id, draft),
        basedOn,
      }),
    onPublished,
  });
  const { loaded, failure, outcome } = form;

  if (failure !== null) return <StatusMessage kind="error">{failure}</StatusMessage>;
  if (loaded === null) return <StatusMessage kind="loading">Chargement de la résidence ...</StatusMessage>;
  const { value: draft, basedOn } = loaded;
  const fieldErrors = outcome.kind === 'invalid' ? problemsByField(outcome.problems) : {};

  // From the state as it is then: an upload answers later, after other fields may have changed.
  const edit = (name: keyof Draft, value: string) => {
    form.edit((now) => ({ ...now, [name]: value }));
  };

  return (
    <section className="admin-editor" aria-labelledby={`${formId}-titre`}>
      <h2 id={`${formId}-titre`}>Résidence : {draft.artist || id}</h2>
      <p>
        <PublicPageLink page={PAGES.residence} params={{ id }}>
          Voir la page publique
        </PublicPageLink>
      </p>
      <form
        className="admin-form"
        onSubmit={(event) => {
          event.preventDefault();
          form.publish(basedOn);
        }}
        noValidate
        aria-describedby={`${formId}-etat`}
      >
        {FIELDS.map(({ name, label, hint }) => (
          <Field
            key={name}
            id={`${formId}-${name}`}
            name={name}
            label={label}
            hint={hint}
            error={fieldErrors[name]}
            value={draft[name]}
            multiline={name === 'description'}
            type={LINKS.includes(name as (typeof LINKS)[number]) ? 'url' : 'text'}
            onChange={(value) => {
              edit(name, value);
            }}
          />
        ))}
        {PICTURES.map(({ name, label, hint, purpose }) => {
          const pictures = residencePictures({
            id,
            portrait: draft.portrait || undefined,
            header: draft.header || undefined,
          });
          const error = fieldErrors[name];
          return (
            <fieldset className="admin-entry" key={name}>
              <legend>{label}</legend>
              <img
                className={`admin-picture admin-picture--${name}`}
                src={onPublicSite(name === 'portrait' ? pictures.card : pictures.header)}
                alt={`${label} actuel`}
              />
              <p className="admin-field__hint">
                {draft[name] === '' ? 'L’image d’origine. ' : 'Une image envoyée. '}
                {hint} JPEG, PNG, WebP ou AVIF.
              </p>
              <div className="admin-actions">
                <PictureUpload
                  purpose={purpose}
                  label={label}
                  onUploaded={(src) => {
                    edit(name, src);
                  }}
                />
                {draft[name] === '' ? null : (
                  <button
                    type="button"
                    className="button"
                    onClick={() => {
                      edit(name, '');
                    }}
                  >
                    Reprendre l’image d’origine
                  </button>
                )}
              </div>
              {error === undefined ? null : (
                <p className="admin-field__error" role="alert">
                  {error}
                </p>
              )}
            </fieldset>
          );
        })}
        <PagePreview source={{ kind: 'residences', entry: entryOf(id, draft) }} onRefused={form.setOutcome} />
        <PublishFooter
          form={form}
          id={`${formId}-etat`}
          saved="la page de la résidence le montre déjà."
          theirs={(current) => theirsOf(current, id)}
        />
      </form>
    </section>
  );
}

/** The residence as the other editor left it, to put beside the volunteer's. */
function theirsOf(current: Version, id: string) {
  const theirs = (current.data as Residence[]).find((entry) => entry.id === id);
  return theirs === undefined ? null : (
    <>
      <p>
        {theirs.artist} · {theirs.show}
      </p>
      <p>{theirs.description}</p>
    </>
  );
}
