import { useEffect, useId, useState } from 'react';
import { useFollowedIds } from '@collectif/shared/follow';
import { usePushChoices } from '@collectif/shared/follow/prevenir';
import { choose, pruneUnfollowed, renewIfDue } from './push';
import '../styles/push.css';

/*
 * « Me prévenir » (docs/follow.md, « Me prévenir »): a toggle beside « Suivre » and in « Mes
 * résidences ». Pressed, two choices: when the show starts, when a new episode is out (both on at
 * first). The permission is asked on the press, never on arrival. The « prevenir » chunk
 * (FollowButton.tsx, FollowedResidence.tsx).
 */

/** What the visitor reads once a change is done. */
const doneText = (artist: string, on: boolean) =>
  on ? `C’est noté : ce navigateur vous préviendra pour ${artist}.` : `Plus de notification pour ${artist}.`;

function BellIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
        d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15L6 16ZM10 20.5a2 2 0 0 0 4 0"
      />
    </svg>
  );
}

export interface PushToggleProps {
  id: string;
  artist: string;
  /** In a list: « Me prévenir : <artist> », one name per residence. */
  named?: boolean;
}

export default function PushToggle({ id, artist, named = false }: PushToggleProps) {
  const choices = usePushChoices();
  const followed = useFollowedIds();
  const choice = choices.find((kept) => kept.id === id);
  // A residence no longer followed is told no more (unfollowed on a card, or in another tab).
  useEffect(() => {
    if (choices.some((kept) => !followed.includes(kept.id))) void pruneUnfollowed();
  }, [choices, followed]);
  // The subscription renewed on the server about once a month (docs/push.md, « Renewal »).
  useEffect(() => {
    void renewIfDue();
  }, []);
  const [said, setSaid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A box ticked shows ticked at once, while the server is told; what it keeps shows after.
  const [pending, setPending] = useState<{ live: boolean; replay: boolean } | null>(null);
  const legendId = useId();

  const change = async (wanted: { live: boolean; replay: boolean } | null) => {
    if (busy) return;
    setBusy(true);
    setPending(choice === undefined ? null : wanted);
    setSaid(null);
    const problem = await choose(id, wanted);
    setBusy(false);
    setPending(null);
    const on = wanted !== null && (wanted.live || wanted.replay);
    setSaid(problem ?? (on && choice !== undefined ? `Choix enregistré pour ${artist}.` : doneText(artist, on)));
  };
  const on = choice !== undefined;
  const shown = pending ?? choice;
  return (
    <div className="push">
      <button
        type="button"
        className={on ? 'button push__button push__button--on' : 'button push__button'}
        aria-pressed={on}
        aria-label={named ? `Me prévenir : ${artist}` : undefined}
        aria-busy={busy}
        onClick={() => void change(on ? null : { live: true, replay: true })}
      >
        <BellIcon />
        Me prévenir
      </button>
      {on && shown !== undefined ? (
        <fieldset className="push__choices" aria-labelledby={legendId}>
          <legend id={legendId} className="visually-hidden">
            Me prévenir pour {artist}
          </legend>
          <label className="push__choice">
            <input
              type="checkbox"
              checked={shown.live}
              onChange={(event) => void change({ live: event.target.checked, replay: shown.replay })}
            />
            quand l’émission commence
          </label>
          <label className="push__choice">
            <input
              type="checkbox"
              checked={shown.replay}
              onChange={(event) => void change({ live: shown.live, replay: event.target.checked })}
            />
            quand une nouvelle émission est publiée
          </label>
        </fieldset>
      ) : null}
      <p className="push__said" role="status">
        {said}
      </p>
    </div>
  );
}
