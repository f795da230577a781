import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { call, EditorError, type Me } from './call';

/*
 * Passkeys (WebAuthn, @simplewebauthn/browser; docs/content.md, « Signing in »): the site gives the
 * options and a ceremony id, the browser asks the volunteer's device, the site verifies the answer
 * and opens a session (an HttpOnly cookie the page never reads).
 */

type Options<T extends (...args: never[]) => unknown> = Parameters<T>[0]['optionsJSON'];

const UNSUPPORTED =
  'Ce navigateur ne gère pas les clés d’accès : utilisez un navigateur récent (Chrome, Firefox, Safari ou Edge).';
const CANCELLED = 'La clé d’accès n’a pas été utilisée (demande annulée ou expirée) : réessayez.';

/** What the device said, in French: the volunteer cancelled, or it could not. */
function deviceRefusal(error: unknown): EditorError {
  const name = error instanceof Error ? error.name : '';
  return new EditorError(
    0,
    'device',
    name === 'NotAllowedError' || name === 'AbortError' ? CANCELLED : UNSUPPORTED,
    null,
  );
}

function ensureSupported(): void {
  if (!browserSupportsWebAuthn()) throw new EditorError(0, 'unsupported', UNSUPPORTED, null);
}

/** Signs in with any passkey of the site. */
export async function signIn(): Promise<Me> {
  ensureSupported();
  const { ceremony, options } = await call<{ ceremony: string; options: Options<typeof startAuthentication> }>(
    'POST',
    '/editor/signin/options',
    {},
  );
  let response;
  try {
    response = await startAuthentication({ optionsJSON: options });
  } catch (error) {
    throw deviceRefusal(error);
  }
  return call<Me>('POST', '/editor/signin', { ceremony, response });
}

/** Makes the account an invitation's link names, with its first passkey, and signs in. */
export async function accept(token: string, name: string): Promise<Me> {
  ensureSupported();
  const { ceremony, options } = await call<{ ceremony: string; options: Options<typeof startRegistration> }>(
    'POST',
    '/editor/invitation/options',
    { token, name },
  );
  let response;
  try {
    response = await startRegistration({ optionsJSON: options });
  } catch (error) {
    throw deviceRefusal(error);
  }
  return call<Me>('POST', '/editor/invitation', { ceremony, response });
}
