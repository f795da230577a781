import { useEffect, useId, useState } from 'react';
import type { Residence } from '@collectif/shared';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import { StatusMessage } from '@collectif/shared/ui';
import { call, messageOf } from './call';
import { residencePictures } from '@collectif/shared/pictures';
import { Field } from './Field';
import { PictureUpload } from './PictureUpload';
import { PagePreview } from './PagePreview';
import { currentVersion, OutcomeMessage, outcomeOf, readProblem, type Outcome } from './outcome';

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
  const [loaded, setLoaded] = useState<{ basedOn: string; draft: Draft } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'none' });
  const [busy, setBusy] = useState(false);

  // One residence per mounting (the page keys this form by its id).
  useEffect(() => {
    const ended = new AbortController();
    (async () => {
      const version = await currentVersion('residences');
      const residence = (version.data as Residence[]).find((entry) => entry.id === id);
      if (ended.signal.aborted) return;
      if (residence === undefined) setFailure(`La résidence « ${id} » n’existe pas.`);
      else setLoaded({ basedOn: version.id, draft: draftOf(residence) });
    })().catch((error: unknown) => {
      if (!ended.signal.aborted) setFailure(messageOf(error));
    });
    return () => {
      ended.abort();
    };
  }, [id]);

  if (failure !== null) return <StatusMessage kind="error">{failure}</StatusMessage>;
  if (loaded === null) return <StatusMessage kind="loading">Chargement de la résidence ...</StatusMessage>;
  const { draft, basedOn } = loaded;
  const fieldErrors = outcome.kind === 'invalid' ? problemsByField(outcome.problems) : {};

  async function publish(basis: string) {
    setBusy(true);
    try {
      const { version } = await call<{ version: { id: string; savedAt: string } }>(
        'PUT',
        `/content/residences/${encodeURIComponent(id)}`,
        { entry: entryOf(id, draft), basedOn: basis },
      );
      setLoaded({ basedOn: version.id, draft });
      setOutcome({ kind: 'saved', at: version.savedAt });
      onPublished?.();
    } catch (error) {
      setOutcome(outcomeOf(error));
    } finally {
      setBusy(false);
    }
  }

  // From the state as it is then: an upload answers later, after other fields may have changed.
  const edit = (name: keyof Draft, value: string) => {
    setLoaded((now) => (now === null ? now : { ...now, draft: { ...now.draft, [name]: value } }));
  };

  return (
    <section className="admin-editor" aria-labelledby={`${formId}-titre`}>
      <h2 id={`${formId}-titre`}>Résidence : {draft.artist || id}</h2>
      <p>
        <PageLink page={PAGES.residence} params={{ id }}>
          Voir la page publique
        </PageLink>
      </p>
      <form
        className="admin-form"
        onSubmit={(event) => {
          event.preventDefault();
          void publish(basedOn);
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
                src={name === 'portrait' ? pictures.card : pictures.header}
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
        <PagePreview source={{ kind: 'residences', entry: entryOf(id, draft) }} onRefused={setOutcome} />
        <div id={`${formId}-etat`} aria-live="polite">
          <OutcomeMessage
            outcome={outcome}
            saved="la page de la résidence le montre déjà."
            theirs={theirsOf(outcome, id)}
            onTakeTheirs={(current) => {
              const theirs = (current.data as Residence[]).find((entry) => entry.id === id);
              if (theirs !== undefined) setLoaded({ basedOn: current.id, draft: draftOf(theirs) });
              setOutcome({ kind: 'none' });
            }}
            onKeepMine={(current) => {
              void publish(current.id);
            }}
          />
        </div>
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Publication ...' : 'Publier'}
        </button>
      </form>
    </section>
  );
}

/** The residence as the other editor left it, to put beside the volunteer's. */
function theirsOf(outcome: Outcome, id: string) {
  if (outcome.kind !== 'conflict') return null;
  const theirs = (outcome.current.data as Residence[]).find((entry) => entry.id === id);
  return theirs === undefined ? null : (
    <>
      <p>
        {theirs.artist} · {theirs.show}
      </p>
      <p>{theirs.description}</p>
    </>
  );
}
