import type { FastifyInstance } from 'fastify';
import { buildApi, testConfig } from './testing/fixtures';
import type { ApiConfig } from './env';
import type { ApiError } from '@collectif/shared';
import { FAKE_ACCOUNT } from '../support/testing/fake-helloasso';

// What each public answer depends on (docs/api.md, « What an answer depends on »): every upstream in
// turn unreachable (a loopback port nobody listens on), the others the demo's. An answer that shows
// nothing of the upstream that is down answers as it does with every source up; one that shows it
// answers 503 upstream_unavailable, in French, and nothing else changes.

const DEAD = 'http://127.0.0.1:1';
const credentials = { clientId: 'id', clientSecret: 'secret', apiUrl: DEAD, authUrl: `${DEAD}/oauth/token` };

let urls: string[] = [];
/** Each address's status with every source up (the demo's). */
const whole = new Map<string, number>();

beforeAll(async () => {
  const demo = await buildApi({ config: testConfig() });
  try {
    const { items } = (await demo.inject({ url: '/api/episodes' })).json<{ items: { slug: string }[] }>();
    const { coming } = (await demo.inject({ url: '/api/events' })).json<{ coming: { slug: string }[] }>();
    const episode = items[0]?.slug ?? 'absent';
    const event = coming[0]?.slug ?? 'absent';
    urls = [
      '/api/podcasts',
      '/api/episodes',
      `/api/episodes/${episode}`,
      `/api/episodes/${episode}/chapters.json`,
      '/api/soundcloud-rss',
      '/api/artists',
      '/api/artists/axonberg',
      '/api/styles',
      '/api/releases',
      '/api/islive',
      '/api/nowplaying',
      '/api/schedule',
      '/api/schedule.ics',
      '/api/schedule/suivi.ics?residences=axonberg',
      '/api/events',
      '/api/events.ics',
      `/api/events/${event}`,
      `/api/events/${event}.ics`,
      '/api/support',
      '/api/radio',
      '/api/timeshift',
    ];
    for (const url of urls) whole.set(url, (await demo.inject({ url })).statusCode);
  } finally {
    await demo.close();
  }
}, 30_000);

const NEEDS_FEED = [
  '/api/podcasts',
  '/api/episodes',
  '/api/episodes/:episode',
  '/api/episodes/:episode/chapters.json',
  '/api/soundcloud-rss',
  // The artists' index counts their plays, read from the episodes' tracklists.
  '/api/artists',
  '/api/artists/axonberg',
  // The styles are the episodes' tags.
  '/api/styles',
];
const NEEDS_SCHEDULE = ['/api/schedule', '/api/schedule.ics', '/api/schedule/suivi.ics?residences=axonberg'];
const NEEDS_EVENTS = ['/api/events', '/api/events.ics', '/api/events/:event', '/api/events/:event.ics'];

describe.each<[string, Partial<ApiConfig>, string[]]>([
  ['the podcast feed', { rss: { url: `${DEAD}/sounds.rss`, maxPages: 1 } }, NEEDS_FEED],
  ['Twitch', { twitch: { ...credentials, channel: 'collectif' } }, ['/api/islive']],
  ['AzuraCast', { azuracast: { url: `${DEAD}/api/nowplaying/1` } }, ['/api/nowplaying']],
  ['the radio’s calendars', { schedule: { urls: [`${DEAD}/programme.ics`] } }, NEEDS_SCHEDULE],
  ['the events’ calendars', { events: { urls: [`${DEAD}/evenements.ics`] } }, NEEDS_EVENTS],
  ['SoundCloud’s API', { soundcloud: credentials }, []],
  ['HelloAsso', { support: { helloasso: { ...FAKE_ACCOUNT, apiUrl: DEAD }, demo: false, taxReceipt: false } }, []],
])('with %s down', (_name, down, needs) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApi({ config: testConfig(down) });
  });
  afterAll(async () => {
    await app.close();
  });

  it('only the answers that show it fail, with 503 in French; every other answer is as with every source up', async () => {
    const changed: string[] = [];
    for (const url of urls) {
      const answer = await app.inject({ url });
      if (answer.statusCode === whole.get(url)) continue;
      changed.push(
        url
          .replace(/^\/api\/episodes\/[^/]+/, '/api/episodes/:episode')
          .replace(/^\/api\/events\/[^/.]+/, '/api/events/:event'),
      );
      expect([answer.statusCode, answer.json<ApiError>().error]).toEqual([503, 'upstream_unavailable']);
      expect(answer.json<ApiError>().message).toMatch(/injoignable/);
      expect(answer.headers['cache-control']).toBe('no-store');
    }
    expect(changed).toEqual(needs);
  });
});

describe('with HelloAsso down', () => {
  it('keeps the support page’s answer, without the membership form and the year’s count', async () => {
    const app = await buildApi({
      config: testConfig({ support: { helloasso: { ...FAKE_ACCOUNT, apiUrl: DEAD }, demo: false, taxReceipt: false } }),
    });
    try {
      const answer = await app.inject({ url: '/api/support' });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ helloasso: true, membership: null, progress: null });
    } finally {
      await app.close();
    }
  });
});
