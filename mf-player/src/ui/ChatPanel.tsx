import { useCallback } from 'react';
import { useAppDispatch } from '@collectif/shared';
import { chatUrl } from '../player/config';
import { chatToggled, chatUnreachable, type ChatStatus } from '../player/playerSlice';
import { CloseIcon } from './icons';
import { useEscape } from './useEscape';
import { ExternalLink } from '@collectif/shared/ui';
import { CHAT_PANEL_ID } from './panelIds';
import './panels.css';
const TITLE_ID = 'lecteur-chat-titre';

/** The bar's chat button, where the focus returns when the panel closes. */
function focusChatButton() {
  document.querySelector<HTMLElement>('.player__button[aria-label$="le chat"]')?.focus();
}

/**
 * The radio's chat, above the player: a titled panel with its own close button. The widget is
 * loaded when the visitor opens the panel (that click is the consent, docs/interface.md); when it
 * cannot load, a French message and a link take only the room they need.
 */
function ChatPanel({ status }: { status: ChatStatus }) {
  const dispatch = useAppDispatch();
  const url = chatUrl();
  const close = useCallback(() => {
    dispatch(chatToggled());
    focusChatButton();
  }, [dispatch]);
  // The panel covers most of the screen: Escape closes it from anywhere, like a dialog.
  useEscape(close);
  const failed = status === 'failed';
  return (
    <section
      id={CHAT_PANEL_ID}
      className={`player-chat${failed ? ' player-chat--fallback' : ''}`}
      aria-labelledby={TITLE_ID}
    >
      <div className="player-chat__header">
        <h2 id={TITLE_ID} className="player-chat__title">
          Chat de la radio
        </h2>
        <button type="button" className="player__button" aria-label="Fermer le panneau du chat" onClick={close}>
          <CloseIcon />
        </button>
      </div>
      {failed ? (
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

// Loaded when first opened (PlayerView.tsx, `lazy`).
export default ChatPanel;
