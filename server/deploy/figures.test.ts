import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createFigures, type Figures } from '../src/figures/figures';
import { figuresFiles } from '../src/figures/files';
import { memoryTally, redisTally, resilientTally } from '../src/figures/tally';
import { connectShared, type SharedState } from '../src/instances/shared-state';
import { startRedis, type RedisServer } from './redis';

// The audience figures shared by two instances through a real Redis behind the site's ACL user
// (docs/figures.md, « Several instances »): a visitor counted once whichever instance they reach,
// one sample a minute for the deployment, the same days on both disks; past midnight in Paris the
// day's salt and counted visitors are gone from Redis and the same visitor counts again; a
// hostile value in Redis is refused. Redis's close fails the test if the ACL refused a command.

// 21:00 in Paris.
const T0 = Date.UTC(2026, 10, 25, 20);
let now = T0;
let redis: RedisServer;
const states: SharedState[] = [];

beforeAll(async () => {
  redis = await startRedis();
}, 30_000);

afterAll(async () => {
  await Promise.all(states.map((state) => state.close()));
  await redis.close();
});

async function instance(): Promise<{ figures: Figures; dir: string }> {
  const state = await connectShared(redis.url, { warn: () => undefined }, { secret: 'secret-des-instances-chiffres' });
  states.push(state);
  const dir = mkdtempSync(join(tmpdir(), 'chiffres-'));
  const clock = () => now;
  const figures = createFigures({
    tally: resilientTally(redisTally(state.redis), memoryTally(clock)),
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
    const keys = new Redis(redis.url);
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

  it('refuse a hostile salt and hostile counts read from Redis', async () => {
    const { figures } = await instance();
    const hostile = new Redis(redis.url);
    await hostile.set('collectif:figures:salt:2026-11-26', 'sel-choisi-par-un-intrus');
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
    expect(await hostile.get('collectif:figures:salt:2026-11-26')).toMatch(/^[0-9a-f]{64}$/);
    const day = await figures.day('2026-11-26');
    expect(day['<script>']).toBeUndefined();
    expect(day['listeners:site']).toBeUndefined();
    hostile.disconnect();
  });
});
