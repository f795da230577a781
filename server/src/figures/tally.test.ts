import type { SharedFigureTotals, SharedFigureVisitors, SharedLeases } from '../instances/shared-state';
import { memoryTally, sharedTally, type Tally } from './tally';

// The deployment's tally over the shared state's two stores (docs/figures.md, « Nothing on disk »):
// what names a visitor goes to the figures' Redis only while it may be used, the totals to the
// instances', the sample's lock is a lease, and this process counts alone whenever a store is
// absent, refused or away. The stores here are stand-ins that say what they were asked; their
// Redis side is tested in instances/counters.test.ts.

const DAY = '2026-11-25';
const away = () => Promise.reject(new Error('Redis injoignable'));

/** A visitors' store that answers as Redis would for one caller, and records its calls. */
function visitorsStore(calls: string[]): SharedFigureVisitors {
  return {
    salt: (day) => {
      calls.push(`salt ${day}`);
      return Promise.resolve(Buffer.alloc(32, 7));
    },
    first: (_day, member) => {
      calls.push(`first ${member}`);
      return Promise.resolve(true);
    },
    has: (_day, member) => {
      calls.push(`has ${member}`);
      return Promise.resolve(true);
    },
    quota: (_day, name) => {
      calls.push(`quota ${name}`);
      return Promise.resolve(42);
    },
    touch: (source, member) => {
      calls.push(`touch ${source} ${member}`);
      return Promise.resolve();
    },
    present: (source) => {
      calls.push(`present ${source}`);
      return Promise.resolve(17);
    },
    forget: (day) => {
      calls.push(`forget ${day}`);
      return Promise.resolve();
    },
  };
}

function totalsStore(calls: string[]): SharedFigureTotals {
  return {
    add: (_day, field, count) => {
      calls.push(`add ${field} ${String(count)}`);
      return Promise.resolve();
    },
    max: (_day, field, value) => {
      calls.push(`max ${field} ${String(value)}`);
      return Promise.resolve();
    },
    read: () => Promise.resolve({ visitors: 99 }),
    setLast: (text) => {
      calls.push(`last ${text}`);
      return Promise.resolve();
    },
    getLast: () => Promise.resolve('{"at":1,"total":12}'),
    forget: (day) => {
      calls.push(`forget ${day}`);
      return Promise.resolve();
    },
  };
}

function leasesOf(taken: { name: string; token: string; ms: number }[]): SharedLeases {
  return {
    take: (name, token, ms) => {
      const free = !taken.some((lease) => lease.name === name);
      if (free) taken.push({ name, token, ms });
      return Promise.resolve(free);
    },
    renew: () => Promise.resolve(false),
    release: () => Promise.resolve(),
  };
}

describe('the deployment’s tally', () => {
  let now = Date.UTC(2026, 10, 25, 20);
  const clock = () => now;

  it('sends what names a visitor to the figures’ Redis and the totals to the instances’', async () => {
    const named: string[] = [];
    const counted: string[] = [];
    const local = memoryTally(clock);
    const tally = sharedTally(
      {
        visitors: { visitors: visitorsStore(named), usable: () => true },
        totals: { figures: totalsStore(counted), leases: leasesOf([]) },
      },
      local,
    );
    expect(await tally.salt(DAY, 1000)).toEqual(Buffer.alloc(32, 7));
    expect(await tally.first(DAY, 'visiteur:direct', 1000)).toBe(true);
    expect(await tally.has(DAY, 'visiteur:over')).toBe(true);
    expect(await tally.quota(DAY, 'adresse', 1000)).toBe(42);
    await tally.touch('player', 'visiteur', now);
    expect(await tally.present('player', now - 1000)).toBe(17);
    await tally.add(DAY, 'visitors', 1);
    await tally.max(DAY, 'live:total:21:peak', 6);
    expect(await tally.read(DAY)).toEqual({ visitors: 99 });
    await tally.setLast('{"at":1,"total":6}', 150_000);
    expect(await tally.getLast()).toBe('{"at":1,"total":12}');

    expect(named).toEqual([
      `salt ${DAY}`,
      'first visiteur:direct',
      'has visiteur:over',
      'quota adresse',
      'touch player visiteur',
      'present player',
    ]);
    expect(counted).toEqual(['add visitors 1', 'max live:total:21:peak 6', 'last {"at":1,"total":6}']);
    // Nothing was kept in this process meanwhile.
    expect(await local.read(DAY)).toEqual({});
    expect(await local.has(DAY, 'visiteur:direct')).toBe(false);
  });

  it('takes the sample’s lock as the shared state’s lease, one instance a minute', async () => {
    const taken: { name: string; token: string; ms: number }[] = [];
    const stores = { visitors: null, totals: { figures: totalsStore([]), leases: leasesOf(taken) } };
    const [a, b] = [sharedTally(stores, memoryTally(clock)), sharedTally(stores, memoryTally(clock))];
    expect(await a.lock('sample:100', 90_000)).toBe(true);
    expect(await b.lock('sample:100', 90_000)).toBe(false);
    expect(await b.lock('sample:101', 90_000)).toBe(true);
    expect(taken.map(({ name, ms }) => [name, ms])).toEqual([
      ['figures:sample:100', 90_000],
      ['figures:sample:101', 90_000],
    ]);
    // Each process under a token of its own.
    expect(taken[0]?.token).not.toBe(taken[1]?.token);
  });

  it('keeps what names a visitor in this process while the figures’ Redis may not be used, or without it', async () => {
    const named: string[] = [];
    let usable = false;
    const tallies: Tally[] = [
      sharedTally(
        { visitors: { visitors: visitorsStore(named), usable: () => usable }, totals: null },
        memoryTally(clock),
      ),
      sharedTally({ visitors: null, totals: null }, memoryTally(clock)),
    ];
    for (const tally of tallies) {
      const salt = await tally.salt(DAY, 1000);
      expect(salt).toHaveLength(32);
      expect(salt).not.toEqual(Buffer.alloc(32, 7));
      expect(await tally.first(DAY, 'visiteur:direct', 1000)).toBe(true);
      expect(await tally.first(DAY, 'visiteur:direct', 1000)).toBe(false);
      expect(await tally.quota(DAY, 'adresse', 1000)).toBe(1);
      await tally.touch('player', 'visiteur', now);
      expect(await tally.present('player', now - 1000)).toBe(1);
      await tally.add(DAY, 'visitors', 2);
      expect(await tally.read(DAY)).toEqual({ visitors: 2 });
      expect(await tally.lock('sample:1', 90_000)).toBe(true);
      expect(await tally.lock('sample:1', 90_000)).toBe(false);
    }
    expect(named).toEqual([]);
    // Usable again: the figures' Redis is asked again.
    usable = true;
    expect(await tallies[0]?.quota(DAY, 'adresse', 1000)).toBe(42);
  });

  it('counts alone while a store is away, and forgets everywhere it can', async () => {
    const forgotten: string[] = [];
    const visitors: SharedFigureVisitors = {
      ...visitorsStore([]),
      salt: away,
      first: away,
      has: away,
      quota: away,
      forget: (day) => {
        forgotten.push(day);
        return Promise.resolve();
      },
    };
    let usable = true;
    const totals = { ...totalsStore([]), add: away, read: away, getLast: away, forget: away };
    const tally = sharedTally(
      {
        visitors: { visitors, usable: () => usable },
        totals: { figures: totals, leases: { ...leasesOf([]), take: away } },
      },
      memoryTally(clock),
    );
    expect(await tally.salt(DAY, 1000)).toHaveLength(32);
    expect(await tally.first(DAY, 'visiteur:direct', 1000)).toBe(true);
    expect(await tally.quota(DAY, 'adresse', 1000)).toBe(1);
    await tally.add(DAY, 'visitors', 3);
    expect(await tally.read(DAY)).toEqual({ visitors: 3 });
    expect(await tally.lock('sample:1', 90_000)).toBe(true);
    expect(await tally.getLast()).toBeNull();

    // Past midnight: this process's names go, and the figures' Redis is asked to drop its own even
    // while it may not be used (the instances' failing is no error).
    now += 24 * 3600_000;
    usable = false;
    await expect(tally.forget('2026-11-26')).resolves.toBeUndefined();
    expect(forgotten).toEqual(['2026-11-26']);
    expect(await tally.has(DAY, 'visiteur:direct')).toBe(false);
  });
});
