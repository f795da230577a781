import type { PodcastItem } from '@collectif/shared';
import { buildApi, testConfig } from '../testing/fixtures';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { rssFeed, rssItem } from '../testing/feeds';
import { FeedWorker } from './feed-worker';
import { inlineDigester } from './rss';

// Large feeds are digested off the event loop (docs/feed.md, « Large feeds »). These tests count
// turns of the event loop, not milliseconds: while a feed is parsed on the loop, it does not turn
// at all; while the worker parses it, the loop keeps turning. Timings are measured in bench/.

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());

/** About 3 MB of feed: 2,000 items with long descriptions. */
const bigFeed = rssFeed(
  Array.from({ length: 2000 }, (_, i) =>
    rssItem({ id: i + 1, title: `Artiste ${String(i)} - Émission ${String(i)}` }).replace(
      `<description>Description ${String(i + 1)}</description>`,
      `<description>${'Deux heures de dub et de basse. '.repeat(40)}</description>`,
    ),
  ),
);

/** A counter of event-loop turns, running until stopped. */
function loopTurns(): { count(): number; stop(): void } {
  let turns = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    turns += 1;
    setImmediate(spin);
  };
  setImmediate(spin);
  return {
    count: () => turns,
    stop: () => {
      running = false;
    },
  };
}

// Parsing 3 MB twice (and starting a worker) can take more than jest's default 5 s on a busy
// 2-core machine; the limit only stops a hung test, it measures nothing.
jest.setTimeout(60_000);

describe('digesting a large feed', () => {
  it('keeps the event loop turning while the server digests a 3 MB feed', async () => {
    const loop = loopTurns();
    let sentAt = Number.NaN;
    fake.on('/big.rss', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
      response.end(bigFeed, () => {
        sentAt = loop.count();
      });
    });
    const app = await buildApi({
      config: testConfig({
        rss: { url: `${fake.url}/big.rss`, maxPages: 1 },
        upstream: { timeoutMs: 30_000, maxBytes: 16 * 1024 * 1024 },
      }),
    });
    try {
      const res = await app.inject({ url: '/api/podcasts?limit=2' });
      const answeredAt = loop.count();
      expect(res.statusCode).toBe(200);
      expect(res.json<PodcastItem[]>().map((p) => p.artist)).toEqual(['Artiste 0', 'Artiste 1']);
      // Parsed on the loop, the feed stops it from the last byte received to the answer (a few
      // turns to read the last chunks). Parsed by the worker, the loop turns all along.
      expect(answeredAt - sentAt).toBeGreaterThan(200);
    } finally {
      loop.stop();
      await app.close();
    }
  });

  it('is what the turn count tells apart: the same digest on the loop lets it turn only a few times', async () => {
    const body = Buffer.from(bigFeed);
    for (const [digester, many] of [
      [new FeedWorker(), true],
      [inlineDigester, false],
    ] as const) {
      const loop = loopTurns();
      const digest = digester.start('https://feeds.example/sounds.rss');
      const before = loop.count();
      await digest.addPage(body, 'application/rss+xml');
      const podcasts = (await digest.result(true)).podcasts;
      const turns = loop.count() - before;
      loop.stop();
      expect(podcasts).toHaveLength(2000);
      expect([many, turns > 200]).toEqual([many, many]);
      if (digester instanceof FeedWorker) await digester.close();
    }
  });

  it('brings a malformed feed back as the same French upstream error', async () => {
    const worker = new FeedWorker();
    try {
      const digest = worker.start('https://feeds.example/sounds.rss');
      await expect(digest.addPage(Buffer.from('<rss><channel></rss>'), null)).rejects.toMatchObject({
        service: 'feed',
        failure: 'invalid',
        detail: expect.stringMatching(/^XML mal formé, ligne 1/) as string,
      });
    } finally {
      await worker.close();
    }
  });
});
