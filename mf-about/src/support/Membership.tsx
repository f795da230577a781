import { ExternalLink } from '@collectif/shared/ui';
import { euros } from './amount';
import { askRedirect } from './send';
import { Leaving, useLeave } from './leave';

/*
 * « Adhérer » (docs/support.md, « The page »): the tiers of the year's membership form, each leading
 * to that form's own HelloAsso page (a membership is an order of the form, which a checkout cannot
 * make). Each tier is a link to the form, so it works without JavaScript; with it, the site is asked
 * first (POST /api/support/adhesion), which checks the tier and answers the page to go to.
 */

export interface Tier {
  id: number;
  label: string;
  price: number;
  description?: string | undefined;
}

export function Membership({
  membership,
  external,
}: {
  membership: { formUrl: string; tiers: readonly Tier[] } | null;
  external: string;
}) {
  const leave = useLeave();
  if (membership === null || membership.tiers.length === 0) {
    return (
      <div className="support-unavailable">
        <p>Les formules d’adhésion ne peuvent pas être lues sur HelloAsso pour le moment.</p>
        {external === '' ? null : (
          <ExternalLink className="button button--ghost" href={external}>
            Adhérer sur notre page de soutien
          </ExternalLink>
        )}
      </div>
    );
  }
  return (
    <>
      <ul className="support-tiers">
        {membership.tiers.map((tier) => (
          <li key={tier.id} className="support-tier">
            <h3>{tier.label}</h3>
            <p className="support-tier__price">{tier.price === 0 ? 'Prix libre' : euros(tier.price)}</p>
            {tier.description === undefined || tier.description === '' ? null : (
              <p className="support-tier__description">{tier.description}</p>
            )}
            <a
              className="button"
              href={membership.formUrl}
              aria-label={`Adhérer : ${tier.label}, ${tier.price === 0 ? 'prix libre' : euros(tier.price)}`}
              aria-disabled={leave.busy ? true : undefined}
              onClick={(event) => {
                event.preventDefault();
                if (leave.busy) return;
                leave.start(askRedirect('/support/adhesion', { tier: tier.id }));
              }}
            >
              Adhérer
            </a>
          </li>
        ))}
      </ul>
      <Leaving leave={leave} />
    </>
  );
}
