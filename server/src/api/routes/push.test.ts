import { createECDH, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ApiConfig } from '../env';
import { buildApi, listen, testConfig } from '../testing/fixtures';
import { XSRF } from '../testing/editors';

// « Me prévenir »'s routes (docs/push.md, « The API »): the key, a subscription saved, changed and
// removed, and every hostile one refused with a French message and nothing kept.

let app: FastifyInstance;
let base: string;
let config: ApiConfig;

async function start(overrides: Partial<ApiConfig['push']> = {}, contentDir?: string): Promise<void> {
  const defaults = testConfig();
  config = testConfig({
    push: { ...defaults.push, ...overrides },
    ...(contentDir === undefined ? {} : { contentDir }),
  });
  app = await buildApi({ config });
  base = await listen(app);
}

afterEach(async () => {
  await app.close();
});

/** A subscription as Chrome makes one: an FCM endpoint, a P-256 public key, 16 bytes of secret. */
function browserSubscription(host = 'fcm.googleapis.com') {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://${host}/fcm/send/${randomBytes(12).toString('base64url')}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

const choice = (id: string, live = true, replay = true) => ({ id, live, replay });

function send(method: 'PUT' | 'DELETE', body: unknown, headers: Record<string, string> = XSRF) {
  return fetch(`${base}/api/push/subscription`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('the key', () => {
  it('is the demo’s own pair, kept in the content folder for the server alone, the same after a restart', async () => {
    await start();
    const answer = await fetch(`${base}/api/push/key`);
    expect(answer.status).toBe(200);
    const { publicKey } = (await answer.json()) as { publicKey: string };
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    const file = join(config.contentDir, 'push-vapid.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await app.close();
    await start({}, config.contentDir);
    expect(await (await fetch(`${base}/api/push/key`)).json()).toEqual({ publicKey });
  });

  it('is absent, and « Me prévenir » says so, where the site is deployed without its settings', async () => {
    await start({ vapid: null, demo: false });
    const answer = await fetch(`${base}/api/push/key`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({
      error: 'push_off',
      message: 'Les notifications ne sont pas en service sur ce site pour le moment.',
    });
    expect((await send('PUT', { ...browserSubscription(), residences: [choice('axonberg')] })).status).toBe(503);
  });
});

describe('a subscription', () => {
  it('is kept with its choices alone, the residences the site has, then changed and removed', async () => {
    await start();
    const subscription = browserSubscription();
    const saved = await send('PUT', {
      ...subscription,
      residences: [choice('axonberg'), choice('la-brume', false, true), choice('partie-depuis-longtemps')],
    });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ residences: [choice('axonberg'), choice('la-brume', false, true)] });
    expect(await app.push.store.followers('la-brume', 'replay')).toHaveLength(1);
    expect(await app.push.store.followers('la-brume', 'live')).toEqual([]);

    // Changing the choices is the same browser: it replaces them.
    const changed = await send('PUT', { ...subscription, residences: [choice('la-brume', true, false)] });
    expect(changed.status).toBe(200);
    expect(await app.push.store.followers('axonberg', 'live')).toEqual([]);
    expect(await app.push.store.followers('la-brume', 'live')).toHaveLength(1);

    // What the file keeps: the endpoint, the keys, the choices and when; no address, no browser.
    await app.push.store.backup();
    const file = join(config.contentDir, 'push.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { subscriptions: Record<string, unknown>[] };
    expect(kept.subscriptions).toHaveLength(1);
    expect(Object.keys(kept.subscriptions[0] ?? {}).sort()).toEqual(['at', 'endpoint', 'keys', 'residences']);
    expect(readFileSync(file, 'utf8')).not.toMatch(/127\.0\.0\.1|node|undici/i);

    // Removed with its secret only; the same answer when there is none.
    const wrong = await send('DELETE', {
      endpoint: subscription.endpoint,
      keys: { auth: randomBytes(16).toString('base64url') },
    });
    expect(wrong.status).toBe(204);
    expect(await app.push.store.count()).toBe(1);
    const removed = await send('DELETE', { endpoint: subscription.endpoint, keys: { auth: subscription.keys.auth } });
    expect(removed.status).toBe(204);
    expect(await app.push.store.count()).toBe(0);
  });

  it('is removed when no residence is left', async () => {
    await start();
    const subscription = browserSubscription('updates.push.services.mozilla.com');
    await send('PUT', { ...subscription, residences: [choice('axonberg')] });
    const answer = await send('PUT', { ...subscription, residences: [choice('partie-depuis-longtemps')] });
    expect(await answer.json()).toEqual({ residences: [] });
    expect(await app.push.store.count()).toBe(0);
  });

  it('of another browser is not replaced', async () => {
    await start();
    const subscription = browserSubscription('web.push.apple.com');
    await send('PUT', { ...subscription, residences: [choice('axonberg')] });
    const forged = await send('PUT', {
      ...subscription,
      keys: { ...subscription.keys, auth: randomBytes(16).toString('base64url') },
      residences: [choice('la-brume')],
    });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { message: string }).message).toBe(
      'Cet abonnement appartient à un autre navigateur.',
    );
    expect(await app.push.store.followers('axonberg', 'live')).toHaveLength(1);
  });
});

describe('bounds', () => {
  it('refuses new subscriptions past the day’s from one network, and past the site’s in all', async () => {
    await start({ perNetwork: 2 });
    const first = browserSubscription();
    for (const subscription of [first, browserSubscription()]) {
      expect((await send('PUT', { ...subscription, residences: [choice('axonberg')] })).status).toBe(200);
    }
    const third = await send('PUT', { ...browserSubscription(), residences: [choice('axonberg')] });
    expect(third.status).toBe(429);
    expect(((await third.json()) as { message: string }).message).toBe(
      'Trop d’abonnements depuis ce réseau aujourd’hui : réessayez demain.',
    );
    // Changing one is not a new one.
    expect((await send('PUT', { ...first, residences: [choice('la-brume')] })).status).toBe(200);
    expect(await app.push.store.count()).toBe(2);

    await app.close();
    // Room for one subscription of this size (about 1.4 KB each, instances/records.ts `recordCost`).
    await start({ perNetwork: 100, storeBytes: 2000 });
    expect((await send('PUT', { ...browserSubscription(), residences: [choice('axonberg')] })).status).toBe(200);
    const full = await send('PUT', { ...browserSubscription(), residences: [choice('axonberg')] });
    expect(full.status).toBe(503);
    expect(((await full.json()) as { error: string }).error).toBe('full');
  });

  it('refuses each hostile subscription in French, and keeps nothing of it', async () => {
    await start();
    const good = browserSubscription();
    const residences = [choice('axonberg')];
    const cases: [string, unknown, number, RegExp][] = [
      [
        'http',
        { ...good, endpoint: good.endpoint.replace('https:', 'http:'), residences },
        400,
        /service de notifications/,
      ],
      [
        'another host',
        { ...good, endpoint: 'https://attaquant.example/fcm/send/x', residences },
        400,
        /service de notifications/,
      ],
      [
        'a look-alike',
        { ...good, endpoint: 'https://fcm.googleapis.com.attaquant.example/x', residences },
        400,
        /service de notifications/,
      ],
      [
        'the loopback',
        { ...good, endpoint: 'https://127.0.0.1:9/push/x', residences },
        400,
        /service de notifications/,
      ],
      [
        'a link-local address',
        { ...good, endpoint: 'https://[fe80::1]/push/x', residences },
        400,
        /service de notifications/,
      ],
      [
        'credentials',
        { ...good, endpoint: 'https://moi:secret@fcm.googleapis.com/fcm/send/x', residences },
        400,
        /service de notifications/,
      ],
      [
        'a short key',
        { ...good, keys: { ...good.keys, p256dh: randomBytes(33).toString('base64url') }, residences },
        400,
        /clé/i,
      ],
      [
        'a long secret',
        { ...good, keys: { ...good.keys, auth: randomBytes(24).toString('base64url') }, residences },
        400,
        /secret|clé/i,
      ],
      ['no choice', { ...good, residences: [choice('axonberg', false, false)] }, 400, /au moins un des deux choix/],
      [
        '51 residences',
        { ...good, residences: Array.from({ length: 51 }, (_, i) => choice(`r${String(i)}`)) },
        400,
        /Au plus 50/,
      ],
      ['twice', { ...good, residences: [choice('axonberg'), choice('axonberg')] }, 400, /deux fois/],
      ['markup as an id', { ...good, residences: [choice('<img src=x onerror=alert(1)>')] }, 400, /Résidence inconnue/],
      ['another field', { ...good, residences, userAgent: 'Mozilla' }, 400, /Champ inconnu/],
      ['a body of 9 KiB', { ...good, endpoint: `${good.endpoint}${'a'.repeat(9 * 1024)}`, residences }, 413, /./],
    ];
    for (const [what, body, status, message] of cases) {
      const answer = await send('PUT', body);
      expect({ what, status: answer.status }).toEqual({ what, status });
      const text = await answer.text();
      expect({ what, text }).toEqual({ what, text: expect.stringMatching(message) as string });
      // Nothing of what was sent is repeated.
      expect(text).not.toContain('attaquant');
      expect(text).not.toContain('<img');
    }
    // Without the XSRF token: refused as every write.
    expect((await send('PUT', { ...good, residences }, {})).status).toBe(403);
    expect(await app.push.store.count()).toBe(0);
  });
});
