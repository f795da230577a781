import { useEffect } from 'react';

/** A panel over the page closes on Escape from anywhere, like a dialog (the chat, « À l'antenne »). */
export function useEscape(close: () => void): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [close]);
}
