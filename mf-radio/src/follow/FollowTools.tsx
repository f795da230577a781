import { useState } from 'react';
import { apiUrl, Link } from '@collectif/shared';
import { followSearch } from '@collectif/shared/follow';
import { PAGES, usePageHref } from '@collectif/shared/addresses';
import { pushSupport, PUSH_TEXT } from '../push/support';

/*
 * What « Mes résidences » offers once something is followed (docs/follow.md): the personal
 * calendar, a word when a residence goes on air, and the list on another device. Rendered in the
 * browser only (the list is this browser's), so the page's own origin is known.
 */

/** The followed residences' calendar, on the site's origin: the ids are all its address holds. */
export function followCalendarUrl(ids: readonly string[], origin: string): URL {
  const url = new URL(apiUrl('/schedule/suivi.ics'), origin);
  url.searchParams.set('residences', ids.join(','));
  return url;
}

/** « Mon agenda »: a `webcal:` address for calendar programs to subscribe to, and the `.ics` file itself. */
export function FollowCalendar({ ids }: { ids: readonly string[] }) {
  const url = followCalendarUrl(ids, window.location.href);
  const webcal = `webcal://${url.host}${url.pathname}${url.search}`;
  return (
    <section className="followed__section" aria-labelledby="mon-agenda">
      <h2 id="mon-agenda">Mon agenda</h2>
      <p>
        Les prochaines émissions de vos résidences dans l’agenda de votre téléphone ou de votre ordinateur, avec un
        rappel 15 minutes avant chacune : c’est votre agenda qui vous prévient. Son adresse contient la liste de vos
        résidences, et rien d’autre sur vous.
      </p>
      <p className="followed__actions">
        <a className="button" href={webcal}>
          S’abonner dans mon agenda
        </a>
        <a className="button button--ghost" href={url.href} type="text/calendar">
          Fichier .ics
        </a>
      </p>
      <p>Sur Google Agenda : « Autres agendas », « À partir de l’URL », avec l’adresse du fichier .ics.</p>
    </section>
  );
}

/** Where About says what the site keeps for « Me prévenir » (mf-about's Privacy, `confidentialite`). */
export const PRIVACY_HASH = '#confidentialite';

/** What this browser's answer on notifications means here, when it stands in the way. */
function blockedText(): string | null {
  const support = pushSupport();
  if (support === 'home-screen') return PUSH_TEXT.homeScreen;
  if (support === 'unsupported') return PUSH_TEXT.unsupported;
  return Notification.permission === 'denied' ? PUSH_TEXT.denied : null;
}

/**
 * « Quand elles passent en direct »: while the site is open, the player says when a followed
 * residence goes on air; with « Me prévenir » on a residence of the list, the browser says it too,
 * the site closed (docs/follow.md, « Me prévenir »). The permission is asked by that button only.
 */
export function FollowAlerts() {
  // Rendered once the page is shown (never on the server): the browser's own answer, at once.
  const [blocked] = useState(blockedText);
  const about = usePageHref()(PAGES.about);
  return (
    <section className="followed__section" aria-labelledby="en-direct">
      <h2 id="en-direct">Quand elles passent en direct</h2>
      <p>Tant que le site est ouvert, il vous dit quand une de vos résidences passe à l’antenne.</p>
      <p>
        Avec « Me prévenir » sur une résidence, votre navigateur vous prévient aussi site fermé : quand son émission
        commence, quand une nouvelle émission est publiée. Il vous demande d’abord d’accepter les notifications.
        {about === null ? null : (
          <>
            {' '}
            <Link to={`${about}${PRIVACY_HASH}`}>Ce que le site garde pour cela</Link>
          </>
        )}
      </p>
      {blocked === null ? null : <p className="followed__message">{blocked}</p>}
    </section>
  );
}

/** « Copier mon lien »: the list in an address, to follow the same residences on another device. */
export function FollowLink({ ids }: { ids: readonly string[] }) {
  const href = usePageHref()(PAGES.followed, {}, followSearch(ids));
  const [message, setMessage] = useState<{ text: string; url?: string } | null>(null);
  if (href === null) return null;
  const copy = async () => {
    const url = new URL(href, window.location.origin).href;
    try {
      await navigator.clipboard.writeText(url);
      setMessage({ text: 'Lien copié : ouvrez-le sur votre autre appareil.' });
    } catch {
      setMessage({ text: 'Copiez ce lien :', url });
    }
  };
  return (
    <section className="followed__section" aria-labelledby="autre-appareil">
      <h2 id="autre-appareil">Sur un autre appareil</h2>
      <p>
        Ce lien contient la liste de vos résidences, sans compte : ouvert sur un autre téléphone ou ordinateur, il
        propose de les suivre là aussi.
      </p>
      <p className="followed__actions">
        <button type="button" className="button" onClick={() => void copy()}>
          Copier mon lien
        </button>
      </p>
      <div aria-live="polite">
        {message === null ? null : (
          <p className="followed__message">
            {message.text}{' '}
            {message.url === undefined ? null : (
              <input
                readOnly
                value={message.url}
                aria-label="Mon lien"
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
