import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectShared, type SharedState } from '../src/instances/shared-state';
import { sealer } from '../src/instances/seal';
import { checkSubscription, extraHostsOf } from '../src/push/endpoint';
import {
  PUSH_RECORD_MAX,
  createPushStore,
  subscriptionId,
  type PushRecord,
  type PushStore,
} from '../src/push/subscriptions';
import { startRedis, type RedisServer } from './redis';

// « Me prévenir »'s subscriptions in a real Redis behind the site's ACL user (docs/push.md,
// « Several instances »; docs/deploy.md, « What the site takes from Redis »): what one instance
// saves, the other reads; a value written into Redis by someone else, unsigned, signed with another
// secret, or signed but for an address no browser's push service has, is never a follower; a Redis
// emptied takes the file's subscriptions back; the bound per network is counted across instances.

const SECRET = 'secret-partage-des-instances-de-test';
const HASH = 'collectif:push:subscriptions';
let redis: RedisServer;
let dir: string;
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(async () => {
  await redis.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'prevenir-redis-'));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((each) => each.close()));
  await redis.run('FLUSHALL');
  rmSync(dir, { recursive: true, force: true });
});

async function instance(name: string, warnings: string[] = []): Promise<{ state: SharedState; store: PushStore }> {
  const state = await connectShared(redis.url, { warn: () => undefined }, { secret: SECRET });
  const extra = extraHostsOf([]);
  const store = createPushStore({
    file: join(dir, `${name}.json`),
    shared: state.push,
    budget: { bytes: 1024 * 1024, recordMax: PUSH_RECORD_MAX },
    keptMs: 180 * 24 * 3600_000,
    secret: SECRET,
    acceptable: (record) => checkSubscription(record, extra).ok,
    writeAfterMs: 0,
    log: { warn: (message) => warnings.push(message) },
  });
  opened.push(store, state);
  return { state, store };
}

function record(endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString('base64url')}`): PushRecord {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    residences: [{ id: 'axonberg', live: true, replay: true }],
    at: Date.now(),
  };
}

const allow = () => Promise.resolve(true);

it('shares the subscriptions between instances, and takes no follower Redis did not get from one', async () => {
  const warnings: string[] = [];
  const [a, b] = [await instance('a'), await instance('b', warnings)];
  const saved = record();
  expect(await a.store.replace(saved, allow)).toBe('saved');
  expect((await b.store.followers('axonberg', 'live')).map((target) => target.endpoint)).toEqual([saved.endpoint]);

  // Written by whoever has Redis's password: unsigned, signed with another key, and signed with the
  // instances' key (stolen) but for the machine's own network.
  const forged = record('https://fcm.googleapis.com/fcm/send/faux');
  await redis.run('HSET', HASH, subscriptionId(forged.endpoint), JSON.stringify(forged));
  const other = record('https://fcm.googleapis.com/fcm/send/autre-cle');
  await redis.run(
    'HSET',
    HASH,
    subscriptionId(other.endpoint),
    sealer('une-autre-cle').seal(HASH, JSON.stringify(other)),
  );
  const inside = record('https://127.0.0.1:6379/push');
  await redis.run('HSET', HASH, subscriptionId(inside.endpoint), sealer(SECRET).seal(HASH, JSON.stringify(inside)));

  expect((await b.store.followers('axonberg', 'live')).map((target) => target.endpoint)).toEqual([saved.endpoint]);
  expect(warnings).toContain('Redis : 3 abonnement(s) aux notifications refusé(s) à la lecture');
});

it('counts a network’s new subscriptions across instances, and a Redis emptied takes the file back', async () => {
  const [a, b] = [await instance('a'), await instance('b')];
  expect(await a.store.network('2001:db8:1:2::7')).toEqual({ network: 1, wide: 1 });
  // Another address of the same /64, on the other instance.
  expect(await b.store.network('2001:db8:1:2:ffff::1')).toEqual({ network: 2, wide: 2 });
  // Another /64 of the same /48: a network of its own, the same wider one.
  expect(await b.store.network('2001:db8:1:3::1')).toEqual({ network: 1, wide: 3 });
  // Nothing of the address in Redis: each network, and the wider one, is a keyed hash.
  const keys = (await redis.run('KEYS', 'collectif:push:network:*')) as string[];
  expect(keys).toHaveLength(3);
  expect(keys.join(' ')).not.toMatch(/2001|db8/);

  const kept = record();
  await a.store.replace(kept, allow);
  await a.store.backup();
  expect(readFileSync(join(dir, 'a.json'), 'utf8')).toContain(kept.endpoint);
  await redis.run('FLUSHALL');
  const warnings: string[] = [];
  const again = await instance('a', warnings);
  expect((await again.store.followers('axonberg', 'replay')).map((target) => target.endpoint)).toEqual([kept.endpoint]);
  expect(warnings).toContain('Redis vide : 1 abonnement(s) repris du fichier');
});
