import { useCallback, useEffect, useId, useState } from 'react';
import { call, EditorError, messageOf } from './call';

/*
 * « Archives du direct » (docs/archive.md, « The editor »): each live show the site kept as a replay
 * when its slot ended, for the residences the volunteer sees. Per residence (LIVE_ARCHIVE=chosen):
 * keep its live shows or not, publish them at once or after a look. Per archive: heard here before
 * it is published, its title and text, cut to the second, published or hidden, deleted. Titles and
 * texts are shown as React's text nodes, never as HTML. With the archives off, nothing is shown.
 */

interface Choice {
  keep: boolean;
  publish: 'now' | 'review';
}

export interface EditorArchive {
  id: string;
  residence: string;
  title: string;
  text?: string;
  slot: { start: string; end: string };
  seconds: number;
  gaps: { at: number; seconds: number }[];
  truncated: { missing: number } | null;
  published: boolean;
}

export interface ArchiveListing {
  mode: 'chosen' | 'all';
  residences: { id: string; artist: string; choice: Choice }[];
  archives: EditorArchive[];
}

const when = (iso: string): string =>
  new Date(iso).toLocaleString('fr-FR', { dateStyle: 'full', timeStyle: 'short', timeZone: 'Europe/Paris' });

/** 3725 → « 1:02:05 ». */
export function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${String(h)}:${pad(m)}:${pad(s % 60)}` : `${String(m)}:${pad(s % 60)}`;
}

function ResidenceChoice({ residence }: { residence: ArchiveListing['residences'][number] }) {
  const id = useId();
  const [choice, setChoice] = useState<Choice>(residence.choice);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <form
      className="admin-archives__choice admin-proposal admin-form"
      aria-labelledby={`${id}-nom`}
      onSubmit={(event) => {
        event.preventDefault();
        call('PUT', `/editor/archives/residences/${encodeURIComponent(residence.id)}`, choice)
          .then(() => {
            setOutcome({ ok: true, text: 'Choix enregistré.' });
          })
          .catch((failure: unknown) => {
            setOutcome({ ok: false, text: messageOf(failure) });
          });
      }}
    >
      <h3 id={`${id}-nom`}>{residence.artist}</h3>
      <label className="admin-field admin-field--check">
        <input
          type="checkbox"
          checked={choice.keep}
          onChange={(event) => {
            setChoice({ ...choice, keep: event.target.checked });
          }}
        />{' '}
        Garder ses directs en réécoute
      </label>
      <label className="admin-field">
        Publication{' '}
        <select
          value={choice.publish}
          disabled={!choice.keep}
          onChange={(event) => {
            setChoice({ ...choice, publish: event.target.value === 'now' ? 'now' : 'review' });
          }}
        >
          <option value="now">tout de suite</option>
          <option value="review">après relecture</option>
        </select>
      </label>
      <button type="submit" className="button">
        Enregistrer le choix
      </button>
      {outcome === null ? null : (
        <p
          className={`admin-outcome${outcome.ok ? '' : ' admin-outcome--error'}`}
          role={outcome.ok ? 'status' : 'alert'}
        >
          {outcome.text}
        </p>
      )}
    </form>
  );
}

function Archive({
  archive,
  onChanged,
  onDeleted,
}: {
  archive: EditorArchive;
  onChanged: (next: EditorArchive) => void;
  onDeleted: () => void;
}) {
  const id = useId();
  const [title, setTitle] = useState(archive.title);
  const [text, setText] = useState(archive.text ?? '');
  const [start, setStart] = useState('0');
  const [end, setEnd] = useState(String(Math.round(archive.seconds)));
  const [deleting, setDeleting] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const path = `/editor/archives/${encodeURIComponent(archive.id)}`;
  const send = (body: object, done: string) => {
    call<EditorArchive>('PUT', path, body)
      .then((next) => {
        onChanged(next);
        setEnd(String(Math.round(next.seconds)));
        setStart('0');
        setOutcome({ ok: true, text: done });
      })
      .catch((failure: unknown) => {
        setOutcome({ ok: false, text: messageOf(failure) });
      });
  };
  return (
    <article className="admin-archives__archive admin-proposal" aria-labelledby={`${id}-titre`}>
      <h3 id={`${id}-titre`}>{archive.title}</h3>
      <p>
        En direct le {when(archive.slot.start)} · {clock(archive.seconds)} ·{' '}
        <strong>{archive.published ? 'publiée' : 'en attente de relecture'}</strong>
      </p>
      {archive.truncated === null ? null : (
        <p>Le début ({clock(archive.truncated.missing)}) n’était plus gardé quand l’émission s’est terminée.</p>
      )}
      {archive.gaps.map((gap) => (
        <p key={gap.at}>
          Le direct a été interrompu {clock(Math.round(gap.seconds))} à {clock(gap.at)}.
        </p>
      ))}
      <audio controls preload="none" src={`/api${path}/audio`} aria-label={`Écouter « ${archive.title} »`} />
      <form
        className="admin-form"
        onSubmit={(event) => {
          event.preventDefault();
          send({ title, text }, 'Intitulé et présentation enregistrés.');
        }}
      >
        <label className="admin-field">
          Intitulé{' '}
          <input
            value={title}
            maxLength={300}
            onChange={(event) => {
              setTitle(event.target.value);
            }}
          />
        </label>
        <label className="admin-field">
          Présentation{' '}
          <textarea
            value={text}
            maxLength={2000}
            onChange={(event) => {
              setText(event.target.value);
            }}
          />
        </label>
        <button type="submit" className="button">
          Enregistrer
        </button>
      </form>
      <form
        className="admin-form"
        onSubmit={(event) => {
          event.preventDefault();
          send({ trim: { start: Number(start), end: Number(end) } }, 'Archive coupée.');
        }}
      >
        <label className="admin-field">
          Début (secondes){' '}
          <input
            type="number"
            min={0}
            step={1}
            value={start}
            onChange={(event) => {
              setStart(event.target.value);
            }}
          />
        </label>
        <label className="admin-field">
          Fin (secondes){' '}
          <input
            type="number"
            min={1}
            step={1}
            value={end}
            onChange={(event) => {
              setEnd(event.target.value);
            }}
          />
        </label>
        <button type="submit" className="button button--ghost">
          Couper
        </button>
      </form>
      <div className="admin-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            send({ published: !archive.published }, archive.published ? 'Archive masquée.' : 'Archive publiée.');
          }}
        >
          {archive.published ? 'Masquer' : 'Publier'}
        </button>
        {deleting ? (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              call('DELETE', path)
                .then(onDeleted)
                .catch((failure: unknown) => {
                  setOutcome({ ok: false, text: messageOf(failure) });
                });
            }}
          >
            Confirmer la suppression
          </button>
        ) : (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              setDeleting(true);
            }}
          >
            Supprimer
          </button>
        )}
      </div>
      {outcome === null ? null : (
        <p
          className={`admin-outcome${outcome.ok ? '' : ' admin-outcome--error'}`}
          role={outcome.ok ? 'status' : 'alert'}
        >
          {outcome.text}
        </p>
      )}
    </article>
  );
}

export function LiveArchives() {
  const [listing, setListing] = useState<ArchiveListing | null | 'off'>(null);
  const [error, setError] = useState<string | null>(null);
  const read = useCallback(() => {
    call<ArchiveListing>('GET', '/editor/archives')
      .then((answer) => {
        setListing(answer);
        setError(null);
      })
      .catch((failure: unknown) => {
        // Off on this site, or not this role's: nothing to show.
        if (failure instanceof EditorError && (failure.status === 404 || failure.status === 403)) {
          setListing('off');
          return;
        }
        setError(messageOf(failure));
      });
  }, []);
  useEffect(() => {
    read();
  }, [read]);
  if (listing === 'off') return null;
  return (
    <section className="admin-archives" aria-labelledby="archives-du-direct">
      <h2 id="archives-du-direct">Archives du direct</h2>
      {error === null ? null : (
        <p className="admin-outcome admin-outcome--error" role="alert">
          {error}
        </p>
      )}
      {listing === null ? (
        error === null ? (
          <p>Chargement des archives du direct ...</p>
        ) : null
      ) : (
        <>
          {listing.mode === 'all' ? (
            <p>Ce site garde chaque émission en direct et la publie dès qu’elle se termine.</p>
          ) : (
            listing.residences.map((residence) => <ResidenceChoice key={residence.id} residence={residence} />)
          )}
          {listing.archives.length === 0 ? (
            <p>Aucune émission en direct gardée pour le moment.</p>
          ) : (
            listing.archives.map((archive) => (
              <Archive
                key={archive.id}
                archive={archive}
                onChanged={(next) => {
                  setListing({
                    ...listing,
                    archives: listing.archives.map((each) => (each.id === next.id ? next : each)),
                  });
                }}
                onDeleted={() => {
                  setListing({ ...listing, archives: listing.archives.filter((each) => each.id !== archive.id) });
                }}
              />
            ))
          )}
        </>
      )}
    </section>
  );
}
