import type { Release } from '@collectif/shared';
import { ReleaseCard, RevealingReleaseCard } from './ReleaseCard';

/** The first three cards are always shown; the reveal behaviour starts with the fourth (docs/site.md, « Label »). */
const ALWAYS_SHOWN = 3;

/** The grid has at most four columns (from 1200 px), so the first four covers are the first row. */
const FIRST_ROW = 4;

export function ReleaseGrid({ releases }: { releases: readonly Release[] }) {
  return (
    <ul className="grid release-grid" aria-label="Sorties du label">
      {releases.map((release, index) => {
        const Card = index < ALWAYS_SHOWN ? ReleaseCard : RevealingReleaseCard;
        return <Card key={release.href} release={release} eager={index < FIRST_ROW} priority={index === 0} />;
      })}
    </ul>
  );
}
