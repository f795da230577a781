import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useAppDispatch, useAppSelector, useEpisodeQuery } from '@collectif/shared';
import { formatTime } from '@collectif/shared/time';
import { episodeName } from '../queue/engine';
import { cleared, moved, playRequested, removed } from '../queue/queueSlice';
import { entryKey, selectQueueItems, type QueueEntry } from '../queue/select';
import { CloseIcon } from './icons';
import { QUEUE_PANEL_ID } from './QueueLine';
import { useEscape } from './useEscape';
import './panels.css';

const TITLE_ID = 'lecteur-file-titre';

type Control = 'ecouter' | 'monter' | 'descendre' | 'retirer';

/** One item: its episode's names (asked to the API, cached), its start, and what can be done with it. */
function QueueRow({
  entry,
  index,
  count,
  onMove,
}: {
  entry: QueueEntry;
  index: number;
  count: number;
  onMove: (index: number, by: number, control: Control) => void;
}) {
  const dispatch = useAppDispatch();
  const { data, isError } = useEpisodeQuery(entry.slug);
  const name = data === undefined ? (isError ? `Épisode introuvable (${entry.slug})` : entry.slug) : episodeName(data);
  // Alt + arrows move the item from any of its buttons, as its buttons do (not drag alone).
  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    const by = event.key === 'ArrowUp' ? -1 : 1;
    const control = (event.target as HTMLElement).dataset.control as Control | undefined;
    onMove(index, by, control ?? (by < 0 ? 'monter' : 'descendre'));
  };
  return (
    <li className="player-queue__item" data-key={entryKey(entry)} onKeyDown={onKeyDown}>
      <span className="player-queue__name">
        <span className="player-queue__rank">{index + 1}.</span> {name}
        {entry.start === undefined ? null : (
          <span className="player-queue__start"> · à partir de {formatTime(entry.start)}</span>
        )}
      </span>
      <span className="player-queue__actions">
        <button
          type="button"
          className="player-queue__action"
          data-control="ecouter"
          aria-label={`Écouter ${name}`}
          onClick={() => dispatch(playRequested(index))}
        >
          Écouter
        </button>
        <button
          type="button"
          className="player-queue__action"
          data-control="monter"
          aria-label={`Monter ${name}`}
          disabled={index === 0}
          onClick={() => {
            onMove(index, -1, 'monter');
          }}
        >
          Monter
        </button>
        <button
          type="button"
          className="player-queue__action"
          data-control="descendre"
          aria-label={`Descendre ${name}`}
          disabled={index === count - 1}
          onClick={() => {
            onMove(index, 1, 'descendre');
          }}
        >
          Descendre
        </button>
        <button
          type="button"
          className="player-queue__action"
          data-control="retirer"
          aria-label={`Retirer ${name} de la file`}
          onClick={() => dispatch(removed(index))}
        >
          Retirer
        </button>
      </span>
    </li>
  );
}

/**
 * « File d’écoute », above the player (docs/player.md, « The queue »): what comes next, each item
 * played, moved (buttons, or Alt + arrows), removed, and the queue cleared. Escape or its close
 * button closes it, and the focus goes back to the line that opened it.
 */
function QueuePanel({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const items = useAppSelector(selectQueueItems);
  useEscape(onClose);
  const list = useRef<HTMLOListElement>(null);
  // After a move the focus follows the item, on the control that moved it (or the other one at an end).
  const refocus = useRef<{ key: string; control: Control } | null>(null);
  useEffect(() => {
    const wanted = refocus.current;
    if (wanted === null) return;
    refocus.current = null;
    const row = list.current?.querySelector(`[data-key="${CSS.escape(wanted.key)}"]`);
    const button = (control: Control) => row?.querySelector<HTMLButtonElement>(`[data-control="${control}"]`);
    const first = button(wanted.control);
    const other = button(wanted.control === 'monter' ? 'descendre' : 'monter');
    (first !== null && first !== undefined && !first.disabled ? first : other)?.focus();
  }, [items]);
  const onMove = (index: number, by: number, control: Control) => {
    const entry = items[index];
    const to = index + by;
    if (entry === undefined || to < 0 || to >= items.length) return;
    refocus.current = { key: entryKey(entry), control };
    dispatch(moved({ index, by }));
  };
  return (
    <section
      id={QUEUE_PANEL_ID}
      className="player-chat player-chat--fallback player-onair player-queue"
      aria-labelledby={TITLE_ID}
    >
      <div className="player-chat__header">
        <h2 id={TITLE_ID} className="player-chat__title">
          File d’écoute
        </h2>
        <button type="button" className="player__button" aria-label="Fermer la file d’écoute" onClick={onClose}>
          <CloseIcon />
        </button>
      </div>
      <div className="player-onair__body">
        {items.length === 0 ? (
          <p className="player-onair__now">La file d’écoute est vide.</p>
        ) : (
          <>
            <h3 className="player-onair__heading">À suivre</h3>
            <ol ref={list} className="player-queue__list">
              {items.map((entry, index) => (
                <QueueRow key={entryKey(entry)} entry={entry} index={index} count={items.length} onMove={onMove} />
              ))}
            </ol>
            <p className="player-queue__hint">Alt + flèches : déplacer l’épisode.</p>
            <button type="button" className="player-queue__clear" onClick={() => dispatch(cleared())}>
              Vider la file
            </button>
          </>
        )}
      </div>
    </section>
  );
}

// Loaded when first opened (PlayerBar.tsx, `lazy`).
export default QueuePanel;
