import type { PlayedArtistSummary } from '@collectif/shared';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import '../styles/played-artist-list.css';

export const plural = (count: number, one: string, many: string) => `${String(count)} ${count === 1 ? one : many}`;

/** « 12 passages · 1 sortie · en résidence », what an artist's line says after their name. */
export function playedArtistCounts(item: PlayedArtistSummary): string {
  return [
    // An artist of the label never played has no « 0 passage »: their releases say why they are here.
    item.plays === 0 ? null : plural(item.plays, 'passage', 'passages'),
    item.releases === 0 ? null : plural(item.releases, 'sortie', 'sorties'),
    item.residence === undefined ? null : 'en résidence',
  ]
    .filter((part) => part !== null)
    .join(' · ');
}

/** The played artists' links, as the list and the archive's search show them. */
export function PlayedArtistList({ items, label }: { items: readonly PlayedArtistSummary[]; label: string }) {
  return (
    <ul className="played-artists__list" aria-label={label}>
      {items.map((item) => (
        <li key={item.slug}>
          <PageLink page={PAGES.playedArtist} params={{ slug: item.slug }}>
            {item.name}
          </PageLink>{' '}
          <span className="played-artists__counts">{playedArtistCounts(item)}</span>
        </li>
      ))}
    </ul>
  );
}
