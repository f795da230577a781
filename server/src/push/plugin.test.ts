import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AddressedPage } from '@collectif/shared/addresses';
import { declaredPages } from '@collectif/shared/testing';
import type { ApiConfig } from '../api/env';
import { buildApi, listen, manualClock, testConfig } from '../api/testing/fixtures';
import { XSRF } from '../api/testing/editors';
import { startFakeUpstream, text, type FakeUpstream } from '../api/testing/fake-upstream';
import { rssFeed, rssItem } from '../api/testing/feeds';
import { residenceSlots } from '../schedule/slots';
import { topicOf } from './message';
import { LIVE_TTL_S, REPLAY_TTL_S, messageOf } from './plugin';
import type { Told } from './watch';
import { startFakePushService, type FakePushService, type FakeSubscription } from './testing/fake-push-service';

// « Me prévenir » sending (docs/push.md, « When it sends »), from the server as it runs to a push
// service on the loopback that checks each request's VAPID token and decrypts its message with the
// keys a browser would hold: a show of the demo's programme that starts, told to its followers
// only, once; a new episode of the feed, once, and never again after a restart; a subscription the
// push service says is gone (410) deleted.

let push: FakePushService;
let feed: FakeUpstream;
let app: FastifyInstance;
let base: string;
let contentDir: string;
const clock = manualClock(Date.UTC(2026, 10, 23, 12));
let items: string[] = [];

beforeAll(async () => {
  [push, feed] = await Promise.all([startFakePushService(), startFakeUpstream()]);
  feed.on('/sounds.rss', (request, response) => {
    text(200, rssFeed(items))(request, response);
  });
});
afterAll(async () => {
  await Promise.all([push.close(), feed.close()]);
});
afterEach(async () => {
  await app.close();
});

/** `pages`: the site's page table the server reads (else the pages the modules declare). */
async function start(overrides: Partial<ApiConfig> = {}, pages?: readonly AddressedPage[]): Promise<void> {
  const defaults = testConfig();
  const config = testConfig({
    contentDir,
    push: { ...defaults.push, extraHosts: [push.host] },
    // The feed read again at each look of the tests.
    ttlMs: { ...defaults.ttlMs, feed: 1 },
    ...overrides,
  });
  app = await buildApi(
    { config, now: clock.now },
    { push: { ca: push.ca, ...(pages === undefined ? {} : { pages: () => Promise.resolve(pages) }) } },
  );
  base = await listen(app);
}

async function subscribe(subscription: FakeSubscription, residences: { id: string; live: boolean; replay: boolean }[]) {
  const answer = await fetch(`${base}/api/push/subscription`, {
    method: 'PUT',
    headers: { ...XSRF, 'content-type': 'application/json' },
    body: JSON.stringify({ ...subscription, residences }),
  });
  expect(answer.status).toBe(200);
}

const idOf = (subscription: FakeSubscription) => subscription.endpoint.split('/').pop() ?? '';

describe('a show that starts', () => {
  beforeEach(() => {
    contentDir = mkdtempSync(join(tmpdir(), 'prevenir-'));
  });

  it('is told to its followers only, once, as the service worker reads it', async () => {
    await start();
    // Axonberg's next show in the demo's programme, and the instant just after its start.
    const slots = await residenceSlots(app, clock.now(), clock.now() + 8 * 24 * 3600_000);
    const slot = slots.find((each) => each.residence === 'axonberg');
    if (slot === undefined) throw new Error('pas d’émission d’Axonberg dans le programme de démo');
    const [live, other, replayOnly] = [push.subscription(), push.subscription(), push.subscription()];
    await subscribe(live, [{ id: 'axonberg', live: true, replay: false }]);
    await subscribe(other, [{ id: 'la-brume', live: true, replay: true }]);
    await subscribe(replayOnly, [{ id: 'axonberg', live: false, replay: true }]);

    clock.advance(slot.start + 5_000 - clock.now());
    await app.push.check();
    await app.push.check();
    expect(push.refused).toEqual([]);
    expect(push.received.map((each) => each.id)).toEqual([idOf(live)]);
    const [message] = push.received;
    expect(JSON.parse(message?.payload ?? '')).toEqual({
      v: 1,
      kind: 'live',
      title: 'Axonberg est en direct',
      body: 'Synapses, en ce moment sur Collectif Garonne',
      url: '/?ecouter=direct',
      icon: '/assets/images/residences/axonberg-400.webp',
      tag: 'direct-axonberg',
    });
    expect(message?.headers).toEqual({ ttl: LIVE_TTL_S, topic: topicOf('live', 'axonberg'), urgency: 'high' });
    expect(message?.subject).toBe('mailto:demo@collectif.invalid');
    // Sent after the start, never before: the instant the request reached the push service.
    expect(message?.at).toBeGreaterThan(0);
  });

  it('deletes a subscription the push service says is gone', async () => {
    await start();
    const slots = await residenceSlots(app, clock.now(), clock.now() + 8 * 24 * 3600_000);
    const slot = slots.find((each) => each.residence === 'la-brume');
    if (slot === undefined) throw new Error('pas d’émission de La Brume dans le programme de démo');
    const [gone, kept] = [push.subscription(), push.subscription()];
    push.answer(idOf(gone), { status: 410 });
    await subscribe(gone, [{ id: 'la-brume', live: true, replay: true }]);
    await subscribe(kept, [{ id: 'la-brume', live: true, replay: true }]);
    clock.advance(slot.start + 1_000 - clock.now());
    await app.push.check();
    const left = await app.push.store.followers('la-brume', 'replay');
    expect(left.map((target) => target.endpoint)).toEqual([kept.endpoint]);
    expect(await app.push.store.count()).toBe(1);
  });
});

describe('a new episode', () => {
  it('is told once to its residence’s followers, and never again after a restart', async () => {
    contentDir = mkdtempSync(join(tmpdir(), 'prevenir-'));
    const date = (at: number) => new Date(at).toUTCString();
    items = [rssItem({ id: 11, title: 'Axonberg - Synapses #11', pubDate: date(clock.now() - 7 * 86_400_000) })];
    const rss = { rss: { url: `${feed.url}/sounds.rss`, maxPages: 1 } };
    await start(rss);
    const follower = push.subscription();
    await subscribe(follower, [{ id: 'axonberg', live: false, replay: true }]);
    const before = push.received.length;
    // The first look takes the feed as it is: nothing is told of what was there.
    await app.push.check();
    expect(push.received.length).toBe(before);

    items = [rssItem({ id: 12, title: 'Axonberg - Synapses #12', pubDate: date(clock.now() - 60_000) }), ...items];
    clock.advance(1_000);
    await app.push.check();
    await app.push.check();
    const told = push.received.slice(before);
    expect(told.map((each) => each.id)).toEqual([idOf(follower)]);
    const payload = JSON.parse(told[0]?.payload ?? '') as Record<string, unknown>;
    expect(payload).toMatchObject({
      v: 1,
      kind: 'replay',
      title: 'Nouvelle émission : Synapses #12',
      body: 'Axonberg',
    });
    // The episode's page, by its slug (the feed item's link: docs/episodes.md, « Slugs »).
    expect(payload.url).toBe('/emissions/show-12');
    expect(told[0]?.headers).toEqual({ ttl: REPLAY_TTL_S, topic: topicOf('replay', 'axonberg'), urgency: 'normal' });

    // A restart on the same content folder: the marks come back, nothing is told again.
    await app.close();
    await start(rss);
    clock.advance(1_000);
    await app.push.check();
    expect(push.received.length).toBe(before + 1);
    // The app built twice (a restart), the feed read each time: about 5 s alone, past jest's 15 s once
    // in a whole run on a loaded machine.
  }, 60_000);
});

/** The pages the modules declare, with the episode's and the home's moved, as a deploy may move them. */
const moved = (): AddressedPage[] =>
  declaredPages().map((page) =>
    page.module === 'EpisodePage'
      ? { ...page, path: 'replays/:slug' }
      : page.module === 'HomePage'
        ? { ...page, path: 'accueil' }
        : page,
  );

describe('a notification’s address', () => {
  it('follows the site’s page table: a new episode links to where the episode’s page is now', async () => {
    contentDir = mkdtempSync(join(tmpdir(), 'prevenir-'));
    const date = (at: number) => new Date(at).toUTCString();
    items = [rssItem({ id: 21, title: 'Axonberg - Synapses #21', pubDate: date(clock.now() - 7 * 86_400_000) })];
    const rss = { rss: { url: `${feed.url}/sounds.rss`, maxPages: 1 } };
    await start(rss, moved());
    const follower = push.subscription();
    await subscribe(follower, [{ id: 'axonberg', live: false, replay: true }]);
    const before = push.received.length;
    await app.push.check();
    items = [rssItem({ id: 22, title: 'Axonberg - Synapses #22', pubDate: date(clock.now() - 60_000) }), ...items];
    clock.advance(1_000);
    await app.push.check();
    const told = push.received.slice(before);
    expect(told.map((each) => each.id)).toEqual([idOf(follower)]);
    expect((JSON.parse(told[0]?.payload ?? '') as { url?: string }).url).toBe('/replays/show-22');
  });

  it('reads the table for a show’s start too, and falls back to the site’s root without the page', () => {
    const residence = { id: 'axonberg', artist: 'Axonberg', show: 'Synapses' };
    const urlOf = (told: Told, table: readonly AddressedPage[]) =>
      (JSON.parse(messageOf(told, residence, table).payload) as { url: string }).url;
    // The slot is not read by the message.
    const live = { kind: 'live', residence: 'axonberg' } as Told;
    const replay: Told = { kind: 'replay', residence: 'axonberg', slug: 'show-22' };
    expect(urlOf(live, declaredPages())).toBe('/?ecouter=direct');
    expect(urlOf(live, moved())).toBe('/accueil?ecouter=direct');
    expect(urlOf(replay, declaredPages())).toBe('/emissions/show-22');
    // The radio's part not deployed: no page of its in the table, and no path typed in the server.
    const withoutRadio = declaredPages().filter((page) => page.remote !== 'radio');
    expect(urlOf(live, withoutRadio)).toBe('/?ecouter=direct');
    expect(urlOf(replay, withoutRadio)).toBe('/');
  });
});
