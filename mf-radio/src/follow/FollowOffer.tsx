import type { ResidenceSummary } from '@collectif/shared';

/**
 * What a shared link (`?suivre=a,b`, « Copier mon lien ») offers: the residences of the collective
 * it names that this browser does not follow yet. Never followed without the visitor's click.
 */
export function FollowOffer({
  offered,
  onAccept,
  onDismiss,
}: {
  /** The residences the link names that the site knows and that are not followed yet. */
  offered: readonly ResidenceSummary[];
  onAccept: () => void;
  onDismiss: () => void;
}) {
  const count = offered.length;
  return (
    <section className="follow-offer" aria-labelledby="suivre-ce-lien">
      <h2 id="suivre-ce-lien">{count === 0 ? 'Rien de nouveau à suivre' : 'Suivre ces résidences ?'}</h2>
      {count === 0 ? (
        <p>Ce lien ne propose aucune résidence que vous ne suivez pas déjà.</p>
      ) : (
        <>
          <p>
            {count === 1
              ? 'Ce lien propose de suivre une résidence :'
              : `Ce lien propose de suivre ${String(count)} résidences :`}
          </p>
          <ul>
            {offered.map((residence) => (
              <li key={residence.id}>
                {residence.artist} · {residence.show}
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="followed__actions">
        {count === 0 ? null : (
          <button type="button" className="button" onClick={onAccept}>
            {count === 1 ? 'Suivre cette résidence' : `Suivre ces ${String(count)} résidences`}
          </button>
        )}
        <button type="button" className="button button--ghost" onClick={onDismiss}>
          {count === 0 ? 'Fermer' : 'Non merci'}
        </button>
      </p>
    </section>
  );
}
