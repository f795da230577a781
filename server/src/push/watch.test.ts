import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@collectif/shared/testing';
import { PUSH_RECORD_MAX, createPushStore, type PushStore } from './subscriptions';
import { createWatch, type FeedEpisode, type ShowSlot, type Told, type WatchOptions } from './watch';

// When « Me prévenir » sends (docs/push.md, « When it sends »): at a show's start once the live is
// on, never twice, never late; a new episode once, after a restart too; nothing for the feed as it
// was at the first look.

let dir: string;
const stores: PushStore[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'prevenir-'));
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** The marks of what was sent, in the store's file: a new store on the same file is a restart. */
function marks(): PushStore {
  const store = createPushStore({
    file: join(dir, 'push.json'),
    shared: null,
    budget: { bytes: 1024 * 1024, recordMax: PUSH_RECORD_MAX },
    keptMs: 180 * 24 * 3600_000,
    secret: 'secret',
    acceptable: () => true,
    writeAfterMs: 0,
    log: { warn: () => undefined },
  });
  stores.push(store);
  return store;
}

function watchOf(options: Partial<WatchOptions> & { told: Told[] }) {
  const watch = createWatch({
    now: Date.now,
    slots: () => Promise.resolve([]),
    liveOn: () => Promise.resolve(true),
    episodes: () => Promise.resolve([]),
    marks: marks(),
    tell: (told) => {
      options.told.push(told);
      return Promise.resolve();
    },
    log: { warn: () => undefined },
    ...options,
  });
  return watch;
}

describe('a show that starts', () => {
  it('is told at its start, once, and not before', async () => {
    const told: Told[] = [];
    const start = Date.now() + 300;
    const slot: ShowSlot = { residence: 'axonberg', start, end: start + 3_600_000 };
    const watch = watchOf({ told, slots: () => Promise.resolve([slot]), checkMs: 60_000 });
    watch.start();
    await watch.check();
    expect(told).toEqual([]);
    await until(() => told.length === 1, { what: 'le début annoncé' });
    const late = Date.now() - start;
    expect(late).toBeGreaterThanOrEqual(0);
    expect(told[0]).toEqual({ kind: 'live', residence: 'axonberg', slot });
    await watch.check();
    await watch.check();
    watch.stop();
    expect(told).toHaveLength(1);
  });

  it('is told when its timer fires a little before the start', async () => {
    const told: Told[] = [];
    // The watch's clock a few milliseconds behind the timers' (as Node's may fire 1 ms early).
    const now = () => Date.now() - 8;
    const start = now() + 200;
    const slot: ShowSlot = { residence: 'axonberg', start, end: start + 3_600_000 };
    const watch = watchOf({ told, now, slots: () => Promise.resolve([slot]), checkMs: 60_000 });
    watch.start();
    await until(() => told.length === 1, { what: 'le début annoncé malgré le minuteur en avance', timeoutMs: 2_000 });
    watch.stop();
  });

  it('waits for the live, and says nothing once the show is too far gone', async () => {
    const told: Told[] = [];
    let on = false;
    const start = Date.now() - 1_000;
    const slot: ShowSlot = { residence: 'la-brume', start, end: start + 3_600_000 };
    const watch = watchOf({
      told,
      slots: () => Promise.resolve([slot]),
      liveOn: () => Promise.resolve(on),
      retryMs: 100,
    });
    watch.start();
    await watch.check();
    expect(told).toEqual([]);
    on = true;
    await until(() => told.length === 1, { what: 'le direct annoncé une fois en route' });
    watch.stop();

    // Started 20 minutes ago, with `lateMs` of 15: « en direct » would be wrong news.
    const gone: Told[] = [];
    const old = Date.now() - 20 * 60_000;
    const other = watchOf({
      told: gone,
      slots: () => Promise.resolve([{ residence: '158cm', start: old, end: old + 7_200_000 }]),
    });
    await other.check();
    expect(gone).toEqual([]);
  });

  it('is told by one sender only, whichever looks first', async () => {
    const told: Told[] = [];
    const start = Date.now() - 1_000;
    const slot: ShowSlot = { residence: 'axonberg', start, end: start + 3_600_000 };
    const shared = marks();
    const [a, b] = [
      watchOf({ told, slots: () => Promise.resolve([slot]), marks: shared }),
      watchOf({ told, slots: () => Promise.resolve([slot]), marks: shared }),
    ];
    await Promise.all([a.check(), b.check(), a.check()]);
    expect(told).toHaveLength(1);
  });
});

describe('a new episode', () => {
  const episode = (slug: string, ageMs: number | null, residences = ['axonberg']): FeedEpisode => ({
    slug,
    residences,
    publishedAt: ageMs === null ? null : Date.now() - ageMs,
  });

  it('is told once per residence, never for the feed as first seen, and never again after a restart', async () => {
    const feed: FeedEpisode[] = [episode('axonberg-synapses-11', 86_400_000)];
    const told: Told[] = [];
    const first = watchOf({ told, episodes: () => Promise.resolve(feed) });
    await first.check();
    expect(told).toEqual([]);
    feed.unshift(episode('axonberg-la-brume-12', 60_000, ['axonberg', 'la-brume']));
    await first.check();
    await first.check();
    expect(told).toEqual([
      { kind: 'replay', residence: 'axonberg', slug: 'axonberg-la-brume-12' },
      { kind: 'replay', residence: 'la-brume', slug: 'axonberg-la-brume-12' },
    ]);
    await stores[0]?.close();
    stores.splice(0, 1);

    // A restart: the marks come back from the file.
    const again: Told[] = [];
    const second = watchOf({ told: again, episodes: () => Promise.resolve(feed) });
    await second.check();
    expect(again).toEqual([]);
  });

  it('is not told when old or undated, even if the feed shows it only now', async () => {
    const feed: FeedEpisode[] = [];
    const told: Told[] = [];
    const watch = watchOf({ told, episodes: () => Promise.resolve(feed) });
    await watch.check();
    feed.push(episode('axonberg-synapses-3', 5 * 86_400_000), episode('axonberg-synapses-4', null));
    await watch.check();
    expect(told).toEqual([]);
  });

  it('is still told when the programme cannot be read', async () => {
    const feed: FeedEpisode[] = [];
    const told: Told[] = [];
    const warnings: string[] = [];
    const watch = watchOf({
      told,
      episodes: () => Promise.resolve(feed),
      slots: () => Promise.reject(new Error('calendrier injoignable')),
      log: { warn: (message) => warnings.push(message) },
    });
    await watch.check();
    feed.push(episode('axonberg-synapses-12', 1_000));
    await watch.check();
    expect(told).toHaveLength(1);
    expect(warnings[0]).toMatch(/programme illisible/);
  });
});
