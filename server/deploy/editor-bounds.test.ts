import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { until } from '@collectif/shared/testing';
import { buildApp } from '../src/app/app';
import { readSiteServerConfig } from '../src/settings/config';
import { listen, testConfig } from '../src/api/testing/fixtures';
import { png } from '../src/content/testing/pictures';
import { PICTURE_KEPT_MS } from '../src/instances/shared-state';
import { startRedis, type RedisServer } from './redis';

// An editor's bounds on two instances sharing one Redis (docs/content.md, « Bounds », « Several
// instances » of « Pictures »), for real on loopback: an account's saves counted together whichever
// instance gets them; an uploaded picture kept in Redis for 30 days, renewed while the content
// names it, and given again from an instance's folder once Redis lost it.

const ADMIN_TOKEN = 'jeton-admin-du-test-de-24-car';
const SITE_SECRET = 'secret-partage-des-instances-limites';
const AS_ADMIN = {
  authorization: `Bearer ${ADMIN_TOKEN}`,
  cookie: 'XSRF-TOKEN=abc',
  'x-xsrf-token': 'abc',
};
const DAY = 86_400_000;

let redis: RedisServer;
/** The test's own connection, as the site's user. */
let look: Redis;
const distRoot = mkdtempSync(join(tmpdir(), 'bornes-site-'));

/** An instance; `writesPerMinute` past the default (20) for a test that is not about it. */
async function instance(writesPerMinute?: number): Promise<{ app: FastifyInstance; base: string }> {
  const { limits } = testConfig();
  const app = await buildApp({
    site: readSiteServerConfig({ DIST_ROOT: distRoot, REDIS_URL: redis.url, RENDERERS: '0' }),
    api: testConfig({
      adminToken: ADMIN_TOKEN,
      siteSecret: SITE_SECRET,
      limits: { ...limits, editorWritesPerMinute: writesPerMinute ?? limits.editorWritesPerMinute },
    }),
  });
  return { app, base: await listen(app) };
}

let a: { app: FastifyInstance; base: string };
let b: { app: FastifyInstance; base: string };

beforeAll(async () => {
  redis = await startRedis();
  look = new Redis(redis.url);
  [a, b] = await Promise.all([instance(), instance()]);
}, 30_000);

afterAll(async () => {
  await Promise.all([a.app.close(), b.app.close()]);
  look.disconnect();
  // Throws if Redis refused the site's user anything.
  await redis.close();
  rmSync(distRoot, { recursive: true, force: true });
});

const put = (base: string, kind: string, data: unknown) =>
  fetch(`${base}/api/content/${kind}`, {
    method: 'PUT',
    headers: { ...AS_ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ data }),
  });

describe('an editor on two instances sharing Redis', () => {
  it('is counted once: 20 saves a minute spread over both, the next refused on either', async () => {
    const team = (await (await fetch(`${a.base}/api/content/team`)).json()) as { description: string }[];
    const statuses: number[] = [];
    for (let i = 0; i < 22; i += 1) {
      const { base } = i % 2 === 0 ? a : b;
      statuses.push((await put(base, 'team', [{ ...team[0], description: `Essai ${String(i)}` }])).status);
    }
    expect(statuses).toEqual([...Array<number>(20).fill(200), 429, 429]);
  });

  it('uploads a picture Redis keeps 30 days, renewed while a version names it, given again once Redis lost it', async () => {
    // Instances of their own, whose saves the test before has not used up.
    const pair = await Promise.all([instance(1000), instance(1000)]);
    try {
      await pictureKept(pair[0].base, pair[1].base);
    } finally {
      await Promise.all(pair.map(({ app }) => app.close()));
    }
  });
});

/** The picture's test, on two instances at `here` and `there`. */
async function pictureKept(here: string, there: string): Promise<void> {
  const stored = await fetch(`${here}/api/content/pictures?purpose=slide`, {
    method: 'POST',
    headers: AS_ADMIN,
    body: new Uint8Array(await png(480, 270)),
  });
  expect(stored.status).toBe(201);
  const { src } = (await stored.json()) as { src: string };
  const name = src.slice('/media/'.length);
  const small = name.replace('-1600.webp', '-800.webp');
  const keys = [name, small].map((file) => `collectif:picture:${file}`);
  const ttl = async () => Promise.all(keys.map((key) => look.pttl(key)));
  for (const left of await ttl()) {
    expect(left).toBeGreaterThan(PICTURE_KEPT_MS - DAY);
    expect(left).toBeLessThanOrEqual(PICTURE_KEPT_MS);
  }

  // Near the end of its time, a slide names it: both its widths are kept 30 days more.
  await Promise.all(keys.map((key) => look.pexpire(key, 60_000)));
  const slides = (await (await fetch(`${there}/api/content/slides`)).json()) as { imagePath: string }[];
  expect((await put(there, 'slides', [{ ...slides[0], imagePath: src }, ...slides.slice(1)])).status).toBe(200);
  await until(async () => (await ttl()).every((left) => left > PICTURE_KEPT_MS - DAY), {
    what: 'l’image renouvelée',
  });

  // Lost by Redis (a flush, a new server): the next save of the kind gives it again from the
  // folder of the instance that has it, and an instance that never had it serves it.
  await look.del(...keys);
  expect((await put(here, 'slides', [{ ...slides[0], imagePath: src }])).status).toBe(200);
  await until(async () => (await ttl()).every((left) => left > PICTURE_KEPT_MS - DAY), {
    what: 'l’image redonnée à Redis',
  });
  const later = await instance();
  try {
    expect((await fetch(`${later.base}/media/${small}`)).status).toBe(200);
  } finally {
    await later.app.close();
  }
}
