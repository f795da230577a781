import { useState } from 'react';
import { apiUrl } from '@collectif/shared';
import { followSearch } from '@collectif/shared/follow';
import { PAGES, usePageHref } from '@collectif/shared/addresses';

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

type Permission = NotificationPermission | 'unsupported';

const permissionNow = (): Permission => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);

const PERMISSION_TEXT: Record<Permission, string> = {
  default: 'Votre navigateur peut aussi afficher une notification : il vous demandera d’abord si vous l’acceptez.',
  granted:
    'Les notifications sont activées : votre navigateur en affiche une aussi, même si l’onglet est en arrière-plan.',
  denied:
    'Les notifications de ce site sont refusées dans votre navigateur : le site vous le dira seulement dans la page.',
  unsupported: 'Ce navigateur n’affiche pas de notifications : le site vous le dira dans la page.',
};

/**
 * « Me prévenir »: while the site is open, the player says when a followed residence goes on air; a
 * system notification too once the visitor allows it. Permission is asked only on this button.
 */
export function FollowAlerts() {
  // Rendered once the page is shown (never on the server): the browser's own answer, at once.
  const [permission, setPermission] = useState<Permission>(permissionNow);
  const ask = async () => {
    try {
      setPermission(await Notification.requestPermission());
    } catch {
      setPermission(permissionNow());
    }
  };
  return (
    <section className="followed__section" aria-labelledby="en-direct">
      <h2 id="en-direct">Quand elles passent en direct</h2>
      <p>Tant que le site est ouvert, il vous dit quand une de vos résidences passe à l’antenne.</p>
      <p role="status">{PERMISSION_TEXT[permission]}</p>
      {permission === 'default' ? (
        <p className="followed__actions">
          <button type="button" className="button" onClick={() => void ask()}>
            Me prévenir
          </button>
        </p>
      ) : null}
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
