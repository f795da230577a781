import type { FastifyInstance } from 'fastify';
import { invite } from '../../content/accounts';
import type { Role } from '../../content/editors';
import { softwareAuthenticator, type SoftwareAuthenticator } from '../../content/testing/authenticator';

/** The XSRF cookie and header every write to /api carries (docs/api.md, « XSRF »). */
export const XSRF = { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc' };

/** The site's origin the tests' passkeys are made for. */
export const EDITOR_ORIGIN = 'http://localhost:8080';

/**
 * Requests to a test server's /api, over real HTTP, as the admin's token or as a volunteer signed in
 * with a passkey in software (docs/content.md, « Signing in »). `server` gives the server of the
 * moment: a test may start several in turn.
 */
export function editorClient(server: () => { app: FastifyInstance; base: string }, adminToken: string) {
  const asAdmin = { ...XSRF, authorization: `Bearer ${adminToken}` };

  /** A request to /api as `as` (the admin's token by default), its body as JSON when given. */
  function send(
    path: string,
    { method = 'GET', body, as = asAdmin }: { method?: string; body?: unknown; as?: object } = {},
  ) {
    return fetch(`${server().base}/api${path}`, {
      method,
      headers: { ...as, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  /** The headers of a volunteer of `role` signed in (an invitation, then a passkey in software). */
  async function volunteer(role: Role, name: string, residence?: string): Promise<object> {
    const device: SoftwareAuthenticator = softwareAuthenticator();
    const { token } = await invite(server().app.content, {
      role,
      by: 'camille',
      ...(residence === undefined ? {} : { residence }),
    });
    const started = await send('/editor/invitation/options', { method: 'POST', as: XSRF, body: { token, name } });
    const { ceremony, options } = (await started.json()) as {
      ceremony: string;
      options: Parameters<SoftwareAuthenticator['create']>[0];
    };
    const made = await send('/editor/invitation', {
      method: 'POST',
      as: XSRF,
      body: { ceremony, response: device.create(options, EDITOR_ORIGIN) },
    });
    if (made.status !== 200) throw new Error(`invitation refusée : ${String(made.status)} ${await made.text()}`);
    const session = made.headers.getSetCookie().find((cookie) => cookie.startsWith('collectif_editeur='));
    return { ...XSRF, cookie: `${XSRF.cookie}; ${session?.split(';')[0] ?? ''}` };
  }

  return { send, volunteer, asAdmin };
}
