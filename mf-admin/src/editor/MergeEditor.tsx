import { useId, useState } from 'react';
import * as v from 'valibot';
import { playedArtistsPageAnswer } from '@collectif/shared/schemas';
import type { PlayedArtistSummary } from '@collectif/shared';
import { call, messageOf } from './call';
import { Field } from './Field';
import { VersionEditor, saveKind, useVersionForm } from './publish';
import { RowActions } from './RowActions';

/*
 * The admins' merges of played artists (docs/artists.md, « Merges »): each merge names the page
 * that stays (its slug, /artistes/{slug}) and the other spellings joined to it, one a line. A search
 * of the artists' pages finds a slug and a spelling without leaving the form. The whole list is
 * published on the version it was opened from, as every list of the editor.
 */

interface Merge {
  into: string;
  /** The other spellings, one a line, as the volunteer types them. */
  names: string;
}

const mergesOf = (data: unknown): Merge[] =>
  (Array.isArray(data) ? data : []).map((item: unknown) => {
    const merge = (item ?? {}) as { into?: unknown; names?: unknown };
    return {
      into: typeof merge.into === 'string' ? merge.into : '',
      names: Array.isArray(merge.names)
        ? merge.names.filter((name): name is string => typeof name === 'string').join('\n')
        : '',
    };
  });

/** What is saved: each spelling trimmed, empty lines left out. */
const dataOf = (merges: readonly Merge[]) =>
  merges.map(({ into, names }) => ({
    into: into.trim(),
    names: names
      .split('\n')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  }));

/** « Chercher un artiste »: the artists' pages whose name holds the text, with their slug. */
function ArtistSearch({ onInto, onName }: { onInto: (slug: string) => void; onName: (name: string) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const [found, setFound] = useState<PlayedArtistSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const search = () => {
    setError(null);
    call<unknown>('GET', `/artists?q=${encodeURIComponent(text.trim().slice(0, 100))}`)
      .then((answer) => {
        const read = v.safeParse(playedArtistsPageAnswer, answer);
        if (!read.success) throw new Error('La liste des artistes est illisible : réessayez plus tard.');
        setFound(read.output.items);
      })
      .catch((failure: unknown) => {
        setError(messageOf(failure));
      });
  };
  return (
    <div className="admin-field" role="search" aria-label="Chercher un artiste">
      <label htmlFor={id}>Chercher un artiste</label>
      <input
        id={id}
        type="search"
        value={text}
        maxLength={100}
        onChange={(event) => {
          setText(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            search();
          }
        }}
      />
      <button type="button" className="button" onClick={search}>
        Chercher
      </button>
      {error === null ? null : (
        <p className="admin-outcome admin-outcome--error" role="alert">
          {error}
        </p>
      )}
      {found === null ? null : found.length === 0 ? (
        <p>Aucun artiste ne porte ce nom.</p>
      ) : (
        <ul aria-label="Artistes trouvés">
          {found.map((artist) => (
            <li key={artist.slug}>
              {artist.name} (/artistes/{artist.slug}, {artist.plays} passage{artist.plays > 1 ? 's' : ''})
              <div className="admin-actions">
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    onInto(artist.slug);
                  }}
                >
                  Page qui reste : {artist.name}
                </button>
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    onName(artist.name);
                  }}
                >
                  Autre graphie : {artist.name}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function MergeEditor({ onPublished }: { onPublished?: () => void }) {
  const form = useVersionForm<Merge[]>({
    kind: 'artistMerges',
    read: (version) => mergesOf(version.data),
    send: (merges, basedOn) => saveKind('artistMerges')(dataOf(merges), basedOn),
    onPublished,
  });
  const errors = form.problems;
  const change = (next: Merge[]) => {
    form.edit(() => next);
  };
  /** The last merge changed by `edit`, one added when there is none. */
  const lastMerge = (edit: (merge: Merge) => Merge) => {
    form.edit((now) => {
      const list = now.length === 0 ? [{ into: '', names: '' }] : now;
      return list.map((merge, at) => (at === list.length - 1 ? edit(merge) : merge));
    });
  };

  return (
    <VersionEditor
      form={form}
      title="Fusions d’artistes"
      intro={
        <>
          <p>
            Les noms qui ne diffèrent que par les majuscules ou les accents sont déjà un seul artiste. Une fusion réunit
            d’autres graphies sur une page : celle qui reste garde son adresse, les autres y mènent.
          </p>
          <ArtistSearch
            onInto={(slug) => {
              lastMerge((merge) => ({ ...merge, into: slug }));
            }}
            onName={(name) => {
              lastMerge((merge) => ({ ...merge, names: merge.names.trim() === '' ? name : `${merge.names}\n${name}` }));
            }}
          />
        </>
      }
      saved="les pages des artistes la montrent déjà."
      theirs={(current) => (
        <ol>
          {mergesOf(current.data).map((merge, index) => (
            <li key={index}>
              {merge.into} ← {merge.names.split('\n').join(', ')}
            </li>
          ))}
        </ol>
      )}
    >
      {(merges, formId) => (
        <>
          {merges.map((merge, index) => {
            const legend = `Fusion ${String(index + 1)} : ${merge.into}`;
            return (
              <fieldset className="admin-entry" key={index}>
                <legend>{legend}</legend>
                <Field
                  id={`${formId}-${String(index)}-into`}
                  label="Page qui reste"
                  hint="Son adresse après /artistes/, par exemple basic-channel."
                  error={errors.get(`/${String(index)}/into`)}
                  value={merge.into}
                  onChange={(value) => {
                    change(merges.map((item, at) => (at === index ? { ...item, into: value } : item)));
                  }}
                />
                <Field
                  id={`${formId}-${String(index)}-names`}
                  label="Autres graphies"
                  hint="Une par ligne : un nom tel que les listes de titres l’écrivent, ou l’adresse de sa page."
                  error={errors.get(`/${String(index)}/names`)}
                  multiline
                  value={merge.names}
                  onChange={(value) => {
                    change(merges.map((item, at) => (at === index ? { ...item, names: value } : item)));
                  }}
                />
                <RowActions rows={merges} index={index} legend={legend} change={change} />
              </fieldset>
            );
          })}
          <button
            type="button"
            className="button"
            onClick={() => {
              change([...merges, { into: '', names: '' }]);
            }}
          >
            Ajouter : fusion
          </button>
        </>
      )}
    </VersionEditor>
  );
}
