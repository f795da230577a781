import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SharedCacheStore, SharedEntry } from '../instances/shared-state';
import { createCountsStore, parseCounts } from './counts';
import { SharedToken, TOKEN_KEY } from './token';

/** Redis as the caches see it, in memory: what one instance writes, another reads. */
function memoryStore(): SharedCacheStore & { entries: Map<string, SharedEntry> } {
  const entries = new Map<string, SharedEntry>();
  const locks = new Set<string>();
  return {
    entries,
    read: (key) => Promise.resolve({ entry: entries.get(key) ?? null, failure: null }),
    write: (key, entry) => {
      entries.set(key, entry);
      return Promise.resolve();
    },
    fail: () => Promise.resolve(),
    lock: (key) => {
      if (locks.has(key)) return Promise.resolve(false);
      locks.add(key);
      return Promise.resolve(true);
    },
    unlock: (key) => {
      locks.delete(key);
      return Promise.resolve();
    },
  };
}

const folder = () => mkdtempSync(join(tmpdir(), 'soutien-'));

describe('the counts', () => {
  const gift = { month: '2026-03', kind: 'don' as const, amount: 2000, residence: 'axonberg' };

  it('counts an order once, keeps its residence, and takes a refund back', async () => {
    const store = createCountsStore({ file: join(folder(), 'support-counts.json'), shared: null, now: Date.now });
    expect(await store.record(1, gift)).toBe(true);
    expect(await store.record(1, gift)).toBe(false);
    // A later notification that names no residence leaves it to the order.
    expect(await store.record(1, { month: '2026-03', kind: 'don', amount: 2000 })).toBe(false);
    expect((await store.read()).months['2026-03']?.residences.axonberg).toEqual({ donations: 1, sum: 2000 });
    expect(await store.record(1, null)).toBe(true);
    const after = await store.read();
    expect(after.months['2026-03']).toMatchObject({
      donations: 0,
      sum: 0,
      residences: { axonberg: { donations: 0, sum: 0 } },
    });
    expect(after.orders).toEqual({});
  });

  it('keeps no name nor e-mail: only months, kinds, amounts, residences and references', async () => {
    const file = join(folder(), 'support-counts.json');
    const store = createCountsStore({ file, shared: null, now: Date.now });
    await store.remember('reference-1234', { amount: 2000, residence: 'axonberg' });
    await store.record(22707, gift);
    const kept = JSON.parse(JSON.stringify(await store.read())) as Record<string, unknown>;
    expect(Object.keys(kept).sort()).toEqual(['months', 'orders', 'references']);
    expect(JSON.stringify(kept)).not.toMatch(/@|Dubois|Hugo/);
  });

  it('takes a hostile or broken file or Redis value as absent', async () => {
    for (const text of [
      '{',
      '[]',
      JSON.stringify({
        months: { '2026-03': { donations: -1, sum: 0, members: 0, residences: {} } },
        orders: {},
        references: {},
      }),
      JSON.stringify({
        months: {},
        orders: { '1': { month: '<script>', kind: 'don', amount: 1, at: 1 } },
        references: {},
      }),
      JSON.stringify({ months: {}, orders: {}, references: { x: { amount: 1, until: 1 } } }),
    ]) {
      expect(parseCounts(text)).toBeNull();
      const file = join(folder(), 'support-counts.json');
      writeFileSync(file, text);
      const shared = memoryStore();
      shared.entries.set('support:counts', { value: text, version: 1, expiresAt: Date.now() + 60_000 });
      const store = createCountsStore({ file, shared, now: Date.now });
      expect(await store.read()).toEqual({ months: {}, orders: {}, references: {} });
    }
  });

  it('without Redis, counts what another instance of the machine wrote into the same file', async () => {
    const file = join(folder(), 'support-counts.json');
    const first = createCountsStore({ file, shared: null, now: Date.now });
    const second = createCountsStore({ file, shared: null, now: Date.now });
    await first.record(1, gift);
    await second.record(2, { ...gift, amount: 500 });
    expect((await second.read()).months['2026-03']?.residences.axonberg).toEqual({ donations: 2, sum: 2500 });
    expect((await first.read()).months['2026-03']?.residences.axonberg).toEqual({ donations: 2, sum: 2500 });
  });

  it('is one copy for every instance through Redis, each file following it', async () => {
    const shared = memoryStore();
    const first = createCountsStore({ file: join(folder(), 'a.json'), shared, now: Date.now });
    const second = createCountsStore({ file: join(folder(), 'b.json'), shared, now: Date.now });
    await first.record(1, gift);
    await second.record(2, { ...gift, amount: 500 });
    expect((await first.read()).months['2026-03']?.residences.axonberg).toEqual({ donations: 2, sum: 2500 });
    expect((await second.read()).orders).toHaveProperty('1');
  });
});

describe('the token', () => {
  it('is one for every instance through Redis, asked again before it expires', async () => {
    const shared = memoryStore();
    let time = 0;
    let asked = 0;
    const request = () => {
      asked += 1;
      return Promise.resolve({ accessToken: `jeton-${String(asked)}`, expiresInS: 1800 });
    };
    const first = new SharedToken(request, { now: () => time, shared });
    const second = new SharedToken(request, { now: () => time, shared });
    expect(await first.get()).toBe('jeton-1');
    expect(await second.get()).toBe('jeton-1');
    expect(asked).toBe(1);
    // A minute before it expires, the next call asks for another.
    time = (1800 - 59) * 1000;
    expect(await second.get()).toBe('jeton-2');
    expect(await first.get()).toBe('jeton-2');
    expect(asked).toBe(2);
  });

  it('takes a hostile value in Redis as none, and forgets a refused token everywhere', async () => {
    const shared = memoryStore();
    shared.entries.set(TOKEN_KEY, { value: '{"accessToken":42}', version: 1, expiresAt: 1e15 });
    let asked = 0;
    const token = new SharedToken(
      () => {
        asked += 1;
        return Promise.resolve({ accessToken: `jeton-${String(asked)}`, expiresInS: 1800 });
      },
      { now: () => 0, shared },
    );
    expect(await token.get()).toBe('jeton-1');
    await token.invalidate('jeton-1');
    expect(await token.get()).toBe('jeton-2');
  });
});
