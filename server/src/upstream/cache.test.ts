import { UpstreamError } from '../http/errors';
import { manualClock } from '../api/testing/fixtures';
import { KeyedUpstreamCache, UpstreamCache } from './cache';

/** A load function the test settles by hand, counting calls. */
function controlledLoad<T>() {
  const pending: { resolve: (v: T) => void; reject: (e: unknown) => void }[] = [];
  const load = () =>
    new Promise<T>((resolve, reject) => {
      pending.push({ resolve, reject });
    });
  return { load, pending };
}

describe('UpstreamCache', () => {
  it('fetches once for concurrent callers (single flight)', async () => {
    const { load, pending } = controlledLoad<string>();
    const cache = new UpstreamCache('feed', load, { ttlMs: 1000 });
    const callers = [cache.get(), cache.get(), cache.get()];
    await Promise.resolve();
    expect(pending).toHaveLength(1);
    pending[0]!.resolve('valeur');
    const answers = await Promise.all(callers);
    expect(answers.map((a) => [a.value, a.state])).toEqual([
      ['valeur', 'miss'],
      ['valeur', 'miss'],
      ['valeur', 'miss'],
    ]);
  });

  it('serves from memory until the TTL ends, then fetches again', async () => {
    const clock = manualClock();
    let calls = 0;
    const cache = new UpstreamCache('twitch', () => Promise.resolve((calls += 1)), { ttlMs: 1000, now: clock.now });
    expect((await cache.get()).state).toBe('miss');
    clock.advance(999);
    expect(await cache.get()).toMatchObject({ value: 1, state: 'hit', version: 1 });
    clock.advance(1);
    expect(await cache.get()).toMatchObject({ value: 2, state: 'miss', version: 2 });
    expect(calls).toBe(2);
  });

  it('serves the last good value, marked stale, when the upstream fails', async () => {
    const clock = manualClock();
    let fail = false;
    const cache = new UpstreamCache(
      'azuracast',
      () => (fail ? Promise.reject(new UpstreamError('azuracast', 'timeout')) : Promise.resolve('bon')),
      { ttlMs: 100, retryMs: 50, now: clock.now },
    );
    await cache.get();
    fail = true;
    clock.advance(100);
    expect(await cache.get()).toMatchObject({ value: 'bon', state: 'stale' });
    fail = false;
    clock.advance(50);
    expect(await cache.get()).toMatchObject({ value: 'bon', state: 'miss', version: 2 });
  });

  it('throws the upstream error when there is no value to fall back on', async () => {
    const cache = new UpstreamCache('feed', () => Promise.reject(new UpstreamError('feed', 'status', '', 500)), {
      ttlMs: 100,
    });
    await expect(cache.get()).rejects.toMatchObject({ failure: 'status', status: 500 });
  });

  it('leaves a failing upstream alone during retryMs, then asks again', async () => {
    const clock = manualClock();
    let calls = 0;
    const cache = new UpstreamCache(
      'feed',
      () => {
        calls += 1;
        return Promise.reject(new Error('boom'));
      },
      { ttlMs: 1000, retryMs: 200, now: clock.now },
    );
    await expect(cache.get()).rejects.toMatchObject({ failure: 'invalid', detail: 'boom' });
    await expect(cache.get()).rejects.toBeInstanceOf(UpstreamError);
    expect(calls).toBe(1);
    clock.advance(200);
    await expect(cache.get()).rejects.toBeInstanceOf(UpstreamError);
    expect(calls).toBe(2);
  });
});

describe('KeyedUpstreamCache', () => {
  it('caches per key and forgets the least recently used key past maxKeys', async () => {
    const loads: string[] = [];
    const cache = new KeyedUpstreamCache(
      'soundcloud',
      (key) => {
        loads.push(key);
        return Promise.resolve(`url:${key}`);
      },
      { ttlMs: 60_000, maxKeys: 2 },
    );
    expect((await cache.get('a')).value).toBe('url:a');
    await cache.get('b');
    await cache.get('a');
    await cache.get('c');
    expect(cache.size).toBe(2);
    await cache.get('a');
    await cache.get('b');
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });
});
