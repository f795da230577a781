import { useState } from 'react';

/*
 * Leaving for HelloAsso's page once the site has answered it: the browser goes there at once, and
 * the page says where it goes with the link itself, for a browser that does not follow (a blocked
 * navigation, a visitor who wants to open it otherwise).
 */

export interface Leave {
  busy: boolean;
  target: string | null;
  /** The site's refusal of the last try, in its own words. */
  error: string | null;
  /** Forgets the last refusal (a new try begins). */
  clearError: () => void;
  /** Asks the site (the last refusal forgotten), then leaves for its answer or says its refusal. */
  start: (asked: Promise<{ redirectUrl: string } | { error: string }>) => void;
}

/**
 * Leaving, one way for the gift and the membership (docs/support.md, « The page »): busy while the
 * site is asked, then HelloAsso's page or the refusal.
 */
export function useLeave(): Leave {
  const [busy, setBusy] = useState(false);
  const [target, setTarget] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return {
    busy,
    target,
    error,
    clearError: () => {
      setError(null);
    },
    start: (asked) => {
      setError(null);
      setBusy(true);
      setTarget(null);
      void asked.then((answer) => {
        if ('error' in answer) {
          setBusy(false);
          setError(answer.error);
          return;
        }
        setTarget(answer.redirectUrl);
        window.location.assign(answer.redirectUrl);
      });
    },
  };
}

/** The refusal, or what the page says while the site is asked, then where the visitor goes: one live region. */
export function Leaving({ leave }: { leave: Leave }) {
  return (
    <div aria-live="polite">
      {leave.error === null ? null : (
        <p className="support-error" role="alert">
          {leave.error}
        </p>
      )}
      <Where leave={leave} />
    </div>
  );
}

function Where({ leave }: { leave: Leave }) {
  if (leave.target !== null) {
    return (
      <p className="support-leaving">
        Direction la page de HelloAsso ... <a href={leave.target}>Ouvrir la page de HelloAsso</a>
      </p>
    );
  }
  if (leave.busy) return <p className="support-leaving">Préparation de la page de HelloAsso ...</p>;
  return null;
}
