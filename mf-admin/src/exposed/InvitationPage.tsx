import { useId, useState, useSyncExternalStore } from 'react';
import { useNavigate, type PageRoute, type RemoteContract } from '@collectif/shared';
import { PAGES, usePageHref } from '@collectif/shared/addresses';
import { messageOf } from '../editor/call';
import { accept } from '../editor/passkeys';
import '../editor/admin.css';

/*
 * /admin/invitation#<token>: the page an invitation's link opens (docs/content.md, « Accounts »).
 * The volunteer chooses their account's name and creates their passkey; the site makes the account
 * and signs them in. The token is in the address's fragment, which never reaches a server's log.
 */

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The address's fragment: the invitation's token; none on the server, which never sees it. */
const subscribeHash = (changed: () => void) => {
  window.addEventListener('hashchange', changed);
  return () => {
    window.removeEventListener('hashchange', changed);
  };
};
const readToken = () => window.location.hash.replace(/^#/, '');
const noToken = () => null;

function InvitationPage() {
  const formId = useId();
  const navigate = useNavigate();
  const admin = usePageHref()(PAGES.admin) ?? '/';
  const token = useSyncExternalStore(subscribeHash, readToken, noToken);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The field is read when the form is sent (not kept in state): a name typed before the page's
  // script took over is kept.
  const onSubmit = (form: HTMLFormElement) => {
    const field = form.elements.namedItem('nom');
    const name = (field instanceof HTMLInputElement ? field.value : '').trim().toLowerCase();
    if (!NAME.test(name)) {
      setError(
        'Le nom : des lettres minuscules, des chiffres et des tirets, par exemple « camille » ou « axonberg-2 ».',
      );
      return;
    }
    setBusy(true);
    setError(null);
    accept(token ?? '', name)
      .then(() => {
        void navigate(admin);
      })
      .catch((failure: unknown) => {
        setError(messageOf(failure));
      })
      .finally(() => {
        setBusy(false);
      });
  };

  return (
    <div className="page admin-page">
      <h1>Invitation</h1>
      {token === '' ? (
        <p className="admin-outcome admin-outcome--error" role="alert">
          Ce lien d’invitation est incomplet : ouvrez le lien reçu en entier.
        </p>
      ) : (
        <form
          className="admin-form"
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit(event.currentTarget);
          }}
          noValidate
        >
          <p>
            Bienvenue ! Choisissez le nom de votre compte, puis créez votre clé d’accès : votre téléphone, votre
            ordinateur ou votre clé de sécurité la garde pour ce site. Elle vous connectera ensuite, sans mot de passe.
          </p>
          <div className="admin-field">
            <label htmlFor={`${formId}-nom`}>Nom du compte</label>
            <input
              id={`${formId}-nom`}
              name="nom"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              aria-describedby={`${formId}-aide`}
              aria-invalid={error === null ? undefined : true}
            />
            <p className="admin-field__hint" id={`${formId}-aide`}>
              Lettres minuscules, chiffres et tirets.
            </p>
          </div>
          {error === null ? null : (
            <p className="admin-outcome admin-outcome--error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="button" disabled={busy || token === null}>
            {busy ? 'Création ...' : 'Créer ma clé d’accès'}
          </button>
        </form>
      )}
    </div>
  );
}

export default InvitationPage satisfies RemoteContract['admin']['InvitationPage'];

/** Its address and names (docs/parts.md, « Pages »): not in the menu, never indexed. */
export const route: PageRoute = {
  path: 'admin/invitation',
  title: 'Invitation · Espace des bénévoles',
  area: 'La page d’invitation',
  back: 'admin',
  noindex: true,
};
