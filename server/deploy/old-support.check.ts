import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../src/app/app';
import { readSiteServerConfig } from '../src/settings/config';
import { listen, testConfig } from '../src/api/testing/fixtures';
import {
  exampleOrder,
  FAKE_ACCOUNT,
  startFakeHelloAsso,
  type FakeHelloAsso,
} from '../src/support/testing/fake-helloasso';
import { startRedis, type RedisServer } from './redis';

// Two instances of the server sharing one Redis, and HelloAsso played on loopback (docs/support.md):
// one token for every instance, signed; the counts one copy.

const ADMIN_TOKEN = 'jeton-admin-du-test-soutien';
const SITE_SECRET = 'secret-partage-des-instances-du-soutien';
const XSRF = { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc', 'content-type': 'application/json' };

let redis: RedisServer;
let fake: FakeHelloAsso;
const distRoot = mkdtempSync(join(tmpdir(), 'soutien-partage-'));
const instances: { app: FastifyInstance; base: string }[] = [];

async function instance(): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildApp({
    site: readSiteServerConfig({ DIST_ROOT: distRoot, REDIS_URL: redis.url, RENDERERS: '0' }),
    api: testConfig({
      adminToken: ADMIN_TOKEN,
      siteSecret: SITE_SECRET,
      support: { helloasso: { ...FAKE_ACCOUNT, apiUrl: fake.url }, demo: false, taxReceipt: false },
    }),
  });
  const made = { app, base: await listen(app) };
  instances.push(made);
  return made;
}

beforeAll(async () => {
  redis = await startRedis();
  fake = await startFakeHelloAsso();
}, 30_000);

afterAll(async () => {
  await Promise.all(instances.map(({ app }) => app.close()));
  await fake.close();
  await redis.stop();
  rmSync(distRoot, { recursive: true, force: true });
});

const give = (base: string, amount: number) =>
  fetch(`${base}/api/support/don`, {
    method: 'POST',
    headers: XSRF,
    body: JSON.stringify({ amount, residence: 'axonberg' }),
  });

describe('HelloAsso behind several instances', () => {
  it('asks one token for every instance, signed in Redis, and believes no forged one', async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    expect((await give(a.base, 1500)).status).toBe(200);
    expect((await give(b.base, 1500)).status).toBe(200);
    expect(fake.tokens()).toBe(1);

    const raw = new Redis(redis.url);
    const key = 'collectif:upstream:helloasso:token';
    const kept = await raw.get(key);
    // Signed: not the token's JSON as it is.
    expect(kept).not.toBeNull();
    expect(() => JSON.parse(kept ?? '') as unknown).toThrow();
    // Whoever writes to Redis cannot hand the instances a token of theirs.
    const forged = JSON.stringify({ accessToken: 'token-999', renewAt: 1e15 });
    await raw.set(key, JSON.stringify({ value: forged, version: Date.now(), expiresAt: 1e15 }));
    raw.disconnect();
    const c = await instance();
    expect((await give(c.base, 1500)).status).toBe(200);
    expect(fake.tokens()).toBe(2);
    const carried = fake.upstream.requests.filter((request) => request.path.endsWith('/checkout-intents')).at(-1);
    expect(carried?.headers.authorization).toBe('Bearer token-2');
  });

  it('keeps one copy of the counts: a gift notified to one instance is seen by another', async () => {
    const [a, b] = instances;
    if (a === undefined || b === undefined) throw new Error('instances manquantes');
    // The order of the last intent (1,500 cents for axonberg, above): its residence is the intent's.
    const metadata = fake.intents.at(-1)?.metadata;
    fake.order(exampleOrder(40001, { amount: 1500 }));
    const notified = await fetch(`${a.base}/api/support/notifications/${FAKE_ACCOUNT.notificationKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ eventType: 'Order', data: exampleOrder(40001), metadata }),
    });
    expect(notified.status).toBe(204);
    const figures = await fetch(`${b.base}/api/editor/figures/support?residence=axonberg`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(((await figures.json()) as { residences: unknown[] }).residences).toEqual([
      { id: 'axonberg', donations: 1, sum: 1500 },
    ]);
  });
});
