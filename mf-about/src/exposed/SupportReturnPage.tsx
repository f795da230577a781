import { useEffect, useRef, type RefObject } from 'react';
import {
  useResidenceQuery,
  useSearchParams,
  type PageDefinition,
  type PageRoute,
  type RemoteContract,
} from '@collectif/shared';
import type { SupportPayment } from '@collectif/shared/schemas/support';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import { scrollToTop, StatusMessage } from '@collectif/shared/ui';
import { supportApi, useSupportReturnQuery } from '../support/api';
import { euros } from '../support/amount';
import { returnQuery } from '../support/returnQuery';
import '../support/support.css';

/*
 * /soutenir/merci (docs/support.md, « The page »): where HelloAsso sends the visitor back, with its
 * query (checkoutIntentId, code, orderId, error). The page says « Merci ! » only once the site has
 * read the payment back from HelloAsso (GET /api/support/retour), never from the query; a refused
 * or unfinished payment is said in French, with the way to try again.
 */

function SupportReturnPage() {
  const [search] = useSearchParams();
  const asked = returnQuery(search);
  const payment = useSupportReturnQuery(asked);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    scrollToTop();
  }, []);
  const state = payment.data?.state;
  // The outcome, once known, is where the visitor's focus goes: it is what the page is for.
  useEffect(() => {
    if (state !== undefined) heading.current?.focus();
  }, [state]);
  if (payment.data !== undefined) return <Outcome payment={payment.data} heading={heading} />;
  return (
    <div className="page support-page support-return">
      <h1>Votre paiement</h1>
      {unknownPayment(payment.error) ? (
        <>
          <StatusMessage kind="error">
            Ce paiement est inconnu de HelloAsso, ou n’a pas été fait depuis ce site : rien n’a été prélevé par ce lien.
          </StatusMessage>
          <p>
            <PageLink className="button" page={PAGES.support}>
              Nous soutenir
            </PageLink>
          </p>
        </>
      ) : payment.isError ? (
        <StatusMessage
          kind="error"
          onRetry={() => {
            void payment.refetch();
          }}
        >
          Le paiement ne peut pas être vérifié auprès de HelloAsso pour le moment. Réessayez dans un instant : s’il a
          abouti, HelloAsso vous a envoyé un reçu par e-mail.
        </StatusMessage>
      ) : (
        <StatusMessage kind="loading">Vérification du paiement auprès de HelloAsso ...</StatusMessage>
      )}
    </div>
  );
}

/** The site says it knows no such payment (404): asking again would say the same. */
const unknownPayment = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 404;

function Outcome({ payment, heading }: { payment: SupportPayment; heading: RefObject<HTMLHeadingElement | null> }) {
  const residence = useResidenceQuery(payment.residence ?? '', { skip: payment.residence === undefined }).data;
  const artist = residence?.artist;
  const again = payment.residence === undefined ? undefined : { residence: payment.residence };
  const what = payment.kind === 'adhesion' ? 'adhésion' : 'don';
  if (payment.state === 'paid') {
    return (
      <div className="page support-page support-return">
        <h1 ref={heading} tabIndex={-1}>
          Merci !
        </h1>
        <p className="support-intro__statement">
          {payment.kind === 'adhesion'
            ? 'Votre adhésion est enregistrée : bienvenue dans l’association.'
            : `Votre don${payment.amount === undefined ? '' : ` de ${euros(payment.amount)}`} est bien reçu${
                artist === undefined ? '' : `, au nom de ${artist}`
              }.`}
        </p>
        <p>HelloAsso vous envoie son reçu par e-mail. Toute l’équipe du collectif vous remercie.</p>
        <p>
          <PageLink className="button button--ghost" page={PAGES.home}>
            Retour à l’accueil
          </PageLink>
        </p>
      </div>
    );
  }
  const refused = payment.state === 'refused';
  return (
    <div className="page support-page support-return">
      <h1 ref={heading} tabIndex={-1}>
        {refused ? 'Paiement refusé' : 'Paiement non terminé'}
      </h1>
      <p className="support-intro__statement" role="alert">
        {refused
          ? `Le paiement de votre ${what} a été refusé : rien n’a été prélevé.`
          : `Le paiement de votre ${what} n’est pas allé jusqu’au bout : rien n’a été prélevé.`}
      </p>
      <p>Vous pouvez réessayer, avec la même carte ou une autre.</p>
      <p>
        <PageLink className="button" page={PAGES.support} search={again}>
          Réessayer
        </PageLink>
      </p>
    </div>
  );
}

export default SupportReturnPage satisfies RemoteContract['about']['SupportReturnPage'];

/** Its data and head, read alike by the server and the browser. */
export const page: PageDefinition = {
  load: ({ dispatch, query }) => [dispatch(supportApi.endpoints.supportReturn.initiate(returnQuery(query)))],
  head: ({ query, state }) => {
    const answer = supportApi.endpoints.supportReturn.select(returnQuery(query))(state).data;
    if (answer === undefined) return {};
    return {
      title:
        answer.state === 'paid' ? 'Merci !' : answer.state === 'refused' ? 'Paiement refusé' : 'Paiement non terminé',
    };
  },
};

/** Its address and names (docs/parts.md, « Pages »): a visitor's own payment, never indexed. */
export const route: PageRoute = {
  path: 'soutenir/merci',
  title: 'Votre paiement · Nous soutenir',
  description: 'Le paiement de votre adhésion ou de votre don, vérifié auprès de HelloAsso.',
  area: 'La page de retour du paiement',
  noindex: true,
};
