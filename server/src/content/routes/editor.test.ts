import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { ApiError } from '@collectif/shared';
import { invite, revoke } from '../accounts';
import { softwareAuthenticator, type SoftwareAuthenticator } from '../testing/authenticator';
import { buildApi, testConfig } from '../../api/testing/fixtures';
import { CEREMONIES_MAX } from './editor';

// Volunteers sign in with a passkey (docs/content.md, « Signing in »), here with an authenticator in
// software (the browser tests use Chromium's): an invitation, a passkey registered, a session, a
// resident's rights enforced by the server, signing out, a revoked account, a reused invitation.

const ORIGIN = 'http://localhost:8080';
const XSRF = { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc' };

let app: FastifyInstance;
let device: SoftwareAuthenticator;

beforeEach(async () => {
  app = await buildApi({ config: testConfig({ adminToken: null }) });
  device = softwareAuthenticator();
});

afterEach(async () => {
  await app.close();
});

/** A request with the XSRF pair and, when given, the session's cookie. */
function call(options: InjectOptions & { session?: string | undefined }) {
  const { session, ...rest } = options;
  return app.inject({
    ...rest,
    headers: { ...XSRF, cookie: session === undefined ? XSRF.cookie : `${XSRF.cookie}; ${session}` },
  });
}

/** The session cookie a response sets, as a request sends it back. */
function sessionOf(res: LightMyRequestResponse): string {
  const set = String(res.headers['set-cookie']);
  // A session cookie: no Max-Age (the server ends the session when idle or too old).
  expect(set).toMatch(/^collectif_editeur=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
  return set.split(';')[0] ?? '';
}

async function register(token: string, name: string): Promise<LightMyRequestResponse> {
  const start = await call({ method: 'POST', url: '/api/editor/invitation/options', payload: { token, name } });
  expect(start.statusCode).toBe(200);
  const { ceremony, options } = start.json<{
    ceremony: string;
    options: Parameters<SoftwareAuthenticator['create']>[0];
  }>();
  return call({
    method: 'POST',
    url: '/api/editor/invitation',
    payload: { ceremony, response: device.create(options, ORIGIN) },
  });
}

async function signIn(): Promise<LightMyRequestResponse> {
  const start = await call({ method: 'POST', url: '/api/editor/signin/options' });
  const { ceremony, options } = start.json<{
    ceremony: string;
    options: Parameters<SoftwareAuthenticator['get']>[0];
  }>();
  return call({
    method: 'POST',
    url: '/api/editor/signin',
    payload: { ceremony, response: device.get(options, ORIGIN) },
  });
}

const residentInvitation = async () =>
  (await invite(app.content, { role: 'residence', residence: 'axonberg', by: 'camille' })).token;

describe('a volunteer’s passkey', () => {
  it('makes the account from an invitation, signs in alone afterwards, and signs out', async () => {
    const registered = await register(await residentInvitation(), 'axonberg');
    expect(registered.statusCode).toBe(200);
    expect(registered.json()).toEqual({ name: 'axonberg', role: 'residence', residence: 'axonberg' });
    const first = sessionOf(registered);
    expect((await call({ url: '/api/editor/me', session: first })).json()).toMatchObject({ name: 'axonberg' });

    const signedIn = await signIn();
    expect(signedIn.statusCode).toBe(200);
    const second = sessionOf(signedIn);
    expect(second).not.toBe(first);
    expect((await call({ method: 'POST', url: '/api/editor/signout', session: second })).statusCode).toBe(204);
    expect((await call({ url: '/api/editor/me', session: second })).json()).toBeNull();
  });

  it('ends a session 12 hours after its sign-in, however busy', async () => {
    // Read before the sign-in: the session's own time is a little after it.
    const signedIn = Date.now();
    const session = sessionOf(await register(await residentInvitation(), 'axonberg'));
    // The server's clock moved on; the session's idle hour is renewed by each request.
    const at = (ms: number) => jest.spyOn(Date, 'now').mockReturnValue(signedIn + ms);
    try {
      // A request every 45 minutes, within the idle hour, for 11 h 15.
      for (let minutes = 45; minutes <= 675; minutes += 45) {
        at(minutes * 60_000);
        expect((await call({ url: '/api/editor/me', session })).json()).toMatchObject({ name: 'axonberg' });
      }
      // Past 12 hours (a minute of margin for a slow sign-in).
      at(12 * 3_600_000 + 60_000);
      expect((await call({ url: '/api/editor/me', session })).json()).toBeNull();
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('lets a resident save their residence, and refuses another one and the other kinds (403)', async () => {
    const session = sessionOf(await register(await residentInvitation(), 'axonberg'));
    const residences = (await app.inject({ url: '/api/content/residences' })).json<
      { id: string; description: string }[]
    >();
    const own = residences.find(({ id }) => id === 'axonberg');
    const other = residences.find(({ id }) => id !== 'axonberg');
    if (own === undefined || other === undefined) throw new Error('résidences de démonstration attendues');
    const put = (entry: { id: string; description: string }) =>
      call({ method: 'PUT', url: `/api/content/residences/${entry.id}`, session, payload: { entry } });
    expect((await put({ ...own, description: 'Ma bio.' })).json<{ version: { by: string } }>().version.by).toBe(
      'axonberg',
    );
    const refused = await put({ ...other, description: 'Pas la mienne.' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<ApiError>().message).toBe('Ce compte ne peut pas modifier ce contenu.');
    const team = await call({ method: 'PUT', url: '/api/content/team', session, payload: { data: [] } });
    expect(team.statusCode).toBe(403);
    const now = (await app.inject({ url: '/api/content/residences' })).json<{ id: string; description: string }[]>();
    expect(now.find(({ id }) => id === 'axonberg')?.description).toBe('Ma bio.');
    expect(now.find(({ id }) => id === other.id)?.description).toBe(other.description);
  });

  it('refuses a reused invitation, and a revoked account’s session and passkey', async () => {
    const token = await residentInvitation();
    const session = sessionOf(await register(token, 'axonberg'));
    const again = await call({
      method: 'POST',
      url: '/api/editor/invitation/options',
      payload: { token, name: 'autre' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json<ApiError>().message).toBe('Cette invitation a déjà servi : demandez-en une nouvelle.');

    await revoke(app.content, 'axonberg', 'camille');
    expect((await call({ url: '/api/editor/me', session })).json()).toBeNull();
    const signedIn = await signIn();
    expect(signedIn.statusCode).toBe(401);
    expect(signedIn.json<ApiError>().message).toBe('Cette clé d’accès n’ouvre aucun compte actif.');
  });

  it('refuses an answer signed for another site, or to a ceremony already used', async () => {
    const token = await residentInvitation();
    const start = await call({
      method: 'POST',
      url: '/api/editor/invitation/options',
      payload: { token, name: 'axonberg' },
    });
    const { ceremony, options } = start.json<{
      ceremony: string;
      options: Parameters<SoftwareAuthenticator['create']>[0];
    }>();
    const forged = await call({
      method: 'POST',
      url: '/api/editor/invitation',
      payload: { ceremony, response: device.create(options, 'https://site-piege.example') },
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json<ApiError>().message).toBe('Cette clé d’accès n’a pas pu être vérifiée : recommencez.');
    const replay = await call({
      method: 'POST',
      url: '/api/editor/invitation',
      payload: { ceremony, response: device.create(options, ORIGIN) },
    });
    expect(replay.json<ApiError>().message).toBe('Cette demande a expiré : recommencez.');
  });

  it('refuses writes signed out, and sign-ins without the XSRF header', async () => {
    const put = await call({ method: 'PUT', url: '/api/content/team', payload: { data: [] } });
    expect(put.statusCode).toBe(401);
    expect(put.json<ApiError>().message).toBe('Connectez-vous pour modifier le contenu.');
    const noXsrf = await app.inject({
      method: 'POST',
      url: '/api/editor/signin/options',
      headers: { cookie: 'XSRF-TOKEN=abc' },
    });
    expect(noXsrf.statusCode).toBe(403);
  });

  it('limits sign-in attempts a minute, in French', async () => {
    const statuses: number[] = [];
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 11; i += 1) {
      last = await call({ method: 'POST', url: '/api/editor/signin/options' });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(last?.json<ApiError>().message).toMatch(/^Trop de requêtes : réessayez dans \d+ s\.$/);
  });

  it('requires an admin’s passkey to verify its user, and takes a resident’s that only shows presence', async () => {
    device.userVerified = false;
    const admin = await invite(app.content, { role: 'admin', by: 'camille' });
    const refused = await register(admin.token, 'camille');
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ApiError>().message).toBe('Cette clé d’accès n’a pas pu être vérifiée : recommencez.');
    expect((await register(await residentInvitation(), 'axonberg')).statusCode).toBe(200);

    // An admin whose passkey verified them once, then answers without verifying: refused.
    const keyed = softwareAuthenticator();
    device = keyed;
    const again = await invite(app.content, { role: 'admin', by: 'camille' });
    expect((await register(again.token, 'lea')).statusCode).toBe(200);
    expect((await signIn()).statusCode).toBe(200);
    keyed.userVerified = false;
    const unverified = await signIn();
    expect(unverified.statusCode).toBe(401);
    expect(unverified.json<ApiError>().message).toBe('Cette clé d’accès n’a pas pu être vérifiée : recommencez.');
  });

  it('keeps a signed-in editor through a flood of ceremonies (each in a store of its own, bounded)', async () => {
    await app.close();
    app = await buildApi({
      // From many addresses, each under its limit, as a flood would come: here one, with no limit.
      config: testConfig({ adminToken: null, editor: { ...testConfig().editor, attemptsPerMinute: 100_000 } }),
    });
    const session = sessionOf(await register(await residentInvitation(), 'axonberg'));
    // Anyone may start a ceremony: more of them than the ceremonies' store keeps.
    for (let i = 0; i <= CEREMONIES_MAX; i += 1) {
      const started = await app.inject({ method: 'POST', url: '/api/editor/signin/options', headers: XSRF });
      if (started.statusCode !== 200) throw new Error(`cérémonie ${String(i)} : ${String(started.statusCode)}`);
    }
    expect((await call({ url: '/api/editor/me', session })).json()).toMatchObject({ name: 'axonberg' });
  }, 120_000);
});
