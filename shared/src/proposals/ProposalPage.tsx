import { useEffect, useRef } from 'react';
import { mailto, useLocation, useSearchParams, type PageComponent, type PageDefinition } from '@collectif/shared';
import { PageLink } from '../addresses/PageLink';
import { PAGES } from '../addresses/paths';
import { scrollToTop } from '../ui/scroll';
import { proposalsApi, useProposalDraftQuery, type ProposalKind } from './api';
import { KINDS, NUMBER_PATTERN, type KindText } from './kinds';
import { ProposalForm } from './ProposalForm';
import './proposals.css';

/*
 * A proposal's page (docs/proposals.md, « The pages »): the form at `<page>`, « Merci ! » at
 * `<page>/merci?numero=…`, and the proposer's deletion at `<page>/supprimer?numero=…&jeton=…`
 * (the link of their acknowledgement; a GET never deletes, the button posts). One module per
 * kind in its part: mf-radio's ProposeShowPage, mf-label's SendDemoPage.
 */

type View = 'form' | 'thanks' | 'delete';

const viewOf = (pathname: string): View =>
  pathname.endsWith('/merci') ? 'thanks' : pathname.endsWith('/supprimer') ? 'delete' : 'form';

/** `?brouillon=<id>`: a form the server refused and kept. */
const draftParam = (query: URLSearchParams): string | null => {
  const id = query.get('brouillon');
  return id !== null && /^[\w-]{8,64}$/.test(id) ? id : null;
};

export function ProposalPage({ kind }: { kind: ProposalKind }) {
  const text = KINDS[kind];
  const { pathname } = useLocation();
  const view = viewOf(pathname);
  useEffect(() => {
    scrollToTop();
  }, [view]);
  return (
    <div className="page proposal-page">
      {view === 'thanks' ? (
        <Thanks text={text} />
      ) : view === 'delete' ? (
        <Delete text={text} />
      ) : (
        <FormView text={text} />
      )}
    </div>
  );
}

function FormView({ text }: { text: KindText }) {
  const [search] = useSearchParams();
  const draftId = draftParam(search);
  const draft = useProposalDraftQuery(draftId ?? '', { skip: draftId === null });
  const expired = draftId !== null && draft.isError;
  const refusal = expired ? 'draft' : search.get('erreur');
  const waiting = draftId !== null && draft.isLoading;
  return (
    <>
      <header className="proposal-intro">
        <h1>{text.title}</h1>
        <p className="proposal-intro__statement">{text.intro}</p>
        <p>
          <strong>{text.next}</strong>
        </p>
        <p>
          Vous préférez l’e-mail ? Écrivez à <a href={mailto(text.email)}>{text.email}</a>.
        </p>
      </header>
      {expired ? (
        <p className="proposal-error" role="alert">
          Ce formulaire a expiré : remplissez-le de nouveau.
        </p>
      ) : null}
      {waiting ? null : (
        <ProposalForm
          key={draft.data === undefined ? 'vide' : (draftId ?? 'vide')}
          text={text}
          draft={draft.data}
          refusal={expired ? null : refusal}
        />
      )}
      <p className="proposal-privacy">
        Votre proposition est gardée douze mois au plus, puis effacée ; le lien de l’e-mail de confirmation, ou un mot à{' '}
        <a href={mailto(text.email)}>{text.email}</a>, l’efface à tout moment.
      </p>
    </>
  );
}

function Thanks({ text }: { text: KindText }) {
  const [search] = useSearchParams();
  const raw = search.get('numero') ?? '';
  const number = NUMBER_PATTERN.test(raw) ? raw : null;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <section className="proposal-thanks" aria-labelledby="proposition-merci">
      <h1 id="proposition-merci" ref={heading} tabIndex={-1}>
        Merci !
      </h1>
      {number === null ? (
        <p className="proposal-intro__statement">Votre {text.what} est bien reçue.</p>
      ) : (
        <p className="proposal-intro__statement">
          Votre {text.what} est bien reçue, sous le numéro <strong className="proposal-number">{number}</strong> :
          rappelez-le si vous nous écrivez.
        </p>
      )}
      <p>{text.next}</p>
      {search.get('courriel') === 'non' ? (
        <p>
          Ce site n’envoie pas d’e-mail : pour retirer votre proposition, écrivez à{' '}
          <a href={mailto(text.email)}>{text.email}</a> en rappelant son numéro.
        </p>
      ) : search.get('courriel') === 'deja' ? (
        <p>
          Un e-mail de confirmation est déjà parti vers cette adresse aujourd’hui : elle n’en reçoit pas d’autre. Pour
          retirer cette proposition-ci, écrivez à <a href={mailto(text.email)}>{text.email}</a> en rappelant son numéro.
        </p>
      ) : (
        <p>Un e-mail de confirmation vous est envoyé, avec un lien pour retirer votre proposition à tout moment.</p>
      )}
      <p>
        <PageLink className="button button--ghost" page={PAGES.home}>
          Retour à l’accueil
        </PageLink>
      </p>
    </section>
  );
}

function Delete({ text }: { text: KindText }) {
  const [search] = useSearchParams();
  const raw = search.get('numero') ?? '';
  const number = NUMBER_PATTERN.test(raw) ? raw : null;
  const token = search.get('jeton') ?? '';
  const state = search.get('etat');
  return (
    <section className="proposal-thanks" aria-labelledby="proposition-supprimer">
      <h1 id="proposition-supprimer">Retirer une proposition</h1>
      {state === 'supprimee' ? (
        <p className="proposal-intro__statement" role="status">
          La proposition {number ?? ''} est supprimée : il n’en reste rien chez nous.
        </p>
      ) : state === 'introuvable' || number === null || token === '' ? (
        <p className="proposal-intro__statement" role="status">
          Cette proposition n’existe plus, ou ce lien n’est pas le bon.
        </p>
      ) : (
        <form method="post" action="/api/proposals/delete">
          <p>
            Supprimer la proposition <strong className="proposal-number">{number}</strong> ? L’équipe ne pourra plus la
            lire.
          </p>
          <input type="hidden" name="number" value={number} />
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="button">
            Supprimer ma proposition
          </button>
        </form>
      )}
      <p>
        Une question ? Écrivez à <a href={mailto(text.email)}>{text.email}</a>.
      </p>
    </section>
  );
}

/**
 * Its data, read alike by the server and the browser: a refused form's draft. The challenge is the
 * script's, asked on the form's first focus; the form without JavaScript carries the single-use token
 * its page's cookie gives (docs/proposals.md, « Spam »), so the page holds nothing of one visitor's.
 */
export const proposalPage = (kind: ProposalKind): PageDefinition => ({
  load: ({ dispatch, query }) => {
    // The thanks and deletion pages carry the number; only the form reads a draft.
    if (query.has('numero')) return [];
    const draftId = draftParam(query);
    return draftId === null ? [] : [dispatch(proposalsApi.endpoints.proposalDraft.initiate(draftId))];
  },
  head: ({ href, query }) => {
    const canonical = href(KINDS[kind].page);
    // A refused form is a visitor's own text: never indexed.
    const own = query.has('brouillon') || query.has('erreur');
    return { ...(canonical === null ? {} : { canonicalPath: canonical }), ...(own ? { noindex: true } : {}) };
  },
});

/**
 * A proposal page's module, one shape for both (mf-radio's ProposeShowPage, mf-label's SendDemoPage):
 * its component and its definition. Its route stays a literal in the module, read by the build
 * (docs/parts.md, « Pages »).
 */
export function proposalPageModule(kind: ProposalKind): { Page: PageComponent; page: PageDefinition } {
  const Page = () => <ProposalPage kind={kind} />;
  return { Page, page: proposalPage(kind) };
}
