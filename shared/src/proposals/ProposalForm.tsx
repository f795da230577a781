import { useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';
import { useNavigate } from '@collectif/shared';
import { callApi } from '../call';
import { usePageHref } from '../addresses/usePageHref';
import type { ProposalChallenge, ProposalDraft } from './api';
import { FIELD_MAX, FIELD_ORDER, type FieldName, type KindText } from './kinds';

/*
 * The proposal form (docs/proposals.md, « The pages »). A real form post first: `action` is the
 * API's form route, the hidden field `site` rides along (the form's single-use token is its page's
 * cookie: docs/proposals.md, « Spam »), and the server answers with
 * the thanks page or the form again (`?brouillon=`). With JavaScript, the same form is sent as JSON
 * with ALTCHA's proof of work, solved in the page (./solve, loaded on the form's first focus), and
 * the server's faults are said beside their fields, the focus on the first one.
 */

type Errors = Partial<Record<FieldName, string>>;

interface Props {
  text: KindText;
  draft: ProposalDraft | undefined;
  /** A refusal named by the address alone (`?erreur=`, the draft could not be kept). */
  refusal: string | null;
}

const REFUSALS: Record<string, string> = {
  refused: 'Envoi refusé : un champ caché a été rempli.',
  expired_form: 'Le formulaire a expiré ou est incomplet : rechargez la page, puis renvoyez-le.',
  form_used: 'Ce formulaire a déjà servi : rechargez la page, puis renvoyez votre proposition.',
  cross_site:
    'Envoi refusé : ce formulaire ne peut être envoyé que depuis les pages du site. Ouvrez la page du site, puis renvoyez-le.',
  full: 'Le site ne peut plus recevoir de propositions pour le moment : réessayez plus tard, ou écrivez-nous.',
  too_fast: 'Envoyé trop vite : relisez votre proposition quelques secondes, puis renvoyez-la.',
  too_many: 'Trop de propositions envoyées depuis ce réseau aujourd’hui : réessayez demain, ou écrivez-nous.',
  invalid: 'Certains champs sont à corriger.',
};

const fault = (code: string): string =>
  REFUSALS[code] ?? 'La proposition n’a pas pu être envoyée : réessayez dans un instant, ou écrivez-nous.';

/** The challenge's payload, solved; a new challenge when the last one was refused. */
async function proofOfWork(): Promise<{ payload: string; startedAt: string } | null> {
  const asked = await callApi('GET', '/proposals/challenge');
  if (!asked.ok) return null;
  const made = asked.data as ProposalChallenge;
  const { solvePayload } = await import(/* webpackChunkName: "proposals-solve" */ './solve');
  const payload = await solvePayload(made);
  return payload === null ? null : { payload, startedAt: made.startedAt };
}

export function ProposalForm({ text, draft, refusal }: Props) {
  const base = useId();
  const navigate = useNavigate();
  const href = usePageHref();
  const formRef = useRef<HTMLFormElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const work = useRef<Promise<{ payload: string; startedAt: string } | null> | null>(null);
  // The first challenge's `startedAt`: when the visitor began (the form's first focus), kept across
  // the retries of one proposal; the server takes it once.
  const started = useRef<string | null>(null);
  const [errors, setErrors] = useState<Errors>(() => draft?.fields ?? {});
  const [message, setMessage] = useState<string | null>(() =>
    draft === undefined ? (refusal === null ? null : fault(refusal)) : draft.message,
  );
  const [busy, setBusy] = useState(false);
  // A form refused without JavaScript comes back with its faults: the first one is focused too.
  const [focusFirst, setFocusFirst] = useState(() => (draft !== undefined || refusal !== null ? 1 : 0));
  const id = (field: string) => `${base}-${field}`;
  const values = draft?.values;
  const fields = FIELD_ORDER.filter((field) => field !== 'when' || text.when);

  // The first fault gets the focus, each time the server names some; else the message does.
  useEffect(() => {
    if (focusFirst === 0) return;
    const first = fields.find((field) => errors[field] !== undefined);
    if (first === undefined) statusRef.current?.focus();
    else document.getElementById(id(first))?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusFirst]);

  const startWork = () => {
    work.current ??= proofOfWork().catch(() => null);
  };

  const submit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const read = (name: string): string => {
      const element = form.elements.namedItem(name);
      return element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? element.value : '';
    };
    setBusy(true);
    setMessage(null);
    let tries = 0;
    for (;;) {
      startWork();
      const solved = await work.current;
      work.current = null;
      if (solved === null) {
        setBusy(false);
        setMessage('La vérification anti-robot n’a pas pu se faire : vérifiez votre connexion, puis réessayez.');
        setFocusFirst((n) => n + 1);
        return;
      }
      const body = {
        name: read('name'),
        makers: read('makers'),
        style: read('style'),
        links: read('links')
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter((line) => line !== ''),
        ...(text.when ? { when: read('when') } : {}),
        email: read('email'),
        message: read('message'),
        startedAt: (started.current ??= solved.startedAt),
        altcha: solved.payload,
        site: read('site'),
      };
      const answer = await callApi('POST', `/proposals/${text.kind}`, body);
      if (answer.ok) {
        const sent = answer.data as { number?: unknown; mail?: unknown } | null;
        // The server says whether it sends e-mail; the thanks page says what the proposer receives.
        const query = new URLSearchParams({ numero: typeof sent?.number === 'string' ? sent.number : '' });
        if (sent?.mail === 'off') query.set('courriel', 'non');
        // This address had its confirmation of the day already: the thanks page says none comes.
        if (sent?.mail === 'skipped') query.set('courriel', 'deja');
        void navigate(`${href(text.page) ?? ''}/merci?${query.toString()}`);
        return;
      }
      // A challenge refused (expired after ten minutes, or used): a new one, once.
      if ((answer.code === 'challenge' || answer.code === 'challenge_used') && tries === 0) {
        tries += 1;
        continue;
      }
      const named = (answer.data as { fields?: Record<string, string> } | null)?.fields ?? {};
      setErrors(named);
      setMessage(answer.message);
      setBusy(false);
      setFocusFirst((n) => n + 1);
      return;
    }
  };

  const field = (
    name: FieldName,
    label: string,
    options: { hint?: string; area?: boolean; type?: string; required?: boolean; autoComplete?: string },
  ) => {
    const error = errors[name];
    const hintId = options.hint === undefined ? undefined : `${id(name)}-aide`;
    const errorId = `${id(name)}-erreur`;
    const described = [hintId, error === undefined ? undefined : errorId].filter(Boolean).join(' ') || undefined;
    const common = {
      id: id(name),
      name,
      required: options.required ?? true,
      maxLength: FIELD_MAX[name],
      defaultValue: values?.[name] ?? '',
      'aria-invalid': error === undefined ? undefined : true,
      'aria-describedby': described,
      onChange: () => {
        if (errors[name] !== undefined) setErrors(({ [name]: _gone, ...rest }) => rest);
      },
    };
    return (
      <div className="proposal-field" key={name}>
        <label htmlFor={id(name)}>
          {label}
          {options.required === false ? <span className="proposal-optional"> (facultatif)</span> : null}
        </label>
        {options.hint === undefined ? null : (
          <p className="proposal-hint" id={hintId}>
            {options.hint}
          </p>
        )}
        {options.area === true ? (
          <textarea {...common} rows={name === 'message' ? 6 : 4} />
        ) : (
          <input {...common} type={options.type ?? 'text'} autoComplete={options.autoComplete ?? 'off'} />
        )}
        {error === undefined ? null : (
          <p className="proposal-error" id={errorId}>
            {error}
          </p>
        )}
      </div>
    );
  };

  return (
    <form
      ref={formRef}
      className="proposal-form"
      method="post"
      action={`/api/proposals/${text.kind}`}
      noValidate
      onFocus={startWork}
      onSubmit={(event) => {
        void submit(event);
      }}
    >
      <p className="proposal-hint">Tous les champs sont obligatoires, sauf mention contraire.</p>
      {field('name', text.nameLabel, {})}
      {field('makers', text.makersLabel, { hint: 'Vos noms ou pseudonymes, ou celui du collectif.' })}
      {field('style', 'Le style, en quelques mots', {})}
      {field('links', text.linksLabel, { hint: text.linksHint, area: true })}
      {text.when
        ? field('when', 'À quel rythme, et quand pourriez-vous jouer ?', {
            hint: 'Par exemple : une heure par mois, le mardi soir.',
          })
        : null}
      {field('email', 'Votre adresse e-mail', {
        type: 'email',
        autoComplete: 'email',
        hint: 'Pour vous répondre, et rien d’autre.',
      })}
      {field('message', 'Un mot pour l’équipe', { area: true, required: false })}
      {/* What the server needs to tell a person from a robot (docs/proposals.md, « Spam »). */}
      <div className="proposal-trap" aria-hidden="true">
        <label htmlFor={id('site')}>Ne remplissez pas ce champ</label>
        <input id={id('site')} name="site" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <button type="submit" className="button" disabled={busy}>
        {busy ? 'Envoi en cours…' : text.send}
      </button>
      <div aria-live="polite" className="proposal-status">
        {busy ? <p>Vérification anti-robot, puis envoi : quelques secondes.</p> : null}
        {message === null ? null : (
          <p className="proposal-error" ref={statusRef} tabIndex={-1}>
            {message}
          </p>
        )}
      </div>
    </form>
  );
}
