import { Redis } from 'ioredis';
import { until } from '@collectif/shared/testing';
import { startDeployment, type Deployment, type Instance } from './harness';
import { REDIS_USER, startRedis, type RedisServer } from './redis';

// Redis as docs/deploy.md « Redis » sets it up, for real on loopback: redis.ts starts Debian's
// redis-server with deploy/redis.conf and deploy/redis-collectif.acl themselves (the default user
// off, the site's own ACL user). Four instances of the built site: two as that user, one with a
// wrong password, one that names no user.

const TRACK_PER_MINUTE = 3;
const WRONG_PASSWORD = 'pas-le-bon-mot-de-passe';
/** The instances' shared key (SITE_SECRET), which REDIS_URL goes with. */
const SITE_SECRET = 'secret-partage-des-instances-acl';

let redis: RedisServer;
let deployment: Deployment;

beforeAll(async () => {
  redis = await startRedis();
  const local = `127.0.0.1:${String(redis.port)}`;
  const urls = [redis.url, redis.url, `redis://${REDIS_USER}:${WRONG_PASSWORD}@${local}`, `redis://${local}`];
  deployment = await startDeployment({
    instances: urls.length,
    redis: false,
    nginx: false,
    env: { RATE_LIMIT_TRACK_PER_MIN: String(TRACK_PER_MINUTE), RENDERERS: '0', SITE_SECRET },
    instanceEnv: (index) => ({ REDIS_URL: urls[index] ?? '' }),
  });
}, 90_000);

afterAll(async () => {
  await deployment.close();
  // Throws if Redis refused the site's user anything the tests did not look at.
  await redis.close();
}, 30_000);

const instance = (index: number): Instance => {
  const found = deployment.instances[index];
  if (found === undefined) throw new Error(`instance ${String(index)} attendue`);
  return found;
};

/** A rate-limited route's status for a client (nginx's X-Forwarded-For, trusted from loopback). */
const track = async (index: number, client: string, round: number) =>
  (
    await fetch(`http://127.0.0.1:${String(instance(index).port)}/api/track/soundcloud:tracks:${String(round)}`, {
      headers: { 'x-forwarded-for': client },
    })
  ).status;

const log = (index: number) => instance(index).log.join('');

describe('Redis behind the ACL user of deploy/', () => {
  it('shares the rate limits of the instances that connect as the site’s user, and refuses them nothing', async () => {
    const client = '203.0.113.7';
    const statuses: number[] = [];
    for (let round = 0; round <= TRACK_PER_MINUTE; round += 1) statuses.push(await track(round % 2, client, round));
    expect(statuses.slice(0, TRACK_PER_MINUTE).includes(429)).toBe(false);
    expect(statuses[TRACK_PER_MINUTE]).toBe(429);
    for (const index of [0, 1]) {
      expect(log(index)).not.toMatch(/NOPERM|WRONGPASS|NOAUTH/);
      // Unreachable for any reason but a command past its 2 s, which a loaded machine meets and
      // which refuses nothing (the instance says « Redis de retour » after it).
      const unreachable = [...log(index).matchAll(/Redis injoignable \(([^)]*)\)/g)].map((found) => found[1] ?? '');
      expect(unreachable.filter((why) => !why.endsWith('Command timed out'))).toEqual([]);
    }
    expect(await redis.denials()).toEqual([]);
  });

  it('leaves an instance with a wrong password, or with no user, serving alone, and says why', async () => {
    // A client refused by the two that share counts: each of these counts it alone, from none.
    const client = '203.0.113.8';
    for (let round = 0; round <= TRACK_PER_MINUTE; round += 1) await track(round % 2, client, round);
    expect(await track(0, client, 100)).toBe(429);
    expect(await track(2, client, 101)).not.toBe(429);
    expect(await track(3, client, 102)).not.toBe(429);

    const said = (index: number, why: RegExp) =>
      until(() => log(index).includes('Redis injoignable') && why.test(log(index)), {
        timeoutMs: 5000,
        everyMs: 50,
        what: `l’instance ${String(index)} dit pourquoi Redis la refuse`,
      });
    await said(2, /WRONGPASS/);
    await said(3, /NOAUTH/);
    // The address is said without its password, the wrong one or the right one.
    const password = decodeURIComponent(new URL(redis.url).password);
    for (const index of [2, 3]) {
      expect(log(index)).toContain(`Redis injoignable (redis://127.0.0.1:${String(redis.port)}`);
      expect(log(index)).not.toContain(WRONG_PASSWORD);
      expect(log(index)).not.toContain(password);
    }
  });

  it('gives the site’s user its keys and channels, and nothing outside collectif: (NOPERM)', async () => {
    const site = new Redis(redis.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    site.on('error', () => undefined);
    try {
      expect(await site.set('collectif:essai-acl', 'oui', 'PX', 60_000)).toBe('OK');
      expect(await site.get('collectif:essai-acl')).toBe('oui');
      expect(await site.publish('collectif:essai-acl', 'oui')).toBe(0);

      await expect(site.get('autre:cle')).rejects.toThrow(/^NOPERM/);
      await expect(site.set('autre:cle', 'non')).rejects.toThrow(/^NOPERM/);
      await expect(site.publish('autre:canal', 'non')).rejects.toThrow(/^NOPERM/);
      // A script runs as its caller: the keys it declares, and those it reaches, are checked.
      await expect(site.eval("return redis.call('GET', KEYS[1])", 1, 'autre:cle')).rejects.toThrow(/^NOPERM/);
      await expect(site.eval("return redis.call('SET', 'autre:cle', 'non')", 0)).rejects.toThrow(/can't access/);
      for (const command of [['FLUSHALL'], ['KEYS', '*'], ['CONFIG', 'GET', '*'], ['ACL', 'LIST'], ['MONITOR']]) {
        const [name = '', ...args] = command;
        await expect(site.call(name, ...args)).rejects.toThrow(/^NOPERM/);
      }
    } finally {
      site.disconnect();
    }
    // What Redis logged of it (ACL LOG): each refusal, and nothing the site itself sent.
    const denials = await redis.denials();
    expect(denials).toEqual(
      expect.arrayContaining([
        { reason: 'key', object: 'autre:cle', context: 'toplevel' },
        { reason: 'channel', object: 'autre:canal', context: 'toplevel' },
        { reason: 'key', object: 'autre:cle', context: 'lua' },
        ...['flushall', 'keys', 'config|get', 'acl|list', 'monitor'].map((object) => ({
          reason: 'command',
          object,
          context: 'toplevel',
        })),
      ]),
    );
    expect(denials.every(({ object }) => !object.startsWith('collectif:'))).toBe(true);
  });
});
