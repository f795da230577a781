import { useEffect } from 'react';
import { ExternalLink, useAppDispatch } from '@collectif/shared';
import { chatUrl } from '../player/config';
import { chatToggled, chatUnreachable, type ChatStatus } from '../player/playerSlice';

export const CHAT_PANEL_ID = 'lecteur-chat';

/** The radio's chat, above the player; a French fallback with a link when the widget cannot load. */
export function ChatPanel({ status }: { status: ChatStatus }) {
  const dispatch = useAppDispatch();
  const url = chatUrl();
  // The panel covers most of the screen: Escape closes it from anywhere, like a dialog.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      dispatch(chatToggled());
      document.querySelector<HTMLElement>('.player__button[aria-label$="le chat"]')?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [dispatch]);
  return (
    <section id={CHAT_PANEL_ID} className="player-chat" aria-label="Chat de la radio">
      {status === 'failed' ? (
        <div className="player-chat__fallback" role="status">
          <p>Le chat ne peut pas s’afficher ici pour le moment.</p>
          <ExternalLink href={url} className="button">
            Ouvrir le chat dans un nouvel onglet
          </ExternalLink>
        </div>
      ) : (
        <iframe
          className="player-chat__frame"
          title="Chat de la radio"
          src={url}
          loading="eager"
          referrerPolicy="strict-origin-when-cross-origin"
          // The widget needs its scripts, its own cookies and its links; it may not navigate the page.
          sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox"
          onError={() => dispatch(chatUnreachable())}
        />
      )}
    </section>
  );
}
