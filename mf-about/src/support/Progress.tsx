import { useId } from 'react';

/*
 * The year's memberships (docs/support.md, « The page »): « 142 adhérents en 2026 », counted from
 * the membership form's orders; a bar toward the goal when an admin set one; when HelloAsso could
 * not be read, the last figure with the moment it was read.
 */

export interface YearProgress {
  year: number;
  members: number;
  goal?: number | undefined;
  at: string;
  stale: boolean;
}

/** « 142 adhérents en 2026 », « 1 adhérent en 2026 ». */
export function membersText(members: number, year: number): string {
  const count = new Intl.NumberFormat('fr-FR').format(members);
  return `${count} ${members > 1 ? 'adhérents' : 'adhérent'} en ${String(year)}`;
}

/** When a figure was read, in Paris's time: the same words on the server and in the browser. */
const readAt = (iso: string) =>
  new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' }).format(
    new Date(iso),
  );

export function Progress({ progress }: { progress: YearProgress | null }) {
  const labelId = useId();
  if (progress === null) {
    return (
      <p className="support-progress support-progress--none">
        Le nombre d’adhérents de l’année est indisponible pour le moment.
      </p>
    );
  }
  const { year, members, goal, at, stale } = progress;
  const said = membersText(members, year);
  return (
    <div className="support-progress">
      <p className="support-progress__count" id={labelId}>
        {said}
      </p>
      {goal === undefined ? null : (
        <>
          <div
            className="support-progress__bar"
            role="progressbar"
            aria-labelledby={labelId}
            aria-valuemin={0}
            aria-valuemax={goal}
            aria-valuenow={Math.min(members, goal)}
            aria-valuetext={`${said}, objectif ${String(goal)}`}
          >
            <span style={{ width: `${String(Math.min(100, (members / goal) * 100))}%` }} />
          </div>
          <p className="support-progress__goal">
            {members >= goal
              ? `Objectif de ${String(goal)} adhérents atteint : merci !`
              : `Objectif : ${String(goal)} adhérents`}
          </p>
        </>
      )}
      {stale ? (
        <p className="support-progress__stale">
          Chiffre lu le {readAt(at)} : HelloAsso ne répond pas pour le moment, il sera mis à jour dès son retour.
        </p>
      ) : null}
    </div>
  );
}
