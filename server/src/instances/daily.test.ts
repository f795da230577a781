import { createDailyCounts, networksOf } from './daily';

// Counts by name and day (docs/server.md, « Daily counts »): one table a day in memory, never
// cleared whole, a name past the table's bound over every bound, Redis's count first when there is one.

const DAY = 24 * 3600_000;

describe('counts by name and day', () => {
  it('counts each name, starts again the next day, and never keeps a name in clear', async () => {
    let now = Date.parse('2026-11-28T10:00:00Z');
    const seen: string[] = [];
    const counts = createDailyCounts({ scope: 'essai', secret: 's', now: () => now, shared: null });
    expect(await counts.add(['a', 'b'])).toEqual([1, 1]);
    expect(await counts.add(['a'])).toEqual([2]);
    now += DAY;
    expect(await counts.add(['a'])).toEqual([1]);

    // With Redis, Redis counts, under a keyed hash of the scope, the day and the name.
    const shared = createDailyCounts({
      scope: 'essai',
      secret: 's',
      now: () => now,
      shared: (name) => {
        seen.push(name);
        return Promise.resolve(seen.length);
      },
    });
    expect(await shared.add(['camille@example.org'])).toEqual([1]);
    expect(seen[0]).toMatch(/^[\w-]{43}$/);
    expect(seen[0]).not.toContain('camille');
  });

  it('refuses a new name past the day’s bound rather than forgetting the names counted', async () => {
    const counts = createDailyCounts({ scope: 'essai', secret: 's', now: () => 0, shared: null, max: 2 });
    expect(await counts.add(['a', 'b'])).toEqual([1, 1]);
    expect(await counts.add(['c'])).toEqual([Number.MAX_SAFE_INTEGER]);
    expect(await counts.add(['a'])).toEqual([2]);
  });

  it('counts alone while Redis is away', async () => {
    const counts = createDailyCounts({
      scope: 'essai',
      secret: 's',
      now: () => 0,
      shared: () => Promise.reject(new Error('Redis absent')),
    });
    expect(await counts.add(['a'])).toEqual([1]);
    expect(await counts.add(['a'])).toEqual([2]);
  });
});

describe('a network and the wider one around it', () => {
  it('is an IPv6 /64 within its /48, an IPv4 address within its /24', () => {
    expect(networksOf('2001:db8:1:2:3:4:5:6')).toEqual({ network: '2001:db8:1:2::', wide: '2001:db8:1::' });
    expect(networksOf('192.0.2.7')).toEqual({ network: '192.0.2.7', wide: '192.0.2.0/24' });
    expect(networksOf('::ffff:192.0.2.7')).toEqual({ network: '192.0.2.7', wide: '192.0.2.0/24' });
  });
});
