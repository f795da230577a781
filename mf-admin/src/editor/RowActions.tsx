/**
 * « Monter », « Descendre », « Retirer » under one row of a list the editor edits (a slide, a
 * member, a track): each names its row for a screen reader (`legend`), and gives `change` the list
 * as it becomes.
 */
export function RowActions<Row>({
  rows,
  index,
  legend,
  change,
}: {
  rows: readonly Row[];
  index: number;
  legend: string;
  change: (next: Row[]) => void;
}) {
  /** The list with the rows at `a` and `b` swapped. */
  const swapped = (a: number, b: number): Row[] =>
    rows.map((row, at) => {
      if (at === a) return rows[b] ?? row;
      if (at === b) return rows[a] ?? row;
      return row;
    });
  return (
    <div className="admin-actions">
      <button
        type="button"
        className="button"
        disabled={index === 0}
        aria-label={`Monter : ${legend}`}
        onClick={() => {
          change(swapped(index - 1, index));
        }}
      >
        Monter
      </button>
      <button
        type="button"
        className="button"
        disabled={index === rows.length - 1}
        aria-label={`Descendre : ${legend}`}
        onClick={() => {
          change(swapped(index, index + 1));
        }}
      >
        Descendre
      </button>
      <button
        type="button"
        className="button"
        aria-label={`Retirer : ${legend}`}
        onClick={() => {
          change(rows.filter((_, at) => at !== index));
        }}
      >
        Retirer
      </button>
    </div>
  );
}
