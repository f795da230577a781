import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app/app';
import { readSiteServerConfig } from '../src/settings/config';
import { listen, testConfig } from '../src/api/testing/fixtures';
import { startFakeUpstream, type FakeUpstream } from '../src/api/testing/fake-upstream';
import { readEvents } from '../src/api/testing/streams';
import { png } from '../src/content/testing/pictures';
import { startRedis, type RedisServer } from './redis';
import { until } from '@collectif/shared/testing';
import { connectShared } from '../src/instances/shared-state';

/** A log for connections made by the tests themselves. */
const quiet = { warn: () => undefined };

// Two instances of the server sharing one Redis (REDIS_URL), on loopback, as two machines behind a
// proxy would (docs/deploy.md, « Shared state »): Debian's redis-server, real HTTP, a fake AzuraCast
// that counts what it is asked.

const NOW_PLAYING_TTL_MS = 400;
const TRACK_PER_MINUTE = 4;
const ADMIN_TOKEN = 'jeton-admin-du-test';

let redis: RedisServer;
let upstream: FakeUpstream;
let song = 'Premier titre';
let failing = false;
const distRoot = mkdtempSync(join(tmpdir(), 'shared-site-'));

async function instance(): Promise<{ app: FastifyInstance; base: string }> {
  const base = testConfig();
  const app = await buildApp({
    site: readSiteServerConfig({ DIST_ROOT: distRoot, REDIS_URL: redis.url, RENDER_WORKERS: '0' }),
    api: testConfig({
      azuracast: { url: `${upstream.url}/api/nowplaying` },
      ttlMs: { ...base.ttlMs, nowPlaying: NOW_PLAYING_TTL_MS },
      limits: { ...base.limits, trackPerMinute: TRACK_PER_MINUTE },
      adminToken: ADMIN_TOKEN,
    }),
  });
  return { app, base: await listen(app) };
}

let a: { app: FastifyInstance; base: string };
let b: { app: FastifyInstance; base: string };

beforeAll(async () => {
  redis = await startRedis();
  upstream = await startFakeUpstream();
  upstream.on('/api/nowplaying', (_request, response) => {
    if (failing) {
      response.writeHead(503).end('en maintenance');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify([{ now_playing: { song: { artist: 'Axonberg', title: song } } }]));
  });
  [a, b] = await Promise.all([instance(), instance()]);
}, 30_000);

afterAll(async () => {
  await Promise.all([a.app.close(), b.app.close()]);
  await upstream.close();
  await redis.close();
  rmSync(distRoot, { recursive: true, force: true });
});

/** A picture uploaded to an instance as the editor sends it. */
const upload = async (base: string, body: Buffer) =>
  fetch(`${base}/api/content/pictures?purpose=slide`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc' },
    body: new Uint8Array(body),
  });

/** The statuses of `count` requests of a rate-limited route, alternately on each instance. */
async function trackStatuses(count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const { base } = i % 2 === 0 ? a : b;
    // A test's own client address for each round, so that rounds do not share a counter.
    statuses.push((await fetch(`${base}/api/track/soundcloud:tracks:${String(i)}`)).status);
  }
  return statuses;
}

describe('two instances sharing Redis', () => {
  it('count the rate limits together: spread over both, requests are refused at the shared count', async () => {
    const statuses = await trackStatuses(TRACK_PER_MINUTE + 2);
    expect(statuses.slice(0, TRACK_PER_MINUTE).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(TRACK_PER_MINUTE)).toEqual([429, 429]);
  });

  it('poll each upstream once per interval for the whole deployment', async () => {
    const before = upstream.count('/api/nowplaying');
    const started = Date.now();
    // Both instances asked continually for four intervals.
    while (Date.now() - started < NOW_PLAYING_TTL_MS * 4) {
      const answers = await Promise.all([a, b].map(({ base }) => fetch(`${base}/api/nowplaying`)));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      await delay(20);
    }
    const intervals = Math.ceil((Date.now() - started) / NOW_PLAYING_TTL_MS);
    // One instance alone would make as many requests; two without Redis, twice as many.
    expect(upstream.count('/api/nowplaying') - before).toBeLessThanOrEqual(intervals + 1);
  });

  it('start a new instance warm from what Redis holds, even while the upstream is down', async () => {
    const known: unknown = await (await fetch(`${a.base}/api/nowplaying`)).json();
    failing = true;
    const late = await instance();
    try {
      // Alone, a new instance with a failing upstream could only answer an error.
      const answer = await fetch(`${late.base}/api/nowplaying`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual(known);
    } finally {
      failing = false;
      await late.app.close();
    }
  });

  it('share an upstream failure: the others serve the last answer without asking it again', async () => {
    // Fresh for one interval more, then the upstream fails.
    await delay(NOW_PLAYING_TTL_MS + 50);
    failing = true;
    try {
      const before = upstream.count('/api/nowplaying');
      const first = await fetch(`${a.base}/api/nowplaying`);
      expect(first.status).toBe(200);
      expect(first.headers.get('x-cache')).toBe('STALE');
      expect(upstream.count('/api/nowplaying')).toBe(before + 1);
      const other = await fetch(`${b.base}/api/nowplaying`);
      expect(other.status).toBe(200);
      expect(other.headers.get('x-cache')).toBe('STALE');
      expect(upstream.count('/api/nowplaying')).toBe(before + 1);
    } finally {
      failing = false;
    }
  });

  it('number now-playing alike: a listener moving to the other instance continues the same sequence', async () => {
    const onA = await readEvents(`${a.base}/api/nowplaying/events`);
    const onB = await readEvents(`${b.base}/api/nowplaying/events`);
    await Promise.all([onA.until(1), onB.until(1)]);
    expect(onB.ids).toEqual(onA.ids);
    const [firstId] = onA.ids;

    song = 'Deuxième titre';
    const [, second] = await onA.until(2);
    await onB.until(2);
    expect(second).toEqual({ artist: 'Axonberg', title: 'Deuxième titre' });
    // The same event, with the same id, from both instances, once each.
    expect(onB.ids).toEqual(onA.ids);
    expect(new Set(onA.ids).size).toBe(2);

    // Left A after the first event; back on B: the second only, nothing twice.
    const moved = await readEvents(`${b.base}/api/nowplaying/events`, { 'last-event-id': firstId ?? '' });
    expect(await moved.until(1)).toEqual([second]);
    expect(moved.ids).toEqual([onA.ids[1]]);
    for (const listener of [onA, onB, moved]) listener.close();
  });

  it('serve a change of content saved on one instance from the other within 2 s, and from one that starts later', async () => {
    const team = (await (await fetch(`${b.base}/api/content/team`)).json()) as { title: string }[];
    const changed = [{ ...team[0], title: 'Camille (partagé)' }, ...team.slice(1)];
    a.app.content.save('team', changed, { by: 'camille' });
    const served = async () =>
      ((await (await fetch(`${b.base}/api/content/team`)).json()) as { title: string }[])[0]?.title;
    // The promise of docs/content.md: every instance within 2 s.
    for (let i = 0; i < 40 && (await served()) !== 'Camille (partagé)'; i += 1) await delay(50);
    expect(await served()).toBe('Camille (partagé)');

    const later = await instance();
    try {
      const answer = (await (await fetch(`${later.base}/api/content/team`)).json()) as { title: string }[];
      expect(answer[0]?.title).toBe('Camille (partagé)');
    } finally {
      await later.app.close();
    }
  });

  it('hear a change said by another instance right after they connected', async () => {
    // Each connection is new, and the first thing said is heard: none is lost to a subscription
    // still on its way.
    for (let round = 0; round < 5; round += 1) {
      const [speaker, listener] = await Promise.all([connectShared(redis.url, quiet), connectShared(redis.url, quiet)]);
      try {
        const heard: string[] = [];
        listener.content.listen((text) => heard.push(text));
        await speaker.content.publish('team', `essai ${String(round)}`);
        await until(() => heard.length > 0, { timeoutMs: 2000, what: 'le changement entendu' });
        expect(heard).toEqual([`essai ${String(round)}`]);
      } finally {
        await Promise.all([speaker.close(), listener.close()]);
      }
    }
  });

  it('serve a picture uploaded to one instance from the other at once, and from one that starts later', async () => {
    const stored = await upload(a.base, await png());
    expect(stored.status).toBe(201);
    const { src, srcset } = (await stored.json()) as { src: string; srcset: string };
    const small = srcset.split(' ')[0] ?? '';
    const here = await fetch(`${a.base}${src}`);
    const there = await fetch(`${b.base}${src}`);
    expect([here.status, there.status]).toEqual([200, 200]);
    expect(there.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await there.arrayBuffer())).toEqual(Buffer.from(await here.arrayBuffer()));

    const later = await instance();
    try {
      expect((await fetch(`${later.base}${small}`)).status).toBe(200);
    } finally {
      await later.app.close();
    }
  });

  it('keep answering while Redis is away, and share again once it is back, without a restart', async () => {
    await redis.stop();
    for (let i = 0; i < 50 && (a.app.shared?.available() === true || b.app.shared?.available() === true); i += 1) {
      await delay(50);
    }
    expect(a.app.shared?.available()).toBe(false);
    // Pages of the API and the channel answer; the limits are not enforced meanwhile (fail open).
    expect((await fetch(`${a.base}/api/nowplaying`)).status).toBe(200);
    const listener = await readEvents(`${b.base}/api/nowplaying/events`);
    await listener.until(1);
    listener.close();
    expect((await trackStatuses(TRACK_PER_MINUTE + 2)).includes(429)).toBe(false);
    // A picture the others could not serve is refused, and nothing is lost: the editor sends it again.
    const refused = await upload(a.base, await png(320, 180));
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'L’image ne peut pas être enregistrée pour le moment : réessayez dans un instant.',
    );
    // A picture this instance lacks cannot be looked for: 503, for nginx to ask the next instance.
    expect((await fetch(`${b.base}/media/${'0'.repeat(32)}-800.webp`)).status).toBe(503);

    await redis.start();
    for (let i = 0; i < 100 && (a.app.shared?.available() !== true || b.app.shared?.available() !== true); i += 1) {
      await delay(50);
    }
    expect([a.app.shared?.available(), b.app.shared?.available()]).toEqual([true, true]);
    const statuses = await trackStatuses(TRACK_PER_MINUTE + 2);
    expect(statuses.slice(TRACK_PER_MINUTE)).toEqual([429, 429]);
  }, 20_000);
});
