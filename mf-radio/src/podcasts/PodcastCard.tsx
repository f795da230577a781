import { emit, type PodcastItem } from '@collectif/shared';
import { gridSquare } from '@collectif/shared/pictures';
import { PAGES, usePageHref } from '@collectif/shared/addresses';
import { Card } from '@collectif/shared/ui';
import { DEFAULT_COVER } from '@collectif/shared/tokens';
import { formatTime } from '@collectif/shared/time';
import { useRememberedPosition } from '@collectif/shared/resume';
import { QueueButton } from '../queue/QueueButton';

/** Feed covers are square; 500 px is the size the grids show at most. */
const COVER_SIZE = 500;

/** « Reprendre à 23:14 » (docs/episodes.md, « Resume »). */
export const resumeLabel = (position: number) => `Reprendre à ${formatTime(position)}`;

/**
 * A past show: a click plays it in the player (the `replay-selected` event of the contract), from
 * where this browser last stopped in it; its title leads to its page; « File » over its picture puts
 * it at the end of the player's queue (an episode with a page only: the queue holds slugs).
 */
export function PodcastCard({
  item,
  headingLevel,
  eager = false,
  priority = false,
}: {
  item: PodcastItem;
  headingLevel?: 2 | 3;
  /** At the top of a page: its cover is loaded at once rather than when scrolled to. */
  eager?: boolean;
  /** The page's largest paint (the grid's first cover): fetched first. */
  priority?: boolean;
}) {
  const position = useRememberedPosition(item);
  const { slug } = item;
  const href = usePageHref();
  const titleTo = slug === undefined ? null : href(PAGES.episode, { slug });
  return (
    <li className="podcast-card">
      <Card
        image={{ ...gridSquare(item.cover, COVER_SIZE), fallback: DEFAULT_COVER, eager, priority }}
        title={item.artist}
        description={item.show}
        date={item.pubDate}
        actionLabel="Écouter : "
        {...(titleTo === null ? {} : { titleTo })}
        {...(headingLevel === undefined ? {} : { headingLevel })}
        note={position === null ? null : resumeLabel(position)}
        onClick={() => {
          emit('replay-selected', position === null ? item : { ...item, start: position });
        }}
      />
      {slug === undefined ? null : (
        <QueueButton
          className="queue-chip"
          items={[{ slug }]}
          name={`Ajouter à la file : ${item.artist} · ${item.show}`}
        >
          File
        </QueueButton>
      )}
    </li>
  );
}

/**
 * The podcast cards of a block, in the shared 2/3/4-column grid. `eagerCount`: how many first
 * covers a page that opens on the grid loads at once; the first is its largest paint, fetched first,
 * the others after it.
 */
export function PodcastGrid({
  items,
  label,
  headingLevel,
  eagerCount = 0,
}: {
  items: readonly PodcastItem[];
  label: string;
  headingLevel?: 2 | 3;
  eagerCount?: number;
}) {
  return (
    <ul className="grid podcast-grid" aria-label={label}>
      {items.map((item, index) => (
        <PodcastCard
          key={item.link}
          item={item}
          eager={index < eagerCount}
          priority={index === 0 && eagerCount > 0}
          {...(headingLevel === undefined ? {} : { headingLevel })}
        />
      ))}
    </ul>
  );
}
