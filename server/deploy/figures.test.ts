import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createFigures, type Figures } from '../src/figures/figures';
import { figuresFiles } from '../src/figures/files';
import { until } from '@collectif/shared/testing';
import { memoryTally, sharedTally } from '../src/figures/tally';
import { connectShared, connectVolatile, type SharedState, type VolatileRedis } from '../src/instances/shared-state';
import { startRedis, type RedisServer } from './redis';

// The audience figures shared by two instances through a real Redis behind the site's ACL user
// (docs/figures.md, « Several instances »): a visitor counted once whichever instance they reach,
// one sample a minute for the deployment, the same days on both disks; past midnight in Paris the
// day's salt and counted visitors are gone from Redis and the same visitor counts again; a
// hostile value in Redis is refused. What names a visitor lives only in the figures' Redis, which
// keeps nothing on disk (docs/figures.md, « Nothing on disk »), and no file of either Redis holds
// the salt after a save. Each Redis's close fails the test if its ACL refused a command.

// 21:00 in Paris.
const T0 = Date.UTC(2026, 10, 25, 20);
let now = T0;
let redis: RedisServer;
let figuresRedis: RedisServer;
const states: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  [redis, figuresRedis] = await Promise.all([startRedis(), startRedis('figures')]);
}, 30_000);

afterAll(async () => {
  await Promise.all(states.map((state) => state.close()));
  await redis.close();
  await figuresRedis.close();
});

/** The figures' Redis as an instance connects to it, once it has said it keeps nothing on disk. */
async function volatileOf(url: string, warn: (message: string) => void = () => undefined): Promise<VolatileRedis> {
  const volatile = connectVolatile(url, { warn });
  states.push(volatile);
  await until(() => volatile.usable(), { what: 'le Redis des chiffres accepté' });
  return volatile;
}

async function instance(): Promise<{ figures: Figures; dir: string }> {
  const state: SharedState = await connectShared(
    redis.url,
    { warn: () => undefined },
    { secret: 'secret-des-instances-chiffres' },
  );
  states.push(state);
  const volatile = await volatileOf(figuresRedis.url);
  const dir = mkdtempSync(join(tmpdir(), 'chiffres-'));
  const clock = () => now;
  const figures = createFigures({
    tally: sharedTally({ visitors: volatile, totals: state }, memoryTally(clock)),
    files: figuresFiles(dir),
    clock,
    sources: {},
    onAir: () => Promise.resolve('axonberg'),
    episodeExists: () => Promise.resolve(true),
    showListeners: () => true,
  });
  return { figures, dir };
}

const visitor = (one: number) => ({
  address: `203.0.113.${String(one)}`,
  userAgent: `Lecteur/${String(one)}`,
  objects: false,
});

describe('the figures of two instances, through Redis', () => {
  it('count a visitor once, sample once a minute, and agree on disk', async () => {
    const [a, b] = [await instance(), await instance()];
    expect(await a.figures.beacon(visitor(1), { kind: 'live' })).toBe(true);
    // The same visitor reaching the other instance: nothing new.
    expect(await b.figures.beacon(visitor(1), { kind: 'live' })).toBe(false);
    for (let one = 2; one <= 6; one += 1) await (one % 2 === 0 ? a : b).figures.beacon(visitor(one), { kind: 'live' });

    const samples = [await a.figures.sample(), await b.figures.sample()];
    expect(samples.filter((sample) => sample === null)).toHaveLength(1);
    expect(samples.find((sample) => sample !== null)).toMatchObject({ total: 6, sources: { player: 6, timeline: 0 } });
    // « 6 à l'écoute » on both, whichever sampled.
    expect([await a.figures.liveListeners(), await b.figures.liveListeners()]).toEqual([6, 6]);
    // The minute's lock is the shared state's lease, under its prefix.
    expect(await redis.run('KEYS', 'collectif:lease:figures:sample:*')).toEqual([
      `collectif:lease:figures:sample:${String(Math.floor(T0 / 60_000))}`,
    ]);

    await a.figures.flush();
    await b.figures.flush();
    const read = (dir: string) => readFileSync(join(dir, '2026', '2026-11-25.json'), 'utf8');
    const [onA, onB] = [JSON.parse(read(a.dir)) as unknown, JSON.parse(read(b.dir)) as unknown];
    expect(onA).toEqual(onB);
    expect(onA).toMatchObject({
      day: '2026-11-25',
      fields: { visitors: 6, 'listeners:site': 6, 'show:axonberg:listeners': 6, 'live:total:21:peak': 6 },
    });
  });

  it('forget the day’s salt and visitors everywhere past midnight, and count the visitor again', async () => {
    const [a, b] = [await instance(), await instance()];
    await a.figures.beacon(visitor(9), { kind: 'live' });
    await a.figures.flush();
    await b.figures.flush();
    const keys = new Redis(figuresRedis.url);
    const salt = await keys.get('collectif:figures:salt:2026-11-25');
    expect(salt).toMatch(/^[0-9a-f]{64}$/);

    // 00:00:30 on the 26th in Paris.
    now = Date.UTC(2026, 10, 25, 23, 0, 30);
    await a.figures.flush();
    expect(await b.figures.beacon(visitor(9), { kind: 'live' })).toBe(true);
    await b.figures.flush();
    // What named visitors on the 25th is gone from Redis; the 26th has its own salt.
    expect(await keys.get('collectif:figures:salt:2026-11-25')).toBeNull();
    expect(await keys.scard('collectif:figures:seen:2026-11-25')).toBe(0);
    expect(await keys.hlen('collectif:figures:quota:2026-11-25')).toBe(0);
    expect(await keys.get('collectif:figures:salt:2026-11-26')).toMatch(/^[0-9a-f]{64}$/);
    expect(await keys.scard('collectif:figures:seen:2026-11-26')).toBeGreaterThan(0);
    // The salt is on no disk.
    for (const dir of [a.dir, b.dir]) {
      const text = readdirSync(join(dir, '2026'))
        .map((file) => readFileSync(join(dir, '2026', file), 'utf8'))
        .join('');
      expect(text).not.toContain(salt ?? '');
      expect(text).not.toMatch(/[0-9a-f]{64}/);
    }
    keys.disconnect();
  });

  it('refuse a hostile salt, hostile counts and a forged last sample read from Redis', async () => {
    const { figures } = await instance();
    const hostile = new Redis(redis.url);
    const hostileFigures = new Redis(figuresRedis.url);
    await hostileFigures.set('collectif:figures:salt:2026-11-26', 'sel-choisi-par-un-intrus');
    await hostile.hset(
      'collectif:figures:day:2026-11-26',
      'visitors',
      '-5',
      'listeners:site',
      'beaucoup',
      '<script>',
      '3',
    );
    await figures.beacon(visitor(50), { kind: 'live' });
    expect(await hostileFigures.get('collectif:figures:salt:2026-11-26')).toMatch(/^[0-9a-f]{64}$/);
    const day = await figures.day('2026-11-26');
    expect(day['<script>']).toBeUndefined();
    expect(day['listeners:site']).toBeUndefined();
    // A last sample written by hand, fresh and over the threshold: not signed by an instance, not said.
    await hostile.set('collectif:figures:last', JSON.stringify({ at: now, total: 999 }), 'PX', 60_000);
    expect(await figures.liveListeners()).toBeUndefined();
    hostile.disconnect();
    hostileFigures.disconnect();
  });

  it('refuse a figures’ Redis that would write the salt to disk, and keep it in memory instead', async () => {
    // The instances' Redis given as FIGURES_REDIS_URL: its ACL refuses CONFIG GET to the site.
    const said: string[] = [];
    const volatile = connectVolatile(redis.url, { warn: (message) => said.push(message) });
    states.push(volatile);
    await until(() => said.length > 0, { what: 'le refus dit' });
    expect(volatile.usable()).toBe(false);
    expect(said[0]).toMatch(/Redis sans disque .* non utilisé : CONFIG GET refusé/);
    expect((await redis.denials()).map((denial) => denial.object)).toEqual(['config|get']);

    // The figures' Redis with a save point set by hand: refused at its next connection.
    const other = await startRedis('figures');
    try {
      const warned: string[] = [];
      const kept = await volatileOf(other.url, (message) => warned.push(message));
      await other.run('CONFIG', 'SET', 'save', '3600 1');
      // The site's connection cut: it connects again, and asks again.
      await other.run('CLIENT', 'KILL', 'USER', 'collectif');
      await until(() => warned.length > 0, { what: 'le refus dit' });
      expect(warned[0]).toMatch(/il écrit sur disque \(save « 3600 1 »/);
      expect(kept.usable()).toBe(false);
      // What the instance counts meanwhile stays in its memory: nothing reaches that Redis.
      const clock = () => now;
      const tally = sharedTally({ visitors: kept, totals: null }, memoryTally(clock));
      await tally.salt('2026-11-26', 60_000);
      expect(await other.run('KEYS', '*')).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('leave the salt on no disk: nothing of a visitor in the instances’ Redis, nothing saved by the figures’', async () => {
    const a = await instance();
    await a.figures.beacon(visitor(70), { kind: 'live' });
    await a.figures.beacon(visitor(71), { kind: 'replay', episode: 'axonberg-2026-11-20', second: 0 });
    const salt = String(await figuresRedis.run('GET', 'collectif:figures:salt:2026-11-26'));
    expect(salt).toMatch(/^[0-9a-f]{64}$/);
    // The instances' Redis holds the day's totals and nothing that names a visitor…
    const keys = (await redis.run('KEYS', 'collectif:figures:*')) as string[];
    expect(keys.filter((key) => !/^collectif:figures:(day:|last$)/.test(key))).toEqual([]);
    // …and its save, as Redis makes it on its save points, holds no salt.
    await redis.run('SAVE');
    // The figures' Redis stops as a shutdown does: with no save point, it writes nothing.
    await figuresRedis.run('SHUTDOWN').catch(() => undefined);
    for (const dir of [redis.dir, figuresRedis.dir]) {
      for (const file of readdirSync(dir)) {
        const bytes = readFileSync(join(dir, file));
        expect(bytes.includes(salt)).toBe(false);
        expect(bytes.includes(Buffer.from(salt, 'hex'))).toBe(false);
      }
    }
    expect(readdirSync(redis.dir)).toContain('dump.rdb');
    expect(readdirSync(figuresRedis.dir)).not.toContain('dump.rdb');
  });
});
