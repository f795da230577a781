import { useEffect, useId, useState } from 'react';
import { StatusMessage } from '@collectif/shared/ui';
import { call, messageOf } from './call';
import { dateOf } from './outcome';

/*
 * A kind's history (docs/content.md, « The history »): who saved what and when, newest first, and
 * any earlier version put back in one action (saved again as a new version that names it; the
 * history only grows). For the teams that save the whole kind; a resident has their form only.
 */

interface Record {
  id: string;
  by: string;
  savedAt: string;
  restoredFrom?: string;
}

/** The last versions shown; the folder keeps every one (an admin reaches the rest from the server). */
const SHOWN = 10;

export function History({
  kind,
  title,
  published,
  onRestored,
}: {
  kind: string;
  title: string;
  /** How many saves the form beside it has published: each one reads the history again. */
  published: number;
  onRestored: () => void;
}) {
  const headingId = useId();
  const [history, setHistory] = useState<{ current: string; versions: Record[] } | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const ended = new AbortController();
    call<{ current: string; versions: Record[] }>('GET', `/content/${kind}/history`)
      .then((read) => {
        if (!ended.signal.aborted) setHistory(read);
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
          {history.versions.slice(0, SHOWN).map((version) => (
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
                    call<{ version: { savedAt: string } }>('POST', `/content/${kind}/restore`, { id: version.id })
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
