import { useEffect, useId, useState } from 'react';
import { StatusMessage } from '@collectif/shared/ui';
import { call, messageOf } from './call';
import { Field } from './Field';
import { dateOf, OutcomeMessage, outcomeOf, problemPointer, type Outcome, type Version } from './outcome';
import { RowActions } from './RowActions';

/*
 * « Listes de titres » (docs/content.md, « Tracklists »): an episode of a residence chosen, its rows
 * (a time of the replay, artist, title, a release of the label), rows added, moved and removed,
 * prefilled from what the radio played during its show, saved on the version the form opened on
 * (PUT /api/content/tracklists/:episode), or removed. The site's refusals beside their rows.
 */

interface EpisodeItem {
  slug: string;
  show: string;
  artist: string;
  pubDate: string | null;
  duration: number;
}
interface Track {
  start: number;
  artist: string;
  title: string;
  release?: string;
}
interface Entry {
  episode: string;
  tracks: Track[];
}
interface Opened {
  version: string;
  duration: number;
  entry: Entry | null;
}
interface Recorded {
  duration: number;
  slot: { source: 'programme' | 'duree'; from: string; to: string; title?: string } | null;
  rows: { start: number; artist: string; title: string }[];
  dropped: number;
}
interface Release {
  href: string;
  title: string;
  artist: string;
}
/** A row as the form holds it: its time as typed. */
interface Row {
  time: string;
  artist: string;
  title: string;
  release: string;
}

/** Seconds as a replay shows them: m:ss, or h:mm:ss from an hour. */
export function timeText(seconds: number): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${String(h)}:${two(m)}:${two(s)}` : `${String(m)}:${two(s)}`;
}

/** « 1:05 » or « 1:02:03 » as seconds; null for anything else. */
export function secondsOf(text: string): number | null {
  const found = /^(?:(\d{1,2}):)?(\d{1,3}):([0-5]\d)$/.exec(text.trim());
  if (found === null) return null;
  const [, h, m = '0', s = '0'] = found;
  if (h !== undefined && Number(m) > 59) return null;
  return Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s);
}

const rowOf = (track: Track): Row => ({
  time: timeText(track.start),
  artist: track.artist,
  title: track.title,
  release: track.release ?? '',
});

const hour = (iso: string) =>
  new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Paris' }).format(
    new Date(iso),
  );
const day = (iso: string) =>
  new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', timeZone: 'Europe/Paris' }).format(new Date(iso));

/** Where the prefill's rows come from, said: « à l'antenne entre 19:00 et 21:00 le 24 novembre ». */
const slotText = (slot: NonNullable<Recorded['slot']>) =>
  `à l’antenne entre ${hour(slot.from)} et ${hour(slot.to)} le ${day(slot.from)}${
    slot.source === 'programme'
      ? ` (${slot.title ?? 'émission du programme'})`
      : ' (la durée de l’émission avant sa publication)'
  }`;

const episodeName = (episode: EpisodeItem) =>
  `${episode.show}${episode.pubDate === null ? '' : ` · ${day(episode.pubDate)}`}`;

/** One episode's list: opened, edited, prefilled, saved or removed. */
function TracklistForm({ episode, releases }: { episode: EpisodeItem; releases: readonly Release[] }) {
  const formId = useId();
  const path = `/content/tracklists/${encodeURIComponent(episode.slug)}`;
  const [opened, setOpened] = useState<{ basedOn: string; exists: boolean; duration: number } | null>(null);
  const [rows, setRows] = useState<Row[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'none' });
  const [note, setNote] = useState<string | null>(null);
  const [timeErrors, setTimeErrors] = useState<Map<number, string>>(new Map());
  const [busy, setBusy] = useState(false);

  const take = (answer: Opened) => {
    setOpened({ basedOn: answer.version, exists: answer.entry !== null, duration: answer.duration });
    setRows(answer.entry?.tracks.map(rowOf) ?? []);
  };

  useEffect(() => {
    const ended = new AbortController();
    call<Opened>('GET', `${path}/current`)
      .then((answer) => {
        if (!ended.signal.aborted) take(answer);
      })
      .catch((error: unknown) => {
        if (!ended.signal.aborted) setFailure(messageOf(error));
      });
    return () => {
      ended.abort();
    };
  }, [path]);

  if (failure !== null) return <StatusMessage kind="error">{failure}</StatusMessage>;
  if (opened === null) return <StatusMessage kind="loading">Chargement de la liste ...</StatusMessage>;

  // The site's refusals, by row and field (« tracklists: champ /tracks/3/start : … »).
  const errors = new Map<string, string>();
  if (outcome.kind === 'invalid') {
    for (const line of outcome.problems) {
      const pointer = problemPointer(line);
      const [, index = '', field = ''] = pointer?.pointer.split('/').slice(1) ?? [];
      if (pointer !== null && !errors.has(`${index}/${field}`)) errors.set(`${index}/${field}`, pointer.words);
    }
  }
  const listError = errors.get('/');
  const legendOf = (row: Row, index: number) =>
    `Titre ${String(index + 1)} : ${[row.artist, row.title].filter((text) => text !== '').join(' — ')}`;

  const change = (next: Row[]) => {
    setRows(next);
    setTimeErrors(new Map());
  };

  const send = (basedOn: string) => {
    const starts = rows.map((row) => secondsOf(row.time));
    const wrong = new Map<number, string>();
    starts.forEach((start, index) => {
      if (start === null) wrong.set(index, 'Heure invalide : écrivez m:ss ou h:mm:ss, par exemple 4:05 ou 1:02:30.');
    });
    setTimeErrors(wrong);
    if (wrong.size > 0) {
      setOutcome({ kind: 'error', message: 'Des heures de début sont à corriger : rien n’a été enregistré.' });
      return;
    }
    const tracks = rows.map((row, index) => ({
      start: starts[index] ?? 0,
      artist: row.artist.trim(),
      title: row.title.trim(),
      ...(row.release === '' ? {} : { release: row.release }),
    }));
    setBusy(true);
    call<{ version: { id: string; savedAt: string } }>('PUT', path, {
      entry: { episode: episode.slug, tracks },
      basedOn,
    })
      .then(({ version }) => {
        setOpened({ ...opened, basedOn: version.id, exists: true });
        setOutcome({ kind: 'saved', at: version.savedAt });
      })
      .catch((error: unknown) => {
        setOutcome(outcomeOf(error));
      })
      .finally(() => {
        setBusy(false);
      });
  };

  const prefill = () => {
    setBusy(true);
    setNote(null);
    call<Recorded>('GET', `${path}/recorded`)
      .then((recorded) => {
        if (recorded.slot === null) {
          setNote('Cette émission n’a pas de date de publication : rien à reprendre de l’antenne.');
        } else if (recorded.rows.length === 0) {
          setNote(`Aucun titre n’a été enregistré ${slotText(recorded.slot)} : ajoutez les titres à la main.`);
        } else {
          change(recorded.rows.map((row) => rowOf(row)));
          setNote(
            `${String(recorded.rows.length)} titre(s) enregistré(s) ${slotText(recorded.slot)}, repris dans la liste${
              recorded.dropped > 0
                ? ` (${String(recorded.dropped)} au-delà de la durée de l’émission laissé(s) de côté)`
                : ''
            } : vérifiez-les, puis enregistrez.`,
          );
        }
      })
      .catch((error: unknown) => {
        setNote(messageOf(error));
      })
      .finally(() => {
        setBusy(false);
      });
  };

  const remove = () => {
    setBusy(true);
    call<{ version: { id: string; savedAt: string } }>('DELETE', path)
      .then(({ version }) => {
        setOpened({ ...opened, basedOn: version.id, exists: false });
        setRows([]);
        setOutcome({ kind: 'none' });
        setNote(`Liste supprimée le ${dateOf(version.savedAt)} : la page de l’émission ne la montre plus.`);
      })
      .catch((error: unknown) => {
        setOutcome(outcomeOf(error));
      })
      .finally(() => {
        setBusy(false);
      });
  };

  return (
    <form
      className="admin-form"
      noValidate
      aria-label={`Liste de titres : ${episodeName(episode)}`}
      onSubmit={(event) => {
        event.preventDefault();
        send(opened.basedOn);
      }}
    >
      <p className="admin-field__hint">
        {opened.duration > 0 ? `Durée de l’émission : ${timeText(opened.duration)}. ` : ''}
        Chaque heure de début se compte depuis le début du replay (m:ss ou h:mm:ss), en ordre croissant.
      </p>
      <div className="admin-actions">
        <button type="button" className="button" disabled={busy} onClick={prefill}>
          Pré-remplir depuis l’antenne
        </button>
      </div>
      <div aria-live="polite">
        {note === null ? null : (
          <p className="admin-field__hint" role="status">
            {note}
          </p>
        )}
      </div>
      {rows.length === 0 ? <p>Aucun titre pour l’instant.</p> : null}
      {listError === undefined ? null : <p className="admin-field__error">{listError}</p>}
      {rows.map((row, index) => {
        const legend = legendOf(row, index);
        const id = `${formId}-${String(index)}`;
        const edit = (field: keyof Row) => (value: string) => {
          change(rows.map((item, at) => (at === index ? { ...item, [field]: value } : item)));
        };
        const releaseError = errors.get(`${String(index)}/release`);
        return (
          <fieldset className="admin-entry admin-track" key={index}>
            <legend>{legend}</legend>
            <Field
              id={`${id}-debut`}
              label="Début"
              hint="m:ss ou h:mm:ss"
              value={row.time}
              error={timeErrors.get(index) ?? errors.get(`${String(index)}/start`)}
              onChange={edit('time')}
            />
            <Field
              id={`${id}-artiste`}
              label="Artiste"
              value={row.artist}
              error={errors.get(`${String(index)}/artist`)}
              onChange={edit('artist')}
            />
            <Field
              id={`${id}-titre`}
              label="Titre"
              value={row.title}
              error={errors.get(`${String(index)}/title`)}
              onChange={edit('title')}
            />
            <div className="admin-field">
              <label htmlFor={`${id}-sortie`}>Sortie du label (facultatif)</label>
              <select
                id={`${id}-sortie`}
                value={row.release}
                aria-invalid={releaseError === undefined ? undefined : true}
                aria-describedby={releaseError === undefined ? undefined : `${id}-sortie-erreur`}
                onChange={(event) => {
                  edit('release')(event.target.value);
                }}
              >
                <option value="">Aucune</option>
                {releases.map((release) => (
                  <option key={release.href} value={release.href}>
                    {release.artist} — {release.title}
                  </option>
                ))}
                {row.release !== '' && !releases.some((release) => release.href === row.release) ? (
                  <option value={row.release}>{row.release}</option>
                ) : null}
              </select>
              {releaseError === undefined ? null : (
                <p className="admin-field__error" id={`${id}-sortie-erreur`}>
                  {releaseError}
                </p>
              )}
            </div>
            <RowActions rows={rows} index={index} legend={legend} change={change} />
          </fieldset>
        );
      })}
      <div className="admin-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            const last = secondsOf(rows.at(-1)?.time ?? '');
            change([
              ...rows,
              { time: last === null ? '0:00' : timeText(last + 1), artist: '', title: '', release: '' },
            ]);
          }}
        >
          Ajouter un titre
        </button>
      </div>
      <div aria-live="polite">
        <OutcomeMessage
          outcome={outcome}
          saved="la page de l’émission et son lecteur la montrent déjà."
          theirs={
            outcome.kind === 'conflict' ? (
              <ol>
                {(
                  (outcome.current.data as Entry[] | undefined)?.find((one) => one.episode === episode.slug)?.tracks ??
                  []
                ).map((track, index) => (
                  <li key={index}>
                    {timeText(track.start)} · {track.artist} — {track.title}
                  </li>
                ))}
              </ol>
            ) : null
          }
          onTakeTheirs={(current: Version) => {
            const theirs = (current.data as Entry[] | undefined)?.find((one) => one.episode === episode.slug) ?? null;
            take({ version: current.id, duration: opened.duration, entry: theirs });
            setOutcome({ kind: 'none' });
          }}
          onKeepMine={(current: Version) => {
            send(current.id);
          }}
        />
      </div>
      <div className="admin-actions">
        <button type="submit" className="button" disabled={busy || rows.length === 0}>
          {busy ? 'Enregistrement ...' : 'Enregistrer'}
        </button>
        {opened.exists ? (
          <button type="button" className="button" disabled={busy} onClick={remove}>
            Supprimer la liste
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** « Listes de titres » of a residence: its episodes, newest first, one list at a time. */
export function TracklistEditor({ residence }: { residence: string }) {
  const titleId = useId();
  const chooserId = useId();
  const [episodes, setEpisodes] = useState<EpisodeItem[] | null>(null);
  const [releases, setReleases] = useState<Release[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [chosen, setChosen] = useState('');

  useEffect(() => {
    // One residence per mounting: the page keys it by the residence.
    const ended = new AbortController();
    Promise.all([
      call<{ items: EpisodeItem[] }>('GET', `/episodes?residence=${encodeURIComponent(residence)}`),
      call<Release[]>('GET', '/releases').catch(() => []),
    ])
      .then(([page, known]) => {
        if (ended.signal.aborted) return;
        setEpisodes(page.items);
        setReleases(known);
      })
      .catch((error: unknown) => {
        if (!ended.signal.aborted) setFailure(messageOf(error));
      });
    return () => {
      ended.abort();
    };
  }, [residence]);

  let body;
  if (failure !== null) body = <StatusMessage kind="error">{failure}</StatusMessage>;
  else if (episodes === null) body = <StatusMessage kind="loading">Chargement des émissions ...</StatusMessage>;
  else if (episodes.length === 0) body = <p>Cette résidence n’a pas encore d’émission en replay.</p>;
  else {
    const slug = chosen === '' ? (episodes[0]?.slug ?? '') : chosen;
    const episode = episodes.find((item) => item.slug === slug);
    body = (
      <>
        <div className="admin-field">
          <label htmlFor={chooserId}>Épisode</label>
          <select
            id={chooserId}
            value={slug}
            onChange={(event) => {
              setChosen(event.target.value);
            }}
          >
            {episodes.map((item) => (
              <option key={item.slug} value={item.slug}>
                {episodeName(item)}
              </option>
            ))}
          </select>
        </div>
        {episode === undefined ? null : <TracklistForm key={episode.slug} episode={episode} releases={releases} />}
      </>
    );
  }
  return (
    <section className="admin-editor admin-tracklists" aria-labelledby={titleId}>
      <h2 id={titleId}>Listes de titres</h2>
      {body}
    </section>
  );
}
