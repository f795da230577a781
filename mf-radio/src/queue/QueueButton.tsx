import type { ReactNode } from 'react';
import { emit, type QueueItemRequest } from '@collectif/shared';
import { useHydrated } from '../ui/useHydrated';
import '../styles/queue-button.css';

/** « + » for one more in the queue, a play sign for « Tout écouter ». */
function Icon({ kind }: { kind: 'add' | 'all' }) {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      {kind === 'add' ? (
        <path stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" d="M12 5v14M5 12h14" />
      ) : (
        <path fill="currentColor" d="M7 4.5v15l12.5-7.5L7 4.5Z" />
      )}
    </svg>
  );
}

interface QueueButtonProps {
  /** What the click puts at the end of the player's queue, in this order (slugs and starts only). */
  items: readonly QueueItemRequest[];
  /** What the player's announcement calls the batch (a residence, an artist). */
  label?: string;
  /** The button's text; « Ajouter à la file » by default. */
  children?: ReactNode;
  /** Its accessible name when the text alone would not say which episode (a card, a row). */
  name?: string;
  className?: string;
  icon?: 'add' | 'all';
  /**
   * Left out of the server's document (true by default): a grid's or a tracklist's worth of them
   * would add to it, and their place is kept by the styles. A page's main button is in the document
   * (false), so that nothing moves when the page hydrates.
   */
  afterHydration?: boolean;
}

/**
 * « Ajouter à la file » and « Tout écouter » (docs/player.md, « The queue »): a `queue-add` of the
 * contract, which the player takes when it loads (held until then); nothing of the player is
 * imported. The player says in its own live region what the add did. A card's or a row's is
 * rendered once the page is hydrated: without the page's script it could do nothing.
 */
export function QueueButton({
  items,
  label,
  children,
  name,
  className = 'button button--ghost',
  icon = 'add',
  afterHydration = true,
}: QueueButtonProps) {
  const hydrated = useHydrated();
  if ((afterHydration && !hydrated) || items.length === 0) return null;
  return (
    <button
      type="button"
      className={className}
      aria-label={name}
      onClick={() => {
        emit('queue-add', { items: items.map((item) => ({ ...item })), ...(label === undefined ? {} : { label }) });
      }}
    >
      <Icon kind={icon} />
      {children ?? 'Ajouter à la file'}
    </button>
  );
}
