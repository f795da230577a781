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
import { Redis } from 'ioredis';
import { activeAccount, invite, revoke } from '../src/content/accounts';
import { softwareAuthenticator, type SoftwareAuthenticator } from '../src/content/testing/authenticator';
import { runAdmin } from '../src/admin/cli';
import { createContentStore } from '../src/content/store';
import { repositorySeeds } from '../src/content/kinds';
import { shareContent } from '../src/content/shared';
import { ephemeralKey } from '../src/content/ephemeral';
import { sealer } from '../src/instances/seal';
import { closedAfterAll, closedAfterEach, type Opened } from './opened';

/** A log for connections made by the tests themselves. */
const quiet = { warn: () => undefined };

// Two instances of the server sharing one Redis (REDIS_URL), on loopback, as two machines behind a
// proxy would (docs/deploy.md, « Shared state »): Debian's redis-server, real HTTP, a fake AzuraCast
// that counts what it is asked. What the file's tests share is closed after them all, what a test
// opens for itself after it, whatever it ends with (opened.ts).

const NOW_PLAYING_TTL_MS = 400;
const TRACK_PER_MINUTE = 4;
const ADMIN_TOKEN = 'jeton-admin-du-test';
/** The instances' shared key (SITE_SECRET): the same for both, never in Redis. */
const SITE_SECRET = 'secret-partage-des-instances-de-test';

let redis: RedisServer;
let upstream: FakeUpstream;
let song = 'Premier titre';
let failing = false;
const distRoot = mkdtempSync(join(tmpdir(), 'shared-site-'));
const forFile = closedAfterAll();
const forTest = closedAfterEach();

/** An instance, closed with `opened`: by default, after the test that starts it. */
function instance(opened: Opened = forTest): Promise<{ app: FastifyInstance; base: string }> {
  const base = testConfig();
  const app = buildApp({
    site: readSiteServerConfig({ DIST_ROOT: distRoot, REDIS_URL: redis.url, RENDERERS: '0' }),
    api: testConfig({
      azuracast: { url: `${upstream.url}/api/nowplaying` },
      ttlMs: { ...base.ttlMs, nowPlaying: NOW_PLAYING_TTL_MS },
      limits: { ...base.limits, trackPerMinute: TRACK_PER_MINUTE },
      adminToken: ADMIN_TOKEN,
      siteSecret: SITE_SECRET,
      // The editors' tests sign in more often than a client may a minute.
      editor: { ...base.editor, attemptsPerMinute: 1000 },
    }),
  });
  // Kept once listening: the list's close waits for it.
  const listening = opened.keep(
    app.then(async (started) => ({ app: started, base: await listen(started), close: () => started.close() })),
  );
  return listening;
}

let a: { app: FastifyInstance; base: string };
let b: { app: FastifyInstance; base: string };

beforeAll(async () => {
  redis = await forFile.keep(startRedis());
  upstream = await forFile.keep(startFakeUpstream());
  upstream.on('/api/nowplaying', (_request, response) => {
    if (failing) {
      response.writeHead(503).end('en maintenance');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify([{ now_playing: { song: { artist: 'Axonberg', title: song } } }]));
  });
  [a, b] = await Promise.all([instance(forFile), instance(forFile)]);
});

afterAll(() => {
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

const XSRF = { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc', 'content-type': 'application/json' };

/** A POST of the editor's API as the browser sends it, with the session's cookie when given. */
const post = (base: string, path: string, body?: unknown, session?: string) =>
  fetch(`${base}/api/editor/${path}`, {
    method: 'POST',
    headers: { ...XSRF, cookie: session === undefined ? XSRF.cookie : `${XSRF.cookie}; ${session}` },
    body: JSON.stringify(body ?? {}),
  });

/** The editor's session cookie a response sets, as a request sends it back. */
const sessionOf = (response: Response) => (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

/** Registers the invitation's passkey on `device` through the instance at `base`. */
async function register(base: string, device: SoftwareAuthenticator, token: string, name: string, origin: string) {
  const start = (await (await post(base, 'invitation/options', { token, name })).json()) as {
    ceremony: string;
    options: Parameters<SoftwareAuthenticator['create']>[0];
  };
  return post(base, 'invitation', { ceremony: start.ceremony, response: device.create(start.options, origin) });
}

/** Signs in with `device`'s passkey through the instance at `base`. */
async function signIn(base: string, device: SoftwareAuthenticator, origin: string) {
  const start = (await (await post(base, 'signin/options')).json()) as {
    ceremony: string;
    options: Parameters<SoftwareAuthenticator['get']>[0];
  };
  return post(base, 'signin', { ceremony: start.ceremony, response: device.get(start.options, origin) });
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
    }
  });

  it('share an upstream failure: the others serve the last answer without asking it again', async () => {
    // The upstream fails while the answer is fresh. Once it is due, one instance asks and fails: a
    // visitor's request or either hub's poll (the hub reads the radio with nobody listening, for
    // what it records), whichever comes first; a poll started before the failure may still succeed.
    failing = true;
    try {
      const atFailure = upstream.count('/api/nowplaying');
      await delay(NOW_PLAYING_TTL_MS + 50);
      await until(async () => (await fetch(`${a.base}/api/nowplaying`)).headers.get('x-cache') === 'STALE', {
        what: 'the last answer served as stale',
      });
      // One try for the whole deployment, not one per instance.
      expect(upstream.count('/api/nowplaying') - atFailure).toBeLessThanOrEqual(2);
      const before = upstream.count('/api/nowplaying');
      for (const { base } of [a, b]) {
        const answer = await fetch(`${base}/api/nowplaying`);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-cache')).toBe('STALE');
      }
      expect(upstream.count('/api/nowplaying')).toBe(before);
    } finally {
      failing = false;
    }
  });

  it('number now-playing alike: a listener moving to the other instance continues the same sequence', async () => {
    const onA = await forTest.keep(readEvents(`${a.base}/api/nowplaying/events`));
    const onB = await forTest.keep(readEvents(`${b.base}/api/nowplaying/events`));
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
    const moved = await forTest.keep(readEvents(`${b.base}/api/nowplaying/events`, { 'last-event-id': firstId ?? '' }));
    expect(await moved.until(1)).toEqual([second]);
    expect(moved.ids).toEqual([onA.ids[1]]);
    for (const listener of [onA, onB, moved]) listener.close();
  });

  it('serve a change of content saved on one instance from the other within 2 s, and from one that starts later', async () => {
    const team = (await (await fetch(`${b.base}/api/content/team`)).json()) as { title: string }[];
    const changed = [{ ...team[0], title: 'Camille (partagé)' }, ...team.slice(1)];
    await a.app.content.save('team', changed, { by: 'camille' });
    const served = async () =>
      ((await (await fetch(`${b.base}/api/content/team`)).json()) as { title: string }[])[0]?.title;
    // The promise of docs/content.md: every instance within 2 s.
    await until(async () => (await served()) === 'Camille (partagé)', { timeoutMs: 2000, what: 'le changement servi' });

    const later = await instance();
    const answer = (await (await fetch(`${later.base}/api/content/team`)).json()) as { title: string }[];
    expect(answer[0]?.title).toBe('Camille (partagé)');
  });

  it('hear a change said by another instance right after they connected', async () => {
    // Each connection is new, and the first thing said is heard: none is lost to a subscription
    // still on its way.
    for (let round = 0; round < 5; round += 1) {
      const connect = () => connectShared(redis.url, quiet, { secret: SITE_SECRET });
      const [speaker, listener] = await Promise.all([connect(), connect()]);
      try {
        const heard: string[] = [];
        listener.content.listen((text) => heard.push(text));
        const value = `essai ${String(round)}`;
        // A kind of its own each round: nothing claimed before it.
        expect(await speaker.content.claim(`essai-${String(round)}`, { id: '1', follows: '', value })).toBeNull();
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
    expect((await fetch(`${later.base}${small}`)).status).toBe(200);
  });

  it('keep answering while Redis is away, and share again once it is back, without a restart', async () => {
    await redis.stop();
    for (let i = 0; i < 50 && (a.app.shared?.available() === true || b.app.shared?.available() === true); i += 1) {
      await delay(50);
    }
    expect(a.app.shared?.available()).toBe(false);
    // Pages of the API and the channel answer; the limits are not enforced meanwhile (fail open).
    expect((await fetch(`${a.base}/api/nowplaying`)).status).toBe(200);
    const listener = await forTest.keep(readEvents(`${b.base}/api/nowplaying/events`));
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
  });
});

describe('editors on two instances sharing Redis', () => {
  const origin = readSiteServerConfig({}).siteOrigin;

  it('hold a revocation made during sign-ins on both instances: the account signs in nowhere after it', async () => {
    const name = 'revoque';
    const device = softwareAuthenticator();
    const { token } = await invite(a.app.content, { role: 'residence', residence: 'axonberg', by: 'camille' });
    expect((await register(a.base, device, token, name, origin)).status).toBe(200);
    await until(() => activeAccount(b.app.content, name) !== null, { timeoutMs: 2000, what: 'le compte sur b' });
    // Sign-ins on both instances, each saving its passkey's new counter once verified; the
    // revocation is made on b as soon as a has read the accounts for the first of them, so that it
    // lands while they are being verified.
    const instances = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b));
    const started = await Promise.all(
      instances.map(
        async ({ base }) =>
          (await (await post(base, 'signin/options')).json()) as {
            ceremony: string;
            options: Parameters<SoftwareAuthenticator['get']>[0];
          },
      ),
    );
    const read = a.app.content.current.bind(a.app.content);
    const revocation: { made?: Promise<unknown> } = {};
    a.app.content.current = (kind) => {
      if (kind === 'accounts') revocation.made ??= revoke(b.app.content, name, 'camille');
      return read(kind);
    };
    let sessions: string[];
    try {
      const answers = await Promise.all(
        started.map(({ ceremony, options }, i) =>
          post(instances[i]?.base ?? '', 'signin', { ceremony, response: device.get(options, origin) }),
        ),
      );
      await revocation.made;
      sessions = answers.filter((response) => response.ok).map(sessionOf);
    } finally {
      a.app.content.current = read;
    }
    // Once the revocation has reached both, nothing undid it: no instance lets the account in.
    await until(() => activeAccount(a.app.content, name) === null && activeAccount(b.app.content, name) === null, {
      timeoutMs: 2000,
      what: 'la révocation partout',
    });
    for (const { base } of [a, b]) {
      expect((await signIn(base, device, origin)).status).toBe(401);
      for (const session of sessions) {
        expect(await (await fetch(`${base}/api/editor/me`, { headers: { cookie: session } })).json()).toBeNull();
      }
    }
    expect(activeAccount(a.app.content, name)).toBeNull();
    expect(activeAccount(b.app.content, name)).toBeNull();
  });

  it('revoke from the command line, on a machine of its own, an account every instance then refuses', async () => {
    const device = softwareAuthenticator();
    const { token } = await invite(a.app.content, { role: 'about', by: 'camille' });
    expect((await register(b.base, device, token, 'par-la-ligne', origin)).status).toBe(200);
    const cli = mkdtempSync(join(tmpdir(), 'admin-'));
    const lines: string[] = [];
    try {
      const code = await runAdmin(['revoke', 'par-la-ligne'], {
        env: { REDIS_URL: redis.url, SITE_SECRET, CONTENT_DIR: cli },
        out: (line) => lines.push(line),
      });
      expect(lines).toEqual(['Compte « par-la-ligne » révoqué : il ne peut plus se connecter.']);
      expect(code).toBe(0);
      for (const { base } of [a, b]) {
        await until(async () => (await signIn(base, device, origin)).status === 401, {
          timeoutMs: 2000,
          what: 'la connexion refusée',
        });
      }
    } finally {
      rmSync(cli, { recursive: true, force: true });
    }
  });

  it('keep in Redis neither a session’s id nor an invitation’s token, and take no session written there', async () => {
    const device = softwareAuthenticator();
    const { token } = await invite(a.app.content, { role: 'label', by: 'camille' });
    const registered = await register(a.base, device, token, 'label-redis', origin);
    const session = sessionOf(registered);
    const id = session.split('=')[1] ?? '';
    expect(id).not.toBe('');
    // The session is known on the other instance, from Redis.
    expect(await (await fetch(`${b.base}/api/editor/me`, { headers: { cookie: session } })).json()).toMatchObject({
      name: 'label-redis',
    });
    const second = await invite(a.app.content, { role: 'about', by: 'camille' });
    const started = await post(a.base, 'invitation/options', { token: second.token, name: 'apropos' });
    const { ceremony } = (await started.json()) as { ceremony: string };

    // Read as whoever has Redis's password would.
    const reader = new Redis(redis.url);
    try {
      expect(await reader.get(`collectif:editeurs:session:${id}`)).toBeNull();
      // A ceremony neither: it is kept under its id's keyed hash, sealed, with the invitation's digest.
      expect(await reader.get(`collectif:editeurs:ceremony:${ceremony}`)).toBeNull();
      const kept = await reader.get(ephemeralKey(sealer(SITE_SECRET), `ceremony:${ceremony}`));
      expect(kept).toContain('"challenge"');
      expect(kept).not.toContain(second.token);
      // A session written in Redis by whoever has its password opens nothing.
      await reader.set(`collectif:editeurs:session:${id}`, `label-redis\n${String(Date.now())}`, 'PX', 60_000);
      await reader.set('collectif:editeurs:session:inventee', `label-redis\n${String(Date.now())}`, 'PX', 60_000);
      const forged = await fetch(`${b.base}/api/editor/me`, { headers: { cookie: 'collectif_editeur=inventee' } });
      expect(await forged.json()).toBeNull();
    } finally {
      reader.disconnect();
    }
  });
});

describe('content saves on two instances sharing Redis', () => {
  it('make a save of one residence again on the list another instance saved meanwhile, losing neither', async () => {
    const connect = () => connectShared(redis.url, quiet, { secret: SITE_SECRET });
    const [one, two] = await Promise.all([connect(), connect()]);
    const dirs = [mkdtempSync(join(tmpdir(), 'contenu-')), mkdtempSync(join(tmpdir(), 'contenu-'))];
    try {
      const first = await shareContent(
        createContentStore({ dir: dirs[0] ?? '', seeds: repositorySeeds() }),
        // An instance that missed the other's message (it was reconnecting): it learns of the
        // other's save only when its own is refused.
        { ...one.content, listen: () => undefined },
        quiet,
        SITE_SECRET,
      );
      const second = await shareContent(
        createContentStore({ dir: dirs[1] ?? '', seeds: repositorySeeds() }),
        two.content,
        quiet,
        SITE_SECRET,
      );
      type Entry = { id: string; description: string };
      const list = () => first.current('residences').data as Entry[];
      const [x, y] = list();
      if (x === undefined || y === undefined) throw new Error('deux résidences attendues');
      const withDescription = (present: unknown, id: string, description: string) =>
        (present as Entry[]).map((entry) => (entry.id === id ? { ...entry, description } : entry));

      await second.save('residences', withDescription(second.current('residences').data, x.id, 'Texte de l’autre.'), {
        by: 'camille',
        entry: x.id,
      });
      const entry = { ...y, description: 'Texte d’ici.' };
      await first.save('residences', withDescription(first.current('residences').data, y.id, entry.description), {
        by: 'lea',
        entry: y.id,
        rebase: (present) => withDescription(present, y.id, entry.description),
      });
      const saved = list();
      expect(saved.find(({ id }) => id === x.id)?.description).toBe('Texte de l’autre.');
      expect(saved.find(({ id }) => id === y.id)?.description).toBe('Texte d’ici.');
    } finally {
      await Promise.all([one.close(), two.close()]);
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
