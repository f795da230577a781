export interface Stat {
  value: number | string;
  label: string;
}

/** Key figures of the collective, read as « 83 résidences ». */
export function StatList({ label, stats }: { label: string; stats: readonly Stat[] }) {
  return (
    <ul className="stats" aria-label={label}>
      {stats.map((stat) => (
        <li key={stat.label} className="stats__item">
          <span className="stats__value">{stat.value}</span> <span className="stats__label">{stat.label}</span>
        </li>
      ))}
    </ul>
  );
}
