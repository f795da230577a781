import { until } from '@collectif/shared/testing';
import { startRedis, type RedisServer } from '../../deploy/redis';
import {
  connectShared,
  connectVolatile,
  FIELDS_MAX,
  FIRST_MAX,
  PRESENT_MAX,
  type SharedFigureTotals,
  type SharedFigureVisitors,
  type SharedState,
  type VolatileRedis,
} from './shared-state';
import { sealer } from './seal';

// The audience figures' counters as their callers get them (docs/figures.md, « In Redis »), through
// the shared state's two connections, to deploy/'s two Redis with their own ACL files (a command or
// a key either refused the site fails the test at close): Debian's redis-server on loopback, which
// `npm test` needs as the deployment's tests do (README, « Tests »). Values written by hand (the
// tests' own user) stand for whoever has a Redis's password.

const DAY = '2026-11-25';
const HOUR = 3600_000;
const quiet = { warn: () => undefined };
/** The instances' shared key (SITE_SECRET). */
const SECRET = 'secret-partage-des-compteurs';

/** A key of the figures, as the counters name it (the same names as before they moved to the shared state). */
const key = (name: string) => `collectif:figures:${name}`;

/** Fills a set, hash or sorted set with `count` members of its own, in one script run by the tests' user. */
async function fill(server: RedisServer, command: 'SADD' | 'HSET' | 'ZADD', name: string, count: number) {
  const member =
    command === 'SADD'
      ? "redis.call('SADD', KEYS[1], 'plein' .. i)"
      : command === 'HSET'
        ? "redis.call('HSET', KEYS[1], 'plein:' .. i, '1')"
        : "redis.call('ZADD', KEYS[1], ARGV[2], 'plein' .. i)";
  await server.run(
    'EVAL',
    `for i = 1, tonumber(ARGV[1]) do ${member} end return 0`,
    '1',
    name,
    String(count),
    String(Date.UTC(2026, 10, 25, 20)),
  );
}

const pttl = async (server: RedisServer, name: string) => Number(await server.run('PTTL', name));

describe('the figures’ counters in Redis', () => {
  let redis: RedisServer;
  let figuresRedis: RedisServer;
  let state: SharedState;
  let volatile: VolatileRedis;
  let visitors: SharedFigureVisitors;
  let totals: SharedFigureTotals;

  beforeAll(async () => {
    [redis, figuresRedis] = await Promise.all([startRedis(), startRedis('figures')]);
    state = await connectShared(redis.url, quiet, { secret: SECRET });
    volatile = connectVolatile(figuresRedis.url, quiet);
    await until(() => volatile.usable(), { what: 'le Redis des chiffres accepté' });
    visitors = volatile.visitors;
    totals = state.figures;
  }, 30_000);

  afterEach(async () => {
    await Promise.all([redis.run('FLUSHALL'), figuresRedis.run('FLUSHALL')]);
  });

  afterAll(async () => {
    await state.close();
    await volatile.close();
    // Each throws if its ACL refused the site a command or a key.
    await redis.close();
    await figuresRedis.close();
  });

  describe('what names a visitor, in the figures’ Redis', () => {
    it('gives every caller the day’s one salt until midnight, and replaces one not of its form', async () => {
      const salt = await visitors.salt(DAY, HOUR);
      expect(salt).toHaveLength(32);
      expect(await visitors.salt(DAY, HOUR)).toEqual(salt);
      expect(await figuresRedis.run('GET', key(`salt:${DAY}`))).toBe(salt.toString('hex'));
      expect(await pttl(figuresRedis, key(`salt:${DAY}`))).toBeGreaterThan(HOUR - 10_000);
      expect(await pttl(figuresRedis, key(`salt:${DAY}`))).toBeLessThanOrEqual(HOUR);

      await figuresRedis.run('SET', key(`salt:${DAY}`), 'sel-choisi-par-un-intrus');
      const replaced = await visitors.salt(DAY, HOUR);
      expect(replaced).toHaveLength(32);
      expect(replaced).not.toEqual(salt);
      expect(await figuresRedis.run('GET', key(`salt:${DAY}`))).toBe(replaced.toString('hex'));
      expect(await pttl(figuresRedis, key(`salt:${DAY}`))).toBeLessThanOrEqual(HOUR);
    });

    it('says a member is new once a day, and no new one past FIRST_MAX', async () => {
      expect(await visitors.first(DAY, 'visiteur:direct', HOUR)).toBe(true);
      expect(await visitors.first(DAY, 'visiteur:direct', HOUR)).toBe(false);
      expect(await visitors.has(DAY, 'visiteur:direct')).toBe(true);
      expect(await visitors.has(DAY, 'autre:direct')).toBe(false);
      expect(await visitors.has('2026-11-26', 'visiteur:direct')).toBe(false);
      expect(await pttl(figuresRedis, key(`seen:${DAY}`))).toBeLessThanOrEqual(HOUR);

      await fill(figuresRedis, 'SADD', key(`seen:${DAY}`), FIRST_MAX - 1);
      expect(await visitors.first(DAY, 'de-trop:direct', HOUR)).toBe(false);
      expect(await visitors.has(DAY, 'de-trop:direct')).toBe(false);
      expect(await figuresRedis.run('SCARD', key(`seen:${DAY}`))).toBe(FIRST_MAX);
    });

    it('counts a name’s quota, and spends a new name’s past FIRST_MAX names', async () => {
      expect(await visitors.quota(DAY, 'adresse', HOUR)).toBe(1);
      expect(await visitors.quota(DAY, 'adresse', HOUR)).toBe(2);
      expect(await visitors.quota(DAY, 'autre', HOUR)).toBe(1);
      expect(await pttl(figuresRedis, key(`quota:${DAY}`))).toBeLessThanOrEqual(HOUR);

      await fill(figuresRedis, 'HSET', key(`quota:${DAY}`), FIRST_MAX - 2);
      expect(await visitors.quota(DAY, 'nouvelle', HOUR)).toBe(Number.MAX_SAFE_INTEGER);
      expect(await visitors.quota(DAY, 'adresse', HOUR)).toBe(3);
      // A quota written by hand that is no number: Redis refuses to add to it, the caller counts alone.
      await figuresRedis.run('HSET', key(`quota:${DAY}`), 'adresse', 'beaucoup');
      await expect(visitors.quota(DAY, 'adresse', HOUR)).rejects.toThrow(/not an integer/);
    });

    it('counts the members present since an instant, at most PRESENT_MAX', async () => {
      const at = Date.UTC(2026, 10, 25, 20);
      await visitors.touch('player', 'un', at - 10 * 60_000);
      await visitors.touch('player', 'deux', at);
      await visitors.touch('player', 'trois', at);
      await visitors.touch('timeline', 'un', at);
      expect(await visitors.present('player', at - 60_000)).toBe(2);
      // Those older are dropped; a member seen again is present again.
      expect(await figuresRedis.run('ZCARD', key('present:player'))).toBe(2);
      await visitors.touch('player', 'un', at);
      expect(await visitors.present('player', at - 60_000)).toBe(3);
      expect(await visitors.present('timeline', at - 60_000)).toBe(1);
      expect(await pttl(figuresRedis, key('present:player'))).toBeLessThanOrEqual(600_000);

      await fill(figuresRedis, 'ZADD', key('present:player'), PRESENT_MAX - 3);
      await visitors.touch('player', 'de-trop', at);
      expect(await visitors.present('player', at - 60_000)).toBe(PRESENT_MAX);
      expect(await figuresRedis.run('ZSCORE', key('present:player'), 'de-trop')).toBeNull();
    });

    it('forgets the seven days before a day, and keeps that day', async () => {
      for (const day of ['2026-11-18', '2026-11-24', DAY]) {
        await visitors.salt(day, HOUR);
        await visitors.first(day, 'visiteur', HOUR);
        await visitors.quota(day, 'adresse', HOUR);
      }
      await figuresRedis.run('SET', key('salt:2026-11-17'), 'a'.repeat(64));
      await visitors.forget(DAY);
      expect(((await figuresRedis.run('KEYS', '*')) as string[]).sort()).toEqual([
        key('quota:2026-11-25'),
        key('salt:2026-11-17'),
        key('salt:2026-11-25'),
        key('seen:2026-11-25'),
      ]);
    });
  });

  describe('the totals, in the instances’ Redis', () => {
    it('adds to and raises a day’s fields, kept three days, no new one past FIELDS_MAX', async () => {
      await totals.add(DAY, 'visitors', 1);
      await totals.add(DAY, 'visitors', 2);
      await totals.max(DAY, 'live:total:21:peak', 6);
      await totals.max(DAY, 'live:total:21:peak', 4);
      await totals.max(DAY, 'live:total:21:peak', 9);
      expect(await totals.read(DAY)).toEqual({ visitors: 3, 'live:total:21:peak': 9 });
      expect(await totals.read('2026-11-24')).toEqual({});
      expect(await pttl(redis, key(`day:${DAY}`))).toBeGreaterThan(3 * 24 * HOUR - 10_000);

      await fill(redis, 'HSET', key(`day:${DAY}`), FIELDS_MAX - 2);
      await totals.add(DAY, 'play:de-trop', 1);
      await totals.max(DAY, 'slot:de-trop:10', 1);
      await totals.add(DAY, 'visitors', 1);
      await totals.max(DAY, 'live:total:21:peak', 10);
      const read = await totals.read(DAY);
      expect(Object.keys(read)).toHaveLength(FIELDS_MAX);
      expect(read).toMatchObject({ visitors: 4, 'live:total:21:peak': 10 });
      expect(read['play:de-trop']).toBeUndefined();
      expect(read['slot:de-trop:10']).toBeUndefined();
    });

    it('leaves out the fields written by hand that are no count or no field', async () => {
      await totals.add(DAY, 'visitors', 2);
      await redis.run(
        'HSET',
        key(`day:${DAY}`),
        'listeners:site',
        'beaucoup',
        'play:moins',
        '-5',
        'play:trop',
        '99999999999',
        '<script>',
        '3',
        'play:demi',
        '1.5',
      );
      expect(await totals.read(DAY)).toEqual({ visitors: 2 });
    });

    it('shares the last sample, signed: one written by hand, copied from another key or too long is none', async () => {
      const sample = JSON.stringify({ at: Date.UTC(2026, 10, 25, 20), total: 12 });
      expect(await totals.getLast()).toBeNull();
      await totals.setLast(sample, 150_000);
      expect(await totals.getLast()).toBe(sample);
      expect(await pttl(redis, key('last'))).toBeLessThanOrEqual(150_000);
      const sealed = String(await redis.run('GET', key('last')));

      await redis.run('SET', key('last'), sample);
      expect(await totals.getLast()).toBeNull();
      await redis.run('SET', key('last'), sealed.replace(/^[^.]+/, 'faux'));
      expect(await totals.getLast()).toBeNull();
      await redis.run('SET', key('last'), sealer(SECRET).seal(key('day:2026-11-25'), sample));
      expect(await totals.getLast()).toBeNull();
      await redis.run('SET', key('last'), `${sealed}${' '.repeat(1000)}`);
      expect(await totals.getLast()).toBeNull();
    });

    it('forgets what an older version put there of the days before', async () => {
      await redis.run('SET', key('salt:2026-11-24'), 'a'.repeat(64));
      await redis.run('SADD', key('seen:2026-11-24'), 'visiteur');
      await totals.add(DAY, 'visitors', 1);
      await totals.forget(DAY);
      expect(await redis.run('KEYS', '*')).toEqual([key(`day:${DAY}`)]);
    });
  });
});
