import type { ReactNode } from 'react';

/*
 * A table of « Mes chiffres » (docs/content.md, « Mes chiffres »), one form for every source's: its
 * caption, its columns' names, and a row per line, named by its first cell.
 */

export interface FigureRow {
  key: string | number;
  /** The row's name (its header cell). */
  head: ReactNode;
  cells: readonly ReactNode[];
}

export function FigureTable({
  caption,
  columns,
  rows,
  className,
}: {
  caption: ReactNode;
  columns: readonly string[];
  rows: readonly FigureRow[];
  /** A class besides `admin-figures`. */
  className?: string;
}) {
  return (
    <table className={className === undefined ? 'admin-figures' : `admin-figures ${className}`}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.head}</th>
            {row.cells.map((cell, at) => (
              <td key={at}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
