import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from '@collectif/shared';
import { call, messageOf, type Me } from './call';
import { NUMBER_PATTERN } from '@collectif/shared/proposals/number';
import {
  STATES,
  type EditorProposal,
  type EditorProposalList,
  type ProposalKind,
  type ProposalState,
} from '@collectif/shared/proposals/schema';

/*
 * « Propositions » (docs/proposals.md, « In the editor »): the proposals of shows and the demos the
 * volunteer's role sees, newest first, filtered by kind and state; each one's links as links out,
 * its state, the volunteers' notes signed with their names, « Répondre » in the volunteer's own mail
 * client, and its deletion. Every field is the public's text: shown as React's text nodes, never as
 * HTML, and a link only when it is an https address. The list comes a page at a time (« Afficher les
 * plus anciennes »); the team's e-mail links to the editor with `?numero=`, and that proposal is
 * shown first.
 */

export type { EditorProposal };

/** The roles that see proposals, and which kinds (the server checks it again on every request). */
export const PROPOSAL_KINDS: Partial<Record<Me['role'], readonly ProposalKind[]>> = {
  admin: ['emission', 'demo'],
  programmation: ['emission'],
  label: ['demo'],
};

const KIND_NAMES: Record<ProposalKind, string> = { emission: 'Émissions', demo: 'Démos' };

const when = (iso: string): string =>
  new Date(iso).toLocaleString('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });

/** An https address, as the server keeps only those; anything else is shown as text. */
const httpsLink = (text: string): boolean => {
  try {
    return new URL(text).protocol === 'https:';
  } catch {
    return false;
  }
};

/** « Répondre »: the volunteer's own mail client, with the contact, the subject and the text. */
export const replyHref = (proposal: EditorProposal): string =>
  `mailto:${encodeURIComponent(proposal.email).replace('%40', '@')}?subject=${encodeURIComponent(
    proposal.reply.subject,
  )}&body=${encodeURIComponent(proposal.reply.text)}`;

const MAIL_NAMES: Record<string, string> = {
  sent: 'envoyé',
  waiting: 'en attente',
  failed: 'abandonné après ses essais',
  off: 'coupé',
  skipped: 'non envoyé : un accusé était déjà parti vers cette adresse ce jour-là',
};

export function Proposals({ role }: { role: Me['role'] }) {
  const kinds = PROPOSAL_KINDS[role] ?? [];
  const [search] = useSearchParams();
  const asked = search.get('numero') ?? '';
  const [kind, setKind] = useState<ProposalKind | ''>(kinds.length === 1 ? (kinds[0] ?? '') : '');
  const [state, setState] = useState<ProposalState | ''>('');
  const [answer, setAnswer] = useState<EditorProposalList | null>(null);
  const [named, setNamed] = useState<EditorProposal | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [more, setMore] = useState(false);

  const read = useCallback(
    (after: string | null) => {
      const query = new URLSearchParams();
      if (kind !== '') query.set('kind', kind);
      if (state !== '') query.set('state', state);
      if (after !== null) query.set('apres', after);
      call<EditorProposalList>('GET', `/editor/proposals?${query.toString()}`)
        .then((page) => {
          setAnswer((current) =>
            after === null || current === null
              ? page
              : { ...page, proposals: [...current.proposals, ...page.proposals] },
          );
          setError(null);
        })
        .catch((failure: unknown) => {
          setError(messageOf(failure));
        })
        .finally(() => {
          setMore(false);
        });
    },
    [kind, state, setMore],
  );

  useEffect(() => {
    read(null);
  }, [read]);

  // The proposal the team's e-mail names (`?numero=`), read on its own: it may be pages away.
  useEffect(() => {
    if (!NUMBER_PATTERN.test(asked)) return;
    call<{ proposal: EditorProposal }>('GET', `/editor/proposals/${encodeURIComponent(asked)}`)
      .then(({ proposal }) => {
        setNamed(proposal);
      })
      .catch((failure: unknown) => {
        setError(messageOf(failure));
      });
  }, [asked]);

  const replace = (next: EditorProposal) => {
    setNamed((current) => (current?.number === next.number ? next : current));
    setAnswer((current) =>
      current === null
        ? current
        : { ...current, proposals: current.proposals.map((each) => (each.number === next.number ? next : each)) },
    );
  };
  const remove = (number: string) => {
    setNamed((current) => (current?.number === number ? null : current));
    setAnswer((current) =>
      current === null
        ? current
        : { ...current, proposals: current.proposals.filter((each) => each.number !== number) },
    );
  };
  const listed = answer?.proposals.filter((each) => each.number !== named?.number) ?? [];

  return (
    <section className="admin-proposals" aria-labelledby="propositions-titre">
      <h2 id="propositions-titre">Propositions</h2>
      {answer?.mail === 'off' ? (
        <p className="admin-proposals__mail">
          L’envoi d’e-mails est coupé sur ce site (aucun serveur SMTP) : ni l’équipe ni les personnes qui proposent ne
          reçoivent d’e-mail. « Répondre » est la seule réponse.
        </p>
      ) : null}
      <div className="admin-proposals__filters">
        {kinds.length < 2 ? null : (
          <Filter label="Type" all="Toutes" value={kind} choices={kinds} names={KIND_NAMES} onChange={setKind} />
        )}
        <Filter label="État" all="Tous" value={state} choices={STATES} onChange={setState} />
      </div>
      {error === null ? null : (
        <p className="admin-outcome admin-outcome--error" role="alert">
          {error}
        </p>
      )}
      {named === null ? null : <Named proposal={named} onChanged={replace} onDeleted={remove} />}
      {answer === null ? null : listed.length === 0 && named === null ? (
        <p>Aucune proposition.</p>
      ) : (
        <ol className="admin-proposals__list">
          {listed.map((proposal) => (
            <li key={proposal.number}>
              <ProposalView proposal={proposal} onChanged={replace} onDeleted={remove} />
            </li>
          ))}
        </ol>
      )}
      {answer?.next == null ? null : (
        <p>
          <button
            type="button"
            className="button button--ghost"
            disabled={more}
            onClick={() => {
              setMore(true);
              read(answer.next);
            }}
          >
            Afficher les plus anciennes
          </button>
        </p>
      )}
    </section>
  );
}

/** A filter of the list: one of `choices`, or all of them (''). */
function Filter<T extends string>({
  label,
  all,
  value,
  choices,
  names,
  onChange,
}: {
  label: string;
  all: string;
  value: T | '';
  choices: readonly T[];
  names?: Readonly<Record<T, string>>;
  onChange: (next: T | '') => void;
}) {
  const id = useId();
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          onChange(event.target.value as T | '');
        }}
      >
        <option value="">{all}</option>
        {choices.map((each) => (
          <option key={each} value={each}>
            {names?.[each] ?? each}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The proposal the team's e-mail links to (`?numero=`): first, its heading focused, the list below. */
function Named(props: { proposal: EditorProposal } & Changes) {
  return (
    <div className="admin-proposals__named" role="region" aria-label="Proposition demandée">
      <ProposalView {...props} focused />
    </div>
  );
}

interface Changes {
  onChanged: (next: EditorProposal) => void;
  onDeleted: (number: string) => void;
}

function ProposalView({
  proposal,
  onChanged,
  onDeleted,
  focused = false,
}: { proposal: EditorProposal; focused?: boolean } & Changes) {
  const base = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focused) heading.current?.focus();
  }, [focused]);
  const [note, setNote] = useState('');
  const [said, setSaid] = useState<{ error: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const path = `/editor/proposals/${encodeURIComponent(proposal.number)}`;
  const failed = (failure: unknown) => {
    setSaid({ error: true, text: messageOf(failure) });
  };
  return (
    <article className="admin-proposal" aria-labelledby={`${base}-titre`}>
      <h3 id={`${base}-titre`} ref={heading} tabIndex={focused ? -1 : undefined}>
        <span className="admin-proposal__number">{proposal.number}</span> {proposal.name}
      </h3>
      <dl className="admin-proposal__facts">
        <dt>Reçue le</dt>
        <dd>{when(proposal.createdAt)}</dd>
        <dt>{proposal.kind === 'emission' ? 'Qui la fait' : 'Qui le fait'}</dt>
        <dd>{proposal.makers}</dd>
        <dt>Style</dt>
        <dd>{proposal.style}</dd>
        {proposal.when === undefined ? null : (
          <>
            <dt>Rythme et disponibilités</dt>
            <dd>{proposal.when}</dd>
          </>
        )}
        <dt>Contact</dt>
        <dd>{proposal.email}</dd>
        <dt>E-mails</dt>
        <dd>
          équipe : {MAIL_NAMES[proposal.mails.team] ?? proposal.mails.team} ; accusé de réception :{' '}
          {MAIL_NAMES[proposal.mails.ack] ?? proposal.mails.ack}
        </dd>
      </dl>
      <h4>Écouter</h4>
      <ul className="admin-proposal__links">
        {proposal.links.map((link) => (
          <li key={link}>
            {httpsLink(link) ? (
              <a href={link} target="_blank" rel="noopener noreferrer">
                {link}
              </a>
            ) : (
              link
            )}
          </li>
        ))}
      </ul>
      {proposal.message === '' ? null : (
        <>
          <h4>Message</h4>
          <p className="admin-proposal__message">{proposal.message}</p>
        </>
      )}
      <div className="admin-field">
        <label htmlFor={`${base}-etat`}>État de {proposal.number}</label>
        <select
          id={`${base}-etat`}
          value={proposal.state}
          onChange={(event) => {
            call<{ proposal: EditorProposal }>('PUT', `${path}/state`, { state: event.target.value })
              .then(({ proposal: next }) => {
                onChanged(next);
                setSaid({ error: false, text: `État : ${next.state}.` });
              })
              .catch(failed);
          }}
        >
          {STATES.map((each) => (
            <option key={each} value={each}>
              {each}
            </option>
          ))}
        </select>
      </div>
      <p>
        <a className="button button--ghost" href={replyHref(proposal)}>
          Répondre
        </a>
      </p>
      <h4>Notes de l’équipe</h4>
      {proposal.notes.length === 0 ? (
        <p>Aucune note.</p>
      ) : (
        <ul className="admin-proposal__notes">
          {proposal.notes.map((each, index) => (
            <li key={`${each.at}-${String(index)}`}>
              <p className="admin-proposal__message">{each.text}</p>
              <p className="admin-proposal__signed">
                {each.author}, {when(each.at)}
              </p>
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (note.trim() === '') return;
          call<{ proposal: EditorProposal }>('POST', `${path}/notes`, { text: note })
            .then(({ proposal: next }) => {
              onChanged(next);
              setNote('');
              setSaid({ error: false, text: 'Note ajoutée.' });
            })
            .catch(failed);
        }}
      >
        <div className="admin-field">
          <label htmlFor={`${base}-note`}>Ajouter une note (interne, signée de votre nom)</label>
          <textarea
            id={`${base}-note`}
            value={note}
            maxLength={2000}
            rows={3}
            onChange={(event) => {
              setNote(event.target.value);
            }}
          />
        </div>
        <button type="submit" className="button">
          Ajouter la note
        </button>
      </form>
      <p>
        {confirming ? (
          <button
            type="button"
            className="button"
            onClick={() => {
              call('DELETE', path)
                .then(() => {
                  onDeleted(proposal.number);
                })
                .catch(failed);
            }}
          >
            Confirmer la suppression de {proposal.number}
          </button>
        ) : (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              setConfirming(true);
            }}
          >
            Supprimer
          </button>
        )}
      </p>
      <p
        className={said?.error === true ? 'admin-outcome admin-outcome--error' : 'admin-outcome'}
        role="status"
        aria-live="polite"
      >
        {said?.text}
      </p>
    </article>
  );
}
