import type { ReactNode } from 'react';
import { call, EditorError, messageOf } from './call';

/*
 * What a « Publier » ends in, for every form of the editor (docs/content.md, « The editor »): saved,
 * refused by the schema (the site's lines, shown beside their fields), changed meanwhile by
 * someone else (their version beside the volunteer's), or refused otherwise.
 */

/** A version of a kind, as the site gives it (GET /api/content/:kind/versions/:id, a conflict's). */
export interface Version {
  id: string;
  by: string;
  savedAt: string;
  restoredFrom?: string;
  data: unknown;
}

export type Outcome =
  | { kind: 'none' }
  | { kind: 'saved'; at: string }
  | { kind: 'invalid'; message: string; problems: readonly string[] }
  | { kind: 'conflict'; message: string; current: Version }
  | { kind: 'error'; message: string };

/** The version visitors get now, whole, as it was saved (not as served). */
export async function currentVersion(kind: string): Promise<Version> {
  const { current } = await call<{ current: string }>('GET', `/content/${kind}/history`);
  return call<Version>('GET', `/content/${kind}/versions/${encodeURIComponent(current)}`);
}

/** What a failed save is, for the volunteer. */
export function outcomeOf(error: unknown): Outcome {
  if (error instanceof EditorError && error.code === 'invalid') {
    return {
      kind: 'invalid',
      message: error.message,
      problems: (error.body as { problems?: string[] } | null)?.problems ?? [],
    };
  }
  if (error instanceof EditorError && error.code === 'conflict') {
    return { kind: 'conflict', message: error.message, current: (error.body as { current: Version }).current };
  }
  return { kind: 'error', message: messageOf(error) };
}

/**
 * A schema's line read: the JSON pointer of the field it names (« about: champ
 * /values/items/0/title : trop court » gives « /values/items/0/title ») and the words.
 */
export function problemPointer(line: string): { pointer: string; words: string } | null {
  const found = /: champ (\/\S*) : (.*)$/s.exec(line);
  if (found === null) return null;
  return { pointer: found[1] ?? '', words: found[2] ?? '' };
}

/**
 * Each field a refused save names, by its JSON pointer (« /3/instagram », « /values/items/0/title »),
 * with the words of its first problem: what every form says beside the field.
 */
export function problemsOf(outcome: Outcome): ReadonlyMap<string, string> {
  const problems = new Map<string, string>();
  if (outcome.kind !== 'invalid') return problems;
  for (const line of outcome.problems) {
    const problem = problemPointer(line);
    if (problem !== null && !problems.has(problem.pointer)) problems.set(problem.pointer, problem.words);
  }
  return problems;
}

/**
 * The same line for a form of entries (« residences: champ /3/instagram : forme invalide … »): the
 * entry's position when the kind is a list, its field, and the words.
 */
export function readProblem(line: string): { index: number | null; field: string; words: string } | null {
  const problem = problemPointer(line);
  if (problem === null) return null;
  const [first = '', second = ''] = problem.pointer.split('/').slice(1);
  return /^\d+$/.test(first)
    ? { index: Number(first), field: second, words: problem.words }
    : { index: null, field: first, words: problem.words };
}

export const dateOf = (iso: string) =>
  new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' }).format(
    new Date(iso),
  );

/** The outcome, said; on a conflict, `theirs` (their version's text) and the two ways out. */
export function OutcomeMessage({
  outcome,
  saved,
  theirs,
  onTakeTheirs,
  onKeepMine,
}: {
  outcome: Outcome;
  /** What « Publié » says is now shown, and where. */
  saved: string;
  theirs?: ReactNode;
  onTakeTheirs: (current: Version) => void;
  onKeepMine: (current: Version) => void;
}) {
  switch (outcome.kind) {
    case 'none':
      return null;
    case 'saved':
      return (
        <p className="admin-outcome admin-outcome--ok" role="status">
          Publié le {dateOf(outcome.at)} : {saved}
        </p>
      );
    case 'invalid':
      return (
        <p className="admin-outcome admin-outcome--error" role="alert">
          {outcome.message} Corrigez les champs signalés.
        </p>
      );
    case 'error':
      return (
        <p className="admin-outcome admin-outcome--error" role="alert">
          {outcome.message}
        </p>
      );
    case 'conflict': {
      const { current } = outcome;
      return (
        <div className="admin-outcome admin-outcome--error" role="alert">
          <p>{outcome.message}</p>
          <p>
            Version actuelle ({current.by}, {dateOf(current.savedAt)}) :
          </p>
          <blockquote className="admin-theirs">{theirs}</blockquote>
          <p>Votre version reste dans le formulaire.</p>
          <div className="admin-actions">
            <button
              type="button"
              className="button"
              onClick={() => {
                onTakeTheirs(current);
              }}
            >
              Reprendre la version actuelle
            </button>
            <button
              type="button"
              className="button"
              onClick={() => {
                onKeepMine(current);
              }}
            >
              Publier ma version à la place
            </button>
          </div>
        </div>
      );
    }
  }
}
