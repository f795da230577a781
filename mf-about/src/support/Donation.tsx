import { useId, useRef, useState } from 'react';
import { euros, readAmount } from './amount';
import { askRedirect } from './send';
import { Leaving, useLeave } from './leave';

/*
 * « Faire un don » (docs/support.md, « The page »): a suggested amount or a free one within the
 * site's bounds, for the collective or for a residence. A one-off gift goes through the checkout
 * intent the site creates (POST /api/support/don) and the visitor is sent to HelloAsso's payment
 * page; a monthly gift is the donation form's own page. A wrong amount is said beside the field,
 * and nothing is sent.
 */

export interface DonationBounds {
  suggested: readonly number[];
  min: number;
  max: number;
  monthlyUrl: string;
}

const OTHER = 'autre';

export function Donation({
  donation,
  residence,
}: {
  donation: DonationBounds;
  /** The residence the gift names, when the page was opened for one. */
  residence: { id: string; artist: string } | null;
}) {
  const ids = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const suggested = donation.suggested.filter((cents) => cents >= donation.min && cents <= donation.max);
  const [choice, setChoice] = useState<string>(suggested[1] === undefined ? OTHER : String(suggested[1]));
  const [typed, setTyped] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const leave = useLeave();
  const amount = choice === OTHER ? readAmount(typed, donation) : Number(choice);
  const otherId = `${ids}-autre`;
  const hintId = `${ids}-aide`;
  const errorId = `${ids}-erreur`;
  const give = () => {
    if (leave.busy) return;
    leave.clearError();
    if (typeof amount !== 'number') {
      setFieldError(amount.error);
      inputRef.current?.focus();
      return;
    }
    setFieldError(null);
    leave.start(askRedirect('/support/don', { amount, ...(residence === null ? {} : { residence: residence.id }) }));
  };
  return (
    <>
      <form
        className="support-donation"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          give();
        }}
      >
        <fieldset>
          <legend>Montant du don</legend>
          <div className="support-amounts">
            {suggested.map((cents) => (
              <label key={cents} className="support-amount">
                <input
                  type="radio"
                  name="montant"
                  value={String(cents)}
                  checked={choice === String(cents)}
                  onChange={() => {
                    setChoice(String(cents));
                    setFieldError(null);
                  }}
                />
                <span>{euros(cents)}</span>
              </label>
            ))}
            <label className="support-amount">
              <input
                type="radio"
                name="montant"
                value={OTHER}
                checked={choice === OTHER}
                onChange={() => {
                  setChoice(OTHER);
                  inputRef.current?.focus();
                }}
              />
              <span>Autre montant</span>
            </label>
          </div>
          <div className="support-other">
            <label htmlFor={otherId}>Autre montant, en euros</label>
            <input
              ref={inputRef}
              id={otherId}
              type="text"
              inputMode="decimal"
              autoComplete="off"
              value={typed}
              aria-invalid={fieldError === null ? undefined : true}
              aria-describedby={fieldError === null ? hintId : `${hintId} ${errorId}`}
              onFocus={() => {
                setChoice(OTHER);
              }}
              onChange={(event) => {
                setTyped(event.target.value);
                setChoice(OTHER);
                setFieldError(null);
              }}
            />
            <p className="support-hint" id={hintId}>
              Entre {euros(donation.min)} et {euros(donation.max)}, par exemple 15 ou 12,50.
            </p>
            {fieldError === null ? null : (
              <p className="support-error" id={errorId} role="alert">
                {fieldError}
              </p>
            )}
          </div>
        </fieldset>
        {/* A button, not a submit: a tap before the page's scripts run is kept by the loader and
            pressed once they have (docs/first-screen.md, « Nothing lost before the scripts arrive »),
            where a submit would reload the page. Enter in the field still gives (onSubmit). */}
        <button type="button" className="button" disabled={leave.busy} onClick={give}>
          {typeof amount === 'number' ? `Donner ${euros(amount)}` : 'Donner'}
          {residence === null ? '' : ` pour ${residence.artist}`}
        </button>
      </form>
      <Leaving leave={leave} />
      {donation.monthlyUrl === '' ? null : (
        <p className="support-monthly">
          Envie de donner chaque mois ? Un don mensuel se fait sur le formulaire de dons du collectif chez HelloAsso.{' '}
          <a href={donation.monthlyUrl}>Donner chaque mois</a>
        </p>
      )}
    </>
  );
}
