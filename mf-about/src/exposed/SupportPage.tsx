import { useEffect } from 'react';
import {
  api,
  siteConfig,
  useResidenceQuery,
  useSearchParams,
  type PageDefinition,
  type PageRoute,
  type RemoteContract,
} from '@collectif/shared';
import type { SupportInfo } from '@collectif/shared/schemas/support';
import { PAGES } from '@collectif/shared/addresses';
import { ExternalLink, scrollToTop, StatusMessage } from '@collectif/shared/ui';
import { supportApi, useSupportQuery } from '../support/api';
import { Donation } from '../support/Donation';
import { Membership } from '../support/Membership';
import { Progress } from '../support/Progress';
import { residenceParam } from '../support/residence';
import '../support/support.css';

/*
 * /soutenir (docs/support.md, « The page »): memberships and gifts through HelloAsso, on the site.
 * The page reads GET /api/support (rendered by the server with it), and `?residence=<id>` names a
 * residence in a gift (« Soutenir Axonberg », from the residence's page). HelloAsso handles every
 * payment: the site never sees a card.
 */

function SupportPage() {
  const [search] = useSearchParams();
  const residenceId = residenceParam(search);
  const support = useSupportQuery(undefined);
  useEffect(() => {
    scrollToTop();
  }, []);
  let body;
  if (support.data !== undefined) body = <SupportView support={support.data} residenceId={residenceId} />;
  else if (support.isError)
    body = (
      <>
        <StatusMessage
          kind="error"
          onRetry={() => {
            void support.refetch();
          }}
        >
          Les adhésions et les dons ne peuvent pas être affichés pour le moment. Réessayez dans un instant.
        </StatusMessage>
        <p>
          <ExternalLink className="button button--ghost" href={siteConfig.links.donation}>
            Nous soutenir sur notre page externe
          </ExternalLink>
        </p>
      </>
    );
  else body = <StatusMessage kind="loading">Chargement des adhésions et des dons ...</StatusMessage>;
  return (
    <div className="page support-page">
      <header className="support-intro">
        <h1>Nous soutenir</h1>
        <p className="support-intro__statement">
          {siteConfig.name} est une association loi 1901 qui se finance elle-même. Adhérer ou donner, c’est faire vivre
          la radio, le label et les soirées.
        </p>
      </header>
      {body}
    </div>
  );
}

/** The residence the address names: null when none, its name when the site knows it. */
function useNamedResidence(id: string | null) {
  const asked = useResidenceQuery(id ?? '', { skip: id === null });
  if (id === null) return { named: null, unknown: false };
  const residence = asked.data;
  if (residence === undefined) return { named: null, unknown: false };
  return residence === null
    ? { named: null, unknown: true }
    : { named: { id: residence.id, artist: residence.artist }, unknown: false };
}

function SupportView({ support, residenceId }: { support: SupportInfo; residenceId: string | null }) {
  const { named, unknown } = useNamedResidence(residenceId);
  if (!support.helloasso) {
    return (
      <section className="support-section" aria-labelledby="soutien-externe">
        <h2 id="soutien-externe">Adhérer ou donner</h2>
        <p>Les adhésions et les dons passent pour le moment par notre page de soutien.</p>
        <ExternalLink className="button" href={support.external === '' ? siteConfig.links.donation : support.external}>
          Nous soutenir sur notre page externe
        </ExternalLink>
      </section>
    );
  }
  const gift = (
    <section className="support-section" aria-labelledby="soutien-don">
      <h2 id="soutien-don">{named === null ? 'Faire un don' : `Soutenir ${named.artist}`}</h2>
      {named === null ? null : (
        <p>
          Votre don va au collectif au nom de {named.artist} : l’équipe de la résidence voit combien de dons elle a
          reçus cette année, jamais qui les a faits ni leurs montants.
        </p>
      )}
      {unknown ? (
        <p className="support-note" role="status">
          Aucune résidence ne porte ce nom : votre don ira au collectif.
        </p>
      ) : null}
      <Donation donation={support.donation} residence={named} />
    </section>
  );
  const membership = (
    <section className="support-section" aria-labelledby="soutien-adhesion">
      <h2 id="soutien-adhesion">Adhérer</h2>
      <p>
        L’adhésion vaut pour l’année : elle fait de vous un membre de l’association, invité·e à son assemblée générale.
      </p>
      <Membership membership={support.membership} external={support.external} />
    </section>
  );
  return (
    <>
      <section className="support-section" aria-labelledby="soutien-annee">
        <h2 id="soutien-annee" className="visually-hidden">
          L’année du collectif
        </h2>
        <Progress progress={support.progress} />
      </section>

      {/* A gift comes first when the address names a residence; else memberships, the year's
          progress being theirs. */}
      {residenceId === null ? (
        <>
          {membership}
          {gift}
        </>
      ) : (
        <>
          {gift}
          {membership}
        </>
      )}

      <section className="support-section support-helloasso" aria-labelledby="soutien-helloasso">
        <h2 id="soutien-helloasso">Le paiement, avec HelloAsso</h2>
        <p>
          HelloAsso est la plateforme de paiement des associations françaises, gratuite pour elles. Vous payez sur sa
          page sécurisée : le site du collectif ne voit jamais votre carte.
        </p>
        <p>
          Sa page de paiement vous propose une contribution volontaire à HelloAsso, qui la fait vivre. Elle est
          facultative : vous pouvez la mettre à 0 €.
        </p>
        <p>
          {support.taxReceipt
            ? 'Un reçu fiscal vous est envoyé : votre don ouvre droit à une réduction d’impôt.'
            : 'Le collectif n’est pas reconnu d’intérêt général : il ne délivre pas de reçu fiscal.'}
        </p>
      </section>
    </>
  );
}

export default SupportPage satisfies RemoteContract['about']['SupportPage'];

/** Its data and head, read alike by the server and the browser. */
export const page: PageDefinition = {
  load: ({ dispatch, query }) => {
    const residence = residenceParam(query);
    return [
      dispatch(supportApi.endpoints.support.initiate(undefined)),
      ...(residence === null ? [] : [dispatch(api.endpoints.residence.initiate(residence))]),
    ];
  },
  // The page's own query is a residence's name in a gift: the canonical page is /soutenir.
  head: ({ href }) => ({ canonicalPath: href(PAGES.support) ?? '/soutenir' }),
};

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'soutenir',
  title: 'Nous soutenir',
  description: 'Adhérer au collectif ou lui faire un don, avec HelloAsso.',
  area: 'La page Nous soutenir',
};
