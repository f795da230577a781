import { useState } from 'react';
import { residenceFeedPath } from '@collectif/shared/addresses';

/**
 * « S'abonner »: the residence's podcast feed, as a link and copied for a podcast app. The address
 * is made absolute only on a click, from the page's own origin, so that the server's HTML and the
 * browser's first render are the same.
 */
export function Subscribe({ id }: { id: string }) {
  const [message, setMessage] = useState<{ text: string; url?: string } | null>(null);
  const copy = async () => {
    const url = new URL(residenceFeedPath(id), window.location.origin).href;
    try {
      await navigator.clipboard.writeText(url);
      setMessage({ text: 'Lien copié : collez-le dans votre application de podcasts.' });
    } catch {
      setMessage({ text: 'Copiez ce lien :', url });
    }
  };
  return (
    <section className="residence__subscribe" aria-labelledby="s-abonner">
      <h2 id="s-abonner">S&apos;abonner</h2>
      <p>Recevez chaque nouvelle émission de cette résidence dans votre application de podcasts.</p>
      <p className="residence__subscribe-actions">
        <a className="button button--ghost" href={residenceFeedPath(id)} type="application/rss+xml">
          Flux RSS
        </a>
        <button type="button" className="button" onClick={() => void copy()}>
          Copier le lien du flux
        </button>
      </p>
      <div aria-live="polite">
        {message === null ? null : (
          <p className="residence__subscribe-message">
            {message.text}{' '}
            {message.url === undefined ? null : (
              <input
                readOnly
                value={message.url}
                aria-label="Lien du flux"
                onFocus={(event) => {
                  event.target.select();
                }}
              />
            )}
          </p>
        )}
      </div>
    </section>
  );
}
