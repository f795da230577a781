import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordCost } from '../instances/records';
import {
  PUSH_RECORD_MAX,
  PUSH_RESIDENCES_MAX,
  createPushStore,
  type PushRecord,
  type PushStore,
} from './subscriptions';

// « Me prévenir »'s subscriptions bounded (docs/push.md, « Bounds »): by the memory they may take,
// each by its time unless its browser renews it, new ones per network and per wider network a day.

const DAY = 24 * 3600_000;
let dir: string;
let now: number;
const stores: PushStore[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'prevenir-bornes-'));
  now = Date.parse('2026-11-28T10:00:00Z');
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

function store(bytes = 1024 * 1024): PushStore {
  const made = createPushStore({
    file: join(dir, 'push.json'),
    shared: null,
    budget: { bytes, recordMax: PUSH_RECORD_MAX },
    keptMs: 180 * DAY,
    secret: 'secret',
    acceptable: () => true,
    now: () => now,
    writeAfterMs: 0,
    log: { warn: () => undefined },
  });
  stores.push(made);
  return made;
}

let serial = 0;
const subscription = (residences = ['axonberg'], endpoint = `https://push.example/s/${String((serial += 1))}`) =>
  ({
    endpoint,
    keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) },
    residences: residences.map((id) => ({ id, live: true, replay: true })),
    at: now,
  }) satisfies PushRecord;
const yes = () => Promise.resolve(true);

it('fits the largest subscription the schema admits within one record’s budget', () => {
  const largest = subscription(
    Array.from({ length: PUSH_RESIDENCES_MAX }, (_, i) => `${String(i).padStart(2, '0')}${'r'.repeat(58)}`),
    `https://push.example/${'e'.repeat(1000)}`,
  );
  expect(recordCost(JSON.stringify(largest))).toBeLessThanOrEqual(PUSH_RECORD_MAX);
});

it('expires a subscription its browser did not renew in time: not told, not counted as kept, swept', async () => {
  const subscriptions = store();
  const old = subscription();
  expect(await subscriptions.replace(old, yes)).toBe('saved');
  now += 100 * DAY;
  const renewed = subscription();
  expect(await subscriptions.replace(renewed, yes)).toBe('saved');
  now += 81 * DAY;
  expect((await subscriptions.followers('axonberg', 'live')).map((target) => target.endpoint)).toEqual([
    renewed.endpoint,
  ]);
  // Saved again by another browser's keys: the expired one is as good as gone.
  expect(await subscriptions.replace({ ...old, keys: { ...old.keys, auth: 'b'.repeat(22) }, at: now }, yes)).toBe(
    'saved',
  );
  now += 180 * DAY;
  expect(await subscriptions.sweep()).toBe(2);
  expect(await subscriptions.count()).toBe(0);
});

it('refuses a new subscription past the memory it may take, and keeps every one it had', async () => {
  const one = recordCost(JSON.stringify(subscription()));
  const subscriptions = store(2 * one + 10);
  const kept = [subscription(), subscription()];
  for (const each of kept) expect(await subscriptions.replace(each, yes)).toBe('saved');
  expect(await subscriptions.replace(subscription(), yes)).toBe('full');
  expect(await subscriptions.count()).toBe(2);
  // Changing one's choices within its size is still taken.
  expect(
    await subscriptions.replace({ ...kept[0]!, residences: [{ id: 'la-brume', live: true, replay: false }] }, yes),
  ).toBe('saved');
});

it('counts new ones per network and per wider network, a day at a time', async () => {
  const subscriptions = store();
  expect(await subscriptions.network('2001:db8:1:2::1')).toEqual({ network: 1, wide: 1 });
  expect(await subscriptions.network('2001:db8:1:9::1')).toEqual({ network: 1, wide: 2 });
  now += DAY;
  expect(await subscriptions.network('2001:db8:1:9::1')).toEqual({ network: 1, wide: 1 });
});
