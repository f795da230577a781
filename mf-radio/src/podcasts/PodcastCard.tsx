import { Card, DEFAULT_COVER, emit, type PodcastItem } from '@collectif/shared';

/** Feed covers are square; 500 px is the size the grids show at most. */
const COVER_SIZE = 500;

/** A past show: a click plays it in the player (the `replay-selected` event of the contract). */
export function PodcastCard({ item }: { item: PodcastItem }) {
  return (
    <li className="podcast-card">
      <Card
        image={{ src: item.cover, width: COVER_SIZE, height: COVER_SIZE, fallback: DEFAULT_COVER }}
        title={item.title}
        description={item.description}
        date={item.pubDate}
        actionLabel="Écouter : "
        onClick={() => {
          emit('replay-selected', item);
        }}
      />
    </li>
  );
}

/** The podcast cards of a block, in the shared 2/3/4-column grid. */
export function PodcastGrid({ items, label }: { items: readonly PodcastItem[]; label: string }) {
  return (
    <ul className="grid podcast-grid" aria-label={label}>
      {items.map((item) => (
        <PodcastCard key={item.link} item={item} />
      ))}
    </ul>
  );
}
