import { useState } from 'react';

/*
 * Leaving for HelloAsso's page once the site has answered it: the browser goes there at once, and
 * the page says where it goes with the link itself, for a browser that does not follow (a blocked
 * navigation, a visitor who wants to open it otherwise).
 */

export interface Leave {
  busy: boolean;
  target: string | null;
  start: (asked: Promise<{ redirectUrl: string } | { error: string }>, onError: (message: string) => void) => void;
}

export function useLeave(): Leave {
  const [busy, setBusy] = useState(false);
  const [target, setTarget] = useState<string | null>(null);
  return {
    busy,
    target,
    start: (asked, onError) => {
      setBusy(true);
      setTarget(null);
      void asked.then((answer) => {
        if ('error' in answer) {
          setBusy(false);
          onError(answer.error);
          return;
        }
        setTarget(answer.redirectUrl);
        window.location.assign(answer.redirectUrl);
      });
    },
  };
}

/** What the page says while the site is asked, then where the visitor goes. */
export function Leaving({ leave }: { leave: Leave }) {
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
