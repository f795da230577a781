import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { until } from '@collectif/shared/testing';
import { runAdmin } from '../src/admin/cli';
import { ephemeralKey } from '../src/content/ephemeral';
import { sealer } from '../src/instances/seal';
import { softwareAuthenticator, type SoftwareAuthenticator } from '../src/content/testing/authenticator';
import { startDeployment, type Deployment, type Instance } from './harness';

// An editor's sign-in against whoever has Redis's password (docs/deploy.md, « What the site takes
// from Redis »), for real on loopback: two instances of the built server sharing Debian's
// redis-server as the site's ACL user, and a forger connected as that user too, who can read the
// accounts' version (an open invitation's digest) and write any key under collectif:.

const ADMIN_TOKEN = 'jeton-admin-du-test-des-faussaires';
/** The instances' shared key (SITE_SECRET): the forger lacks it; the test uses it only to say where an instance reads. */
const SITE_SECRET = 'secret-partage-des-instances-faussaires';
const XSRF = { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc', 'content-type': 'application/json' };

let deployment: Deployment;
/** The forger's connection, as the site's user. */
let forger: Redis;

beforeAll(async () => {
  deployment = await startDeployment({
    instances: 2,
    nginx: false,
    env: { RENDERERS: '0', SITE_SECRET, ADMIN_TOKEN },
  });
  forger = new Redis(deployment.redis?.url ?? '');
}, 90_000);

afterAll(async () => {
  forger.disconnect();
  // Throws if Redis refused the site's user anything.
  await deployment.close();
}, 30_000);

const instance = (index: number): Instance => {
  const found = deployment.instances[index];
  if (found === undefined) throw new Error(`instance ${String(index)} attendue`);
  return found;
};
const base = (index: number) => `http://127.0.0.1:${String(instance(index).port)}`;
const log = (index: number) => instance(index).log.join('');
/** How many times the log says `text`. */
const times = (index: number, text: string) => log(index).split(text).length - 1;

const post = (index: number, path: string, body: unknown, client?: string) =>
  fetch(`${base(index)}/api/editor/${path}`, {
    method: 'POST',
    headers: { ...XSRF, ...(client === undefined ? {} : { 'x-forwarded-for': client }) },
    body: JSON.stringify(body),
  });

/** `npm run admin` on a machine of its own, through Redis: its lines. */
async function admin(...args: string[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'admin-'));
  const lines: string[] = [];
  try {
    const code = await runAdmin(args, {
      env: { REDIS_URL: deployment.redis?.url ?? '', SITE_SECRET, CONTENT_DIR: dir },
      out: (line) => lines.push(line),
    });
    expect(code).toBe(0);
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('an editor’s sign-in against a forged Redis', () => {
  it('redeems no open invitation through a ceremony written in Redis, and makes no account', async () => {
    const link = (await admin('invite', '--role', 'admin', '--site', deployment.origin)).find((line) =>
      line.includes('#'),
    );
    const token = link?.slice(link.indexOf('#') + 1) ?? '';
    // The invitation is open on both instances (they took the accounts from Redis).
    for (const index of [0, 1]) {
      await until(async () => (await post(index, 'invitation/options', { token, name: 'benevole' })).ok, {
        timeoutMs: 5000,
        what: 'l’invitation ouverte',
      });
    }

    // What the forger reads: the accounts' version, signed but readable, names the digest.
    const version = (await forger.hget('collectif:content:current', 'accounts')) ?? '';
    const accounts = JSON.parse(version.slice(version.indexOf('.') + 1)) as {
      data: { invitations: { digest: string }[] };
    };
    const digest = accounts.data.invitations[0]?.digest ?? '';
    expect(digest).toMatch(/^[0-9a-f]{64}$/);

    // A registration's ceremony of the forger's own: their challenge, the invitation's digest, their
    // name, and a passkey of theirs answering that challenge for the site.
    const challenge = randomBytes(32).toString('base64url');
    const ceremony = JSON.stringify({ challenge, invitation: digest, name: 'intrus' });
    const device = softwareAuthenticator();
    const options = { challenge, rp: { id: new URL(deployment.origin).hostname }, user: { id: 'aW50cnVz' } };
    const redeem = async (index: number, id: string) => {
      const answer = await post(index, 'invitation', {
        ceremony: id,
        response: device.create(options, deployment.origin),
      });
      expect(answer.headers.get('set-cookie') ?? '').not.toContain('collectif_editeur=');
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { message: string }).message).toBe('Cette demande a expiré : recommencez.');
    };
    // Under its id in clear, where the instances kept a ceremony before: not where one is read now.
    await forger.set('collectif:editeurs:ceremony:forgee', ceremony, 'PX', 60_000);
    await redeem(0, 'forgee');
    // Unsigned, under the key an instance reads (which only the shared key tells): refused.
    await forger.set(ephemeralKey(sealer(SITE_SECRET), 'ceremony:signee-non'), ceremony, 'PX', 60_000);
    await redeem(1, 'signee-non');
    // The unsigned one is said once, by the instance that read it.
    const said = 'valeur refusée dans Redis (cérémonie de clé d’accès) : signature absente ou fausse (SITE_SECRET)';
    await until(() => times(1, said) === 1, { timeoutMs: 2000, what: 'la cérémonie refusée dite' });
    expect(times(0, said)).toBe(0);

    // No account made, the invitation still open: its volunteer redeems it.
    expect(await admin('list')).toEqual([
      'Aucun compte.',
      'Invitations en attente :',
      expect.stringContaining('admin'),
    ]);
    const start = (await (await post(0, 'invitation/options', { token, name: 'benevole' })).json()) as {
      ceremony: string;
      options: Parameters<SoftwareAuthenticator['create']>[0];
    };
    const volunteer = softwareAuthenticator();
    const registered = await post(1, 'invitation', {
      ceremony: start.ceremony,
      response: volunteer.create(start.options, deployment.origin),
    });
    expect(registered.status).toBe(200);
    expect(await registered.json()).toMatchObject({ name: 'benevole', role: 'admin' });
  }, 30_000);

  it('locks no address out with a count written in Redis: wrong admin tokens, sign-in attempts', async () => {
    const client = '203.0.113.9';
    const asAdmin = async () => {
      const me = await fetch(`${base(0)}/api/editor/me`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-forwarded-for': client },
      });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ name: 'admin (jeton)', role: 'admin' });
    };
    // Counts far past the limits, where the instances kept them before: the client's address in clear.
    await forger.set(`collectif:editeurs:wrong-token:${client}`, '999', 'PX', 60_000);
    await forger.set(`collectif:limite:POST/api/editor/signin/options-${client}`, '999', 'PX', 60_000);
    await asAdmin();
    expect((await post(1, 'signin/options', {}, client)).status).toBe(200);
    // Unsigned, where an instance reads the wrong tokens' count now: refused, said once.
    await forger.set(ephemeralKey(sealer(SITE_SECRET), `wrong-token:${client}`), '999', 'PX', 60_000);
    await asAdmin();
    await asAdmin();
    const said = 'valeur refusée dans Redis (compte de jetons d’administration refusés)';
    await until(() => times(0, said) === 1, { timeoutMs: 2000, what: 'le compte refusé dit' });
    expect(times(0, said)).toBe(1);
  });
});
