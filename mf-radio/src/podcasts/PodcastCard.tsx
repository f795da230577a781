import { useState } from 'react';
import { DEFAULT_COVER, emit, type PodcastItem } from '@collectif/shared';
import '../styles/podcasts.css';

/** Feed covers are square; 500 px is the size the grids show at most. */
const COVER_SIZE = 500;

function Cover({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  const usable = src.trim() !== '' && !failed;
  return (
    <img
      className="podcast-card__cover"
      src={usable ? src : DEFAULT_COVER}
      alt=""
      width={COVER_SIZE}
      height={COVER_SIZE}
      loading="lazy"
      decoding="async"
      onError={() => {
        setFailed(true);
      }}
    />
  );
}

/** A past show: a click plays it in the player (the `replay-selected` event of the contract). */
export function PodcastCard({ item }: { item: PodcastItem }) {
  return (
    <li className="podcast-card">
      <button
        type="button"
        className="podcast-card__button"
        onClick={() => {
          emit('replay-selected', item);
        }}
      >
        <Cover key={item.cover} src={item.cover} />
        <span className="visually-hidden">Écouter : </span>
        <span className="podcast-card__title">{item.title}</span>
        <span className="podcast-card__description">{item.description}</span>
      </button>
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
