import { useEffect } from 'react';
import { useAppSelector, useAppStore } from '@collectif/shared';
import { selectNote, startQueue } from './engine';
import { wantQueue } from './wanted';

/**
 * The queue's part of the player on every page once it is used (Player.tsx): it starts the queue
 * (engine.ts) and says what the queue did in a polite live region (« Ajouté à la file : … »), also
 * while the player is closed. Loaded with the queue's code.
 */
export default function QueueRoot() {
  const store = useAppStore();
  // Stopped with the player (a partner's unmount): its listeners do not outlive its store. Once
  // here it stays for the page's life, even when the queue is emptied (its key then removed).
  useEffect(() => {
    wantQueue();
    return startQueue(store);
  }, [store]);
  const note = useAppSelector(selectNote);
  return (
    <p className="visually-hidden" role="status" data-testid="file-annonce">
      {note}
    </p>
  );
}
