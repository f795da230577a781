import { createECDH, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ApiConfig } from '../api/env';
import { buildApi, listen, testConfig } from '../api/testing/fixtures';
import { XSRF } from '../api/testing/editors';

// « Me prévenir »'s routes (docs/push.md, « The API »): the key, a subscription saved, changed,
// renewed, moved and removed, one answer for an endpoint that is not this browser's, and every
// hostile one refused with a French message and nothing kept.

let app: FastifyInstance;
let base: string;
let config: ApiConfig;

async function start(
  overrides: Partial<ApiConfig['push']> = {},
  contentDir?: string,
  now?: () => number,
): Promise<void> {
  const defaults = testConfig();
  config = testConfig({
    push: { ...defaults.push, ...overrides },
    ...(contentDir === undefined ? {} : { contentDir }),
  });
  app = await buildApi({ config, ...(now === undefined ? {} : { now }) });
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
    // The request came from 127.0.0.1 with fetch's user agent (`node`, undici): neither is written.
    // Matched as written, not case-insensitively: the keys' random base64 once held « nODe ».
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toMatch(/"node"|undici/);

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

  it('of another browser is not replaced, and the answer is a new one’s: nothing says it is kept', async () => {
    await start({ perNetwork: 3 });
    const subscription = browserSubscription('web.push.apple.com');
    await send('PUT', { ...subscription, residences: [choice('axonberg')] });
    const forged = await send('PUT', {
      ...subscription,
      keys: { ...subscription.keys, auth: randomBytes(16).toString('base64url') },
      residences: [choice('la-brume')],
    });
    const fresh = await send('PUT', { ...browserSubscription('web.push.apple.com'), residences: [choice('la-brume')] });
    expect({ status: forged.status, body: await forged.text() }).toEqual({
      status: fresh.status,
      body: await fresh.text(),
    });
    expect(forged.status).toBe(200);
    expect((await app.push.store.followers('axonberg', 'live')).map((target) => target.endpoint)).toEqual([
      subscription.endpoint,
    ]);
    expect((await app.push.store.followers('la-brume', 'live')).map((target) => target.endpoint)).not.toContain(
      subscription.endpoint,
    );
    // Counted for its network as a new one is: past the day's three, refused alike.
    const again = await send('PUT', {
      ...subscription,
      keys: { ...subscription.keys, auth: randomBytes(16).toString('base64url') },
      residences: [choice('la-brume')],
    });
    const third = await send('PUT', { ...browserSubscription('web.push.apple.com'), residences: [choice('la-brume')] });
    expect({ status: again.status, body: await again.text() }).toEqual({
      status: third.status,
      body: await third.text(),
    });
    expect(again.status).toBe(429);
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

describe('a renewal', () => {
  const DAY = 24 * 3600_000;

  /** What the worker sends: no XSRF token (it cannot read the page's cookie). */
  function renew(body: unknown, headers: Record<string, string> = {}) {
    return fetch(`${base}/api/push/subscription/renew`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  /** The subscriptions as the file keeps them. */
  async function kept(): Promise<{ endpoint: string; keys: object; residences: object[]; at: number }[]> {
    await app.push.store.backup();
    const file = JSON.parse(readFileSync(join(config.contentDir, 'push.json'), 'utf8')) as {
      subscriptions: { endpoint: string; keys: object; residences: object[]; at: number }[];
    };
    return file.subscriptions;
  }

  it('saves a kept subscription now, its choices as they were, with its secret and no XSRF token', async () => {
    // Saved 100 days ago.
    let time = Date.now() - 100 * DAY;
    await start({}, undefined, () => time);
    const subscription = browserSubscription();
    const residences = [choice('axonberg'), choice('la-brume', false, true)];
    expect((await send('PUT', { ...subscription, residences })).status).toBe(200);
    expect((await kept())[0]?.at).toBe(time);

    time = Date.now();
    const answer = await renew({ endpoint: subscription.endpoint, keys: { auth: subscription.keys.auth } });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const [record] = await kept();
    expect(record?.at).toBeGreaterThanOrEqual(time);
    expect(record).toMatchObject({ endpoint: subscription.endpoint, keys: subscription.keys, residences });
  });

  it('moves a subscription to the one that replaced it (pushsubscriptionchange), with the same choices', async () => {
    await start();
    const before = browserSubscription();
    const residences = [choice('axonberg', true, false), choice('la-brume', false, true)];
    await send('PUT', { ...before, residences });
    const next = browserSubscription('updates.push.services.mozilla.com');
    const answer = await renew({ ...next, old: { endpoint: before.endpoint, keys: { auth: before.keys.auth } } });
    expect(answer.status).toBe(204);
    expect(await kept()).toEqual([
      { endpoint: next.endpoint, keys: next.keys, residences, at: expect.any(Number) as number },
    ]);
    expect(await app.push.store.followers('axonberg', 'live')).toEqual([
      { id: expect.any(String) as string, endpoint: next.endpoint, keys: next.keys },
    ]);
    expect(await app.push.store.followers('axonberg', 'replay')).toEqual([]);
    // The old one is gone: renewing it is renewing nothing.
    expect((await renew({ endpoint: before.endpoint, keys: { auth: before.keys.auth } })).status).toBe(404);
  });

  it('answers alike an endpoint not kept, kept by another browser, or kept past its time, and changes nothing', async () => {
    let time = Date.now();
    await start({}, undefined, () => time);
    const mine = browserSubscription();
    await send('PUT', { ...mine, residences: [choice('axonberg')] });
    // Saved 200 days ago, past PUSH_SUBSCRIPTION_DAYS (180).
    const old = browserSubscription();
    time = Date.now() - 200 * DAY;
    await send('PUT', { ...old, residences: [choice('la-brume')] });
    time = Date.now();
    const before = await kept();

    const otherAuth = randomBytes(16).toString('base64url');
    const next = browserSubscription();
    const unknown = browserSubscription();
    const answers = await Promise.all(
      [
        { endpoint: mine.endpoint, keys: { auth: otherAuth } },
        { endpoint: unknown.endpoint, keys: { auth: unknown.keys.auth } },
        { endpoint: old.endpoint, keys: { auth: old.keys.auth } },
        { ...next, old: { endpoint: mine.endpoint, keys: { auth: otherAuth } } },
        { ...next, old: { endpoint: unknown.endpoint, keys: { auth: unknown.keys.auth } } },
        { ...next, old: { endpoint: old.endpoint, keys: { auth: old.keys.auth } } },
        { endpoint: 'pas une adresse', keys: { auth: otherAuth } },
      ].map(async (body) => {
        const answer = await renew(body);
        return { status: answer.status, body: await answer.text() };
      }),
    );
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(
      new Set([
        JSON.stringify({
          status: 404,
          body: JSON.stringify({
            error: 'not_kept',
            message:
              'Cet abonnement aux notifications n’est pas enregistré sur ce site : activez de nouveau « Me prévenir ».',
          }),
        }),
      ]),
    );
    expect(await kept()).toEqual(before);
  });

  it('to a new endpoint is a new record: when the site is full, the old one stays', async () => {
    // Room for one subscription of this size (about 1.4 KB each).
    await start({ storeBytes: 2000 });
    const before = browserSubscription();
    await send('PUT', { ...before, residences: [choice('axonberg')] });
    const answer = await renew({
      ...browserSubscription(),
      old: { endpoint: before.endpoint, keys: { auth: before.keys.auth } },
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('3600');
    expect(((await answer.json()) as { error: string }).error).toBe('full');
    expect((await kept()).map((record) => record.endpoint)).toEqual([before.endpoint]);
    // Renewing the one kept takes no more room.
    expect((await renew({ endpoint: before.endpoint, keys: { auth: before.keys.auth } })).status).toBe(204);
  });

  it('refuses each hostile renewal in French, and keeps nothing of it', async () => {
    await start();
    const mine = browserSubscription();
    await send('PUT', { ...mine, residences: [choice('axonberg')] });
    const before = await kept();
    const old = { endpoint: mine.endpoint, keys: { auth: mine.keys.auth } };
    const next = browserSubscription();
    const cases: [string, unknown, number, RegExp][] = [
      ['not an object', '"renouvelle"', 400, /Champ inconnu dans la demande/],
      ['another field', { ...old, residences: [choice('la-brume')] }, 400, /Champ inconnu dans la demande/],
      ['another field in old', { ...next, old: { ...old, at: 0 } }, 400, /Champ inconnu dans l’ancien abonnement/],
      ['a number as the endpoint', { ...old, endpoint: 42 }, 400, /Adresse du service de notifications/],
      ['an endpoint of 1,025 characters', { ...old, endpoint: 'h'.repeat(1025) }, 400, /trop longue/],
      ['a secret of 41 characters', { ...old, keys: { auth: 'a'.repeat(41) } }, 400, /Clés de notification invalides/],
      ['a number as the secret', { ...old, keys: { auth: 16 } }, 400, /Clés de notification invalides/],
      [
        'a move to http',
        { ...next, endpoint: next.endpoint.replace('https:', 'http:'), old },
        400,
        /service de notifications/,
      ],
      [
        'a move to another host',
        { ...next, endpoint: 'https://attaquant.example/fcm/send/x', old },
        400,
        /service de notifications/,
      ],
      [
        'a move to the loopback',
        { ...next, endpoint: 'https://127.0.0.1:9/push/x', old },
        400,
        /service de notifications/,
      ],
      ['a move without its key', { endpoint: next.endpoint, keys: { auth: next.keys.auth }, old }, 400, /mal formé/],
      [
        'a move with a short key',
        { ...next, keys: { ...next.keys, p256dh: randomBytes(33).toString('base64url') }, old },
        400,
        /clé/i,
      ],
      [
        'a body of 5 KiB',
        {
          ...next,
          endpoint: `${next.endpoint}${'a'.repeat(900)}`,
          old: { ...old, endpoint: `${old.endpoint}${'<img>'.repeat(800)}` },
        },
        413,
        /./,
      ],
    ];
    for (const [what, body, status, message] of cases) {
      const answer = await renew(body);
      expect({ what, status: answer.status }).toEqual({ what, status });
      const text = await answer.text();
      expect({ what, text }).toEqual({ what, text: expect.stringMatching(message) as string });
      expect(text).not.toContain('attaquant');
      expect(text).not.toContain('<img');
    }
    // From another site's page: refused, as the proposals' posts are.
    const crossSite = await renew(old, { origin: 'https://attaquant.example', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as { error: string }).error).toBe('cross_site');
    expect(await kept()).toEqual(before);
  });
});
