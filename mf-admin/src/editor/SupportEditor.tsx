import { useId, useState } from 'react';
import { StatusMessage } from '@collectif/shared/ui';
import { Field } from './Field';
import { readProblem, type Version } from './outcome';
import { PublishFooter, saveKind, useVersionForm } from './publish';

/*
 * « Nous soutenir » (the kind `support`, docs/content.md, « The editor », and docs/support.md): an
 * admin turns the memberships and gifts through HelloAsso on the site on or off (off: every
 * « Nous soutenir » leads to the collective's external page, as before) and sets the year's
 * membership goal, which /soutenir shows as a bar. Admins only: the site refuses anyone else.
 */

interface SupportSettings {
  helloasso: boolean;
  goal?: number;
}

/** What the form holds: the goal as typed, read when published. */
interface Form {
  helloasso: boolean;
  goal: string;
}

/** The most members a goal may name (the kind's schema says the same: SUPPORT_GOAL_MAX). */
const GOAL_MAX = 100_000;

/** A version's settings, defensively: anything else than the schema's shape is HelloAsso on, no goal. */
function readSettings(version: Version): Form {
  const data = (typeof version.data === 'object' && version.data !== null ? version.data : {}) as Record<
    string,
    unknown
  >;
  const goal = data.goal;
  return {
    helloasso: data.helloasso !== false,
    goal: typeof goal === 'number' && Number.isInteger(goal) && goal > 0 && goal <= GOAL_MAX ? String(goal) : '',
  };
}

/** The goal typed: none when empty, a whole number of members within the bounds, or why not. */
export function readGoal(typed: string): number | undefined | { error: string } {
  const text = typed.trim();
  if (text === '') return undefined;
  if (!/^\d{1,6}$/.test(text)) return { error: 'L’objectif est un nombre entier d’adhérents, par exemple 200.' };
  const goal = Number(text);
  if (goal < 1 || goal > GOAL_MAX) {
    return { error: `L’objectif est compris entre 1 et ${new Intl.NumberFormat('fr-FR').format(GOAL_MAX)} adhérents.` };
  }
  return goal;
}

export function SupportEditor({ onPublished }: { onPublished?: () => void }) {
  const formId = useId();
  const [goalError, setGoalError] = useState<string | null>(null);
  const form = useVersionForm<Form>({
    kind: 'support',
    read: readSettings,
    send: (value, basedOn) => {
      const goal = readGoal(value.goal);
      const data: SupportSettings = {
        helloasso: value.helloasso,
        ...(typeof goal === 'number' ? { goal } : {}),
      };
      return saveKind('support')(data, basedOn);
    },
    onPublished,
  });
  const { loaded, failure, outcome } = form;
  if (failure !== null) return <StatusMessage kind="error">{failure}</StatusMessage>;
  if (loaded === null) return <StatusMessage kind="loading">Chargement des réglages ...</StatusMessage>;
  const { value, basedOn } = loaded;
  // The site's refusal of a field, beside it (« support: champ /goal : … »).
  const refused =
    outcome.kind === 'invalid'
      ? outcome.problems.map(readProblem).find((problem) => problem?.field === 'goal')?.words
      : undefined;
  const goalId = `${formId}-objectif`;
  const switchId = `${formId}-helloasso`;
  return (
    <section className="admin-editor" aria-labelledby={`${formId}-titre`}>
      <h2 id={`${formId}-titre`}>Nous soutenir</h2>
      <form
        className="admin-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const goal = readGoal(value.goal);
          if (typeof goal === 'object') {
            setGoalError(goal.error);
            document.getElementById(goalId)?.focus();
            return;
          }
          setGoalError(null);
          form.publish(basedOn);
        }}
      >
        <div className="admin-field admin-field--check">
          <input
            id={switchId}
            type="checkbox"
            checked={value.helloasso}
            aria-describedby={`${switchId}-aide`}
            onChange={(event) => {
              const on = event.target.checked;
              form.edit((now) => ({ ...now, helloasso: on }));
            }}
          />
          <label htmlFor={switchId}>Adhésions et dons avec HelloAsso sur le site</label>
          <p className="admin-field__hint" id={`${switchId}-aide`}>
            Décoché : « Nous soutenir » mène partout à la page de soutien externe du collectif, et la page /soutenir le
            dit.
          </p>
        </div>
        <Field
          id={goalId}
          label="Objectif d’adhérents de l’année"
          value={value.goal}
          hint="Un nombre entier ; vide, la page montre le nombre d’adhérents sans barre."
          error={goalError ?? refused}
          onChange={(goal) => {
            setGoalError(null);
            form.edit((now) => ({ ...now, goal }));
          }}
        />
        <PublishFooter
          form={form}
          saved="la page Nous soutenir en tient compte."
          theirs={(current) => {
            const theirs = readSettings(current);
            return (
              <p>
                HelloAsso {theirs.helloasso ? 'activé' : 'désactivé'}, objectif :{' '}
                {theirs.goal === '' ? 'aucun' : `${theirs.goal} adhérents`}
              </p>
            );
          }}
        />
      </form>
    </section>
  );
}
