import { useEffect, useId, useState } from 'react';
import { StatusMessage } from '@collectif/shared/ui';
import { call, messageOf } from './call';
import { dateOf } from './outcome';

/*
 * A kind's history (docs/content.md, « The history »): who saved what and when, newest first, a
 * page at a time (« Versions plus anciennes » asks for the next), and any earlier version put back
 * in one action (saved again as a new version that names it). For the teams that save the whole
 * kind; a resident has their form only.
 */

interface Record {
  id: string;
  by: string;
  savedAt: string;
  restoredFrom?: string;
}

/** A page of the history as the site gives it: `next` asks for the one after (null: the last). */
interface Page {
  current: string;
  versions: Record[];
  next?: string | null;
}

/** The versions asked for at a time. */
const SHOWN = 10;

const pageOf = (kind: string, before?: string) =>
  call<Page>(
    'GET',
    `/content/${kind}/history?limit=${String(SHOWN)}${before === undefined ? '' : `&before=${encodeURIComponent(before)}`}`,
  );

export function History({
  kind,
  title,
  published,
  onRestored,
  restorePath = `/content/${kind}/restore`,
}: {
  kind: string;
  title: string;
  /**
   * Where « Rétablir » sends the version's id: the whole kind's restore, or for a resident their
   * residence's (`/content/residences/<id>/restore`, the others left as they are).
   */
  restorePath?: string;
  /** How many saves the form beside it has published: each one reads the history again. */
  published: number;
  onRestored: () => void;
}) {
  const headingId = useId();
  const [history, setHistory] = useState<{ current: string; versions: Record[]; next: string | null } | null>(null);
  const [older, setOlder] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const ended = new AbortController();
    pageOf(kind)
      .then((read) => {
        if (!ended.signal.aborted) setHistory({ ...read, next: read.next ?? null });
      })
      .catch((error: unknown) => {
        if (!ended.signal.aborted) setMessage({ ok: false, text: messageOf(error) });
      });
    return () => {
      ended.abort();
    };
  }, [kind, reloads, published]);

  return (
    <section className="admin-history" aria-labelledby={headingId}>
      <h2 id={headingId}>Historique : {title}</h2>
      {history === null ? (
        message === null ? (
          <StatusMessage kind="loading">Chargement de l’historique ...</StatusMessage>
        ) : null
      ) : (
        <ol className="admin-history__list">
          {history.versions.map((version) => (
            <li key={version.id}>
              <span>
                {dateOf(version.savedAt)}, par {version.by}
                {version.restoredFrom === undefined ? '' : ' (version rétablie)'}
                {version.id === history.current ? ' : en ligne' : ''}
              </span>
              {version.id === history.current ? null : (
                <button
                  type="button"
                  className="button"
                  aria-label={`Rétablir la version du ${dateOf(version.savedAt)}, par ${version.by}`}
                  onClick={() => {
                    call<{ version: { savedAt: string } }>('POST', restorePath, { id: version.id })
                      .then(() => {
                        setMessage({
                          ok: true,
                          text: `Version du ${dateOf(version.savedAt)} rétablie : elle est en ligne.`,
                        });
                        setReloads((count) => count + 1);
                        onRestored();
                      })
                      .catch((error: unknown) => {
                        setMessage({ ok: false, text: messageOf(error) });
                      });
                  }}
                >
                  Rétablir
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {history?.next == null ? null : (
        <button
          type="button"
          className="button"
          disabled={older}
          onClick={() => {
            const { next } = history;
            if (next === null) return;
            setOlder(true);
            pageOf(kind, next)
              .then((read) => {
                setHistory((shown) =>
                  shown === null || shown.next !== next
                    ? shown
                    : { ...shown, versions: [...shown.versions, ...read.versions], next: read.next ?? null },
                );
              })
              .catch((error: unknown) => {
                setMessage({ ok: false, text: messageOf(error) });
              })
              .finally(() => {
                setOlder(false);
              });
          }}
        >
          {older ? 'Chargement ...' : 'Versions plus anciennes'}
        </button>
      )}
      <div aria-live="polite">
        {message === null ? null : (
          <p
            className={`admin-outcome ${message.ok ? 'admin-outcome--ok' : 'admin-outcome--error'}`}
            role={message.ok ? 'status' : 'alert'}
          >
            {message.text}
          </p>
        )}
      </div>
    </section>
  );
}
