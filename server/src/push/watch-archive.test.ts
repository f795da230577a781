import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PUSH_RECORD_MAX, createPushStore, type PushStore } from './subscriptions';
import { createWatch, type FeedEpisode, type Told } from './watch';

// « Nouvelle émission » for a live archive (docs/archive.md, « Followers told »; docs/push.md, « When
// it sends »): told once when it is published, and never again when SoundCloud's copy of the same
// show arrives in the feed, even after a restart.

let dir: string;
const stores: PushStore[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'prevenir-archive-'));
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

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

function watching(feed: FeedEpisode[], told: Told[]) {
  return createWatch({
    now: Date.now,
    slots: () => Promise.resolve([]),
    liveOn: () => Promise.resolve(true),
    episodes: () => Promise.resolve(feed),
    marks: marks(),
    tell: (entry) => {
      told.push(entry);
      return Promise.resolve();
    },
    log: { warn: () => undefined },
  });
}

const ARCHIVE = 'axonberg-2026-11-24-20h00';
const minutesAgo = (minutes: number) => Date.now() - minutes * 60_000;

describe('a live archive told to followers', () => {
  it('is told once when published, and SoundCloud’s copy of the same show is not told again, even after a restart', async () => {
    const feed: FeedEpisode[] = [
      { slug: 'axonberg-synapses-10', residences: ['axonberg'], publishedAt: minutesAgo(60 * 24 * 7) },
    ];
    const told: Told[] = [];
    const watch = watching(feed, told);
    await watch.check();
    feed.unshift({ slug: ARCHIVE, residences: ['axonberg'], publishedAt: minutesAgo(1) });
    await watch.check();
    expect(told).toEqual([{ kind: 'replay', residence: 'axonberg', slug: ARCHIVE }]);

    // SoundCloud's copy: the catalogue merges the two, the feed's item carrying the archive's id.
    feed.splice(0, 1, {
      slug: 'axonberg-synapses-11',
      residences: ['axonberg'],
      publishedAt: minutesAgo(1),
      sameAs: ARCHIVE,
    });
    await watch.check();
    expect(told).toHaveLength(1);
    await stores[0]?.close();
    stores.splice(0, 1);
    const again: Told[] = [];
    await watching(feed, again).check();
    expect(again).toEqual([]);
  });

  it('tells SoundCloud’s copy when the archive was never told (kept for a look, never published)', async () => {
    const feed: FeedEpisode[] = [];
    const told: Told[] = [];
    const watch = watching(feed, told);
    await watch.check();
    feed.push({ slug: 'axonberg-synapses-11', residences: ['axonberg'], publishedAt: minutesAgo(1), sameAs: ARCHIVE });
    await watch.check();
    await watch.check();
    expect(told).toEqual([{ kind: 'replay', residence: 'axonberg', slug: 'axonberg-synapses-11' }]);
  });
});
