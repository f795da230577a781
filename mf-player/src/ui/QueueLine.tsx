import { useAppSelector, useEpisodeQuery } from '@collectif/shared';
import { selectQueueItems } from '../queue/select';

/** The queue's panel, which the line controls (QueuePanel.tsx). */
export const QUEUE_PANEL_ID = 'lecteur-file';

/**
 * What comes next in the queue, under the names (docs/player.md, « The queue »): « File d’écoute
 * (3) · À suivre : Artiste — Émission ». The system's media controls have no field for it. A button:
 * it opens the queue's panel. Nothing while the queue is empty.
 */
export function QueueLine({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  const items = useAppSelector(selectQueueItems);
  const next = items[0];
  const { data } = useEpisodeQuery(next?.slug ?? '', { skip: next === undefined });
  if (next === undefined) return null;
  const name = data === undefined ? null : [data.artist, data.show].filter((part) => part.trim() !== '').join(' — ');
  return (
    <button
      type="button"
      className="player__next player__queue"
      aria-expanded={open}
      aria-controls={open ? QUEUE_PANEL_ID : undefined}
      onClick={onToggle}
    >
      File d’écoute ({items.length}){name === null ? '' : ` · À suivre : ${name}`}
    </button>
  );
}
