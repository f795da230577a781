import { useId } from 'react';
import { useResidencesQuery } from '@collectif/shared';
import { AudienceFigures } from './AudienceFigures';
import type { Me } from './call';
import { FigureTable } from './FigureTable';
import { useFigures } from './useFigures';

/*
 * « Mes chiffres » (docs/content.md, « The editor »): what the site counts that a volunteer may see,
 * one panel with a part per source: the audience (AudienceFigures.tsx, docs/figures.md) and the
 * gifts of the year through HelloAsso (GET /api/editor/figures/support, docs/support.md): a
 * resident sees how many gifts named their residence, never who gave nor how much; an admin sees
 * every residence with its sums, and the year's members. Each source is read on its own, so one
 * that fails leaves the others shown.
 */

/** The year's gifts as the editor shows them (GET /api/editor/figures/support). */
export interface SupportFigures {
  year: number;
  members: number | null;
  goal?: number;
  residences: { id: string; donations: number; sum?: number }[];
}

const euros = (cents: number) =>
  `${new Intl.NumberFormat('fr-FR', { minimumFractionDigits: cents % 100 === 0 ? 0 : 2, maximumFractionDigits: 2 }).format(cents / 100)} €`;

const gifts = (total: number) => `${String(total)} ${total > 1 ? 'dons' : 'don'}`;

/** The most rows the panel reads: far more residences than the site has. */
const ROWS_MAX = 500;

const count = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * The answer, read defensively (it is input, docs/content.md): its year and members must be whole
 * numbers, a row it cannot show is dropped, at most ROWS_MAX; anything else is a French failure.
 */
export function readSupportFigures(data: unknown): SupportFigures {
  const record = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const { year, members, goal, residences } = record;
  if (
    !count(year) ||
    year < 2000 ||
    year > 9999 ||
    (members !== null && !count(members)) ||
    !Array.isArray(residences)
  ) {
    throw new Error('Les chiffres reçus du site sont illisibles : réessayez dans un instant.');
  }
  const rows: SupportFigures['residences'] = [];
  for (const row of residences.slice(0, ROWS_MAX) as unknown[]) {
    const { id, donations, sum } = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
    if (typeof id !== 'string' || id === '' || id.length > 60 || !count(donations)) continue;
    rows.push({ id, donations, ...(count(sum) ? { sum } : {}) });
  }
  return { year, members, ...(count(goal) && goal > 0 ? { goal } : {}), residences: rows };
}

function SupportFiguresPart({ me }: { me: Me }) {
  const headingId = useId();
  const { figures, status } = useFigures('/editor/figures/support', readSupportFigures, 'Chargement des dons ...');
  const names = new Map(
    (useResidencesQuery(undefined).data ?? []).map((residence) => [residence.id, residence.artist]),
  );
  let body;
  if (figures === null) {
    body = status;
  } else if (me.role === 'residence') {
    const own = figures.residences.find((row) => row.id === me.residence);
    body = (
      <>
        <p className="admin-figure">
          {gifts(own?.donations ?? 0)} au nom de votre résidence en {String(figures.year)}.
        </p>
        <p className="admin-field__hint">
          Le site ne garde ni le nom ni l’adresse des donateurs ; les montants ne sont montrés qu’à l’administration.
        </p>
      </>
    );
  } else {
    body = (
      <>
        <p className="admin-figure">
          {figures.members === null
            ? `Adhérents en ${String(figures.year)} : indisponible (HelloAsso ne répond pas).`
            : `${String(figures.members)} ${figures.members > 1 ? 'adhérents' : 'adhérent'} en ${String(figures.year)}${
                figures.goal === undefined ? '' : `, objectif ${String(figures.goal)}`
              }.`}
        </p>
        {figures.residences.length === 0 ? (
          <p>Aucun don au nom d’une résidence en {String(figures.year)}.</p>
        ) : (
          <FigureTable
            caption={<>Dons au nom des résidences en {String(figures.year)}</>}
            columns={['Résidence', 'Dons', 'Montant']}
            rows={figures.residences.map((row) => ({
              key: row.id,
              head: names.get(row.id) ?? row.id,
              cells: [row.donations, row.sum === undefined ? '—' : euros(row.sum)],
            }))}
          />
        )}
      </>
    );
  }
  return (
    <section className="admin-figures-part" aria-labelledby={headingId}>
      <h3 id={headingId}>Dons avec HelloAsso</h3>
      {body}
    </section>
  );
}

/** Who has figures to see: a resident (their residence's) and an admin (all of them). */
export const hasFigures = (me: Me): boolean =>
  me.role === 'admin' || (me.role === 'residence' && me.residence !== null);

/** « Mes chiffres »: one part per source of figures. */
export function Figures({ me }: { me: Me }) {
  const headingId = useId();
  return (
    <section className="admin-editor admin-figures-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Mes chiffres</h2>
      <SupportFiguresPart me={me} />
      <AudienceFigures me={me} />
    </section>
  );
}
