import type { FastifyInstance } from 'fastify';
import { solveChallenge } from 'altcha-lib/v1';
import { buildApi, listen, manualClock, testConfig } from '../src/api/testing/fixtures';
import { connectShared, type SharedState } from '../src/instances/shared-state';
import { startRedis, type RedisServer } from './redis';

// Proposals on two instances sharing a real Redis behind deploy/'s ACL user (docs/proposals.md,
// « Several instances »): proposals sent to both at once are numbered without collision (drawn numbers), each is
// read by the other, a challenge used on one is refused by the other, and a network's bound is
// counted across both. `close` fails if Redis refused the site's user any command.

const SITE_SECRET = 'secret-partage-des-propositions-0123';
const TOKEN = 'jeton-admin-des-propositions-0123456789';
let redis: RedisServer;
const apps: FastifyInstance[] = [];
const states: SharedState[] = [];
const bases: string[] = [];
const dirs: string[] = [];
// One clock for both instances, moved by the test: the minimum time to fill passes without a wait.
const clock = manualClock();

beforeAll(async () => {
  redis = await startRedis();
  for (let i = 0; i < 2; i += 1) {
    const shared = await connectShared(redis.url, { warn: () => undefined }, { secret: SITE_SECRET });
    const defaults = testConfig();
    const config = testConfig({
      adminToken: TOKEN,
      siteSecret: SITE_SECRET,
      proposals: { ...defaults.proposals, perNetwork: 40 },
    });
    const app = await buildApi({ config, shared, now: clock.now });
    dirs.push(config.contentDir);
    states.push(shared);
    apps.push(app);
    bases.push(await listen(app));
  }
}, 30_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  for (const state of states) await state.close();
  await redis.close();
});

const show = {
  name: 'Les Ondes Lentes',
  makers: 'Camille',
  style: 'ambient',
  links: ['https://soundcloud.com/a/un', 'https://soundcloud.com/a/deux'],
  when: 'le mardi',
  email: 'camille@example.org',
  message: '',
};

/** A challenge from `from`, solved, and the body that carries it (its startedAt moved back 5 s). */
async function body(from: string): Promise<Record<string, unknown>> {
  const made = (await (await fetch(`${from}/api/proposals/challenge`)).json()) as {
    algorithm: string;
    challenge: string;
    maxnumber: number;
    salt: string;
    signature: string;
    startedAt: string;
  };
  const solution = await solveChallenge(made.challenge, made.salt, made.algorithm, made.maxnumber).promise;
  const altcha = Buffer.from(JSON.stringify({ ...made, number: solution?.number ?? 0 })).toString('base64');
  return { ...show, altcha, startedAt: made.startedAt };
}

const post = (to: string, content: Record<string, unknown>) =>
  fetch(`${to}/api/proposals/emission`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(content),
  });

describe('proposals on two instances', () => {
  it('numbers proposals sent to both at once without collision, each read by the other', async () => {
    const first = bases[0] ?? '';
    const second = bases[1] ?? '';
    const bodies = await Promise.all(Array.from({ length: 12 }, (_unused, i) => body(i % 2 === 0 ? first : second)));
    // The minimum time to fill, on the instances' clock.
    clock.advance(5_000);
    const answers = await Promise.all(bodies.map((content, i) => post(i % 2 === 0 ? first : second, content)));
    expect(answers.map((answer) => answer.status)).toEqual(bodies.map(() => 201));
    const numbers = await Promise.all(
      answers.map(async (answer) => ((await answer.json()) as { number: string }).number),
    );
    // Drawn at random (docs/proposals.md, « Numbers »): twelve, each once.
    expect(new Set(numbers).size).toBe(12);
    for (const number of numbers) expect(number).toMatch(/^E-[0-9A-HJKMNP-TV-Z]{6}$/);
    // Each instance reads every proposal, whichever took it.
    for (const base of bases) {
      const list = await fetch(`${base}/api/editor/proposals`, {
        headers: { authorization: `Bearer ${TOKEN}`, cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc' },
      });
      expect(((await list.json()) as { proposals: unknown[] }).proposals).toHaveLength(12);
    }
    // A challenge used on one instance is refused by the other.
    const content = await body(first);
    clock.advance(5_000);
    expect((await post(first, content)).status).toBe(201);
    const again = await post(second, content);
    expect(await again.json()).toMatchObject({ error: 'challenge_used' });
  }, 60_000);

  it('gives the backup file to a Redis rebuilt from nothing, and draws a number not kept', async () => {
    // The sending instance's backup, then Redis loses everything.
    await apps[0]?.proposals.store.backup();
    await redis.run('FLUSHALL');
    const shared = await connectShared(redis.url, { warn: () => undefined }, { secret: SITE_SECRET });
    const defaults = testConfig();
    const config = testConfig({
      adminToken: TOKEN,
      siteSecret: SITE_SECRET,
      contentDir: dirs[0] ?? '',
      proposals: { ...defaults.proposals, perNetwork: 40 },
    });
    const app = await buildApi({ config, shared, now: clock.now });
    states.push(shared);
    apps.push(app);
    const third = await listen(app);
    bases.push(third);
    expect(await app.proposals.store.list()).toHaveLength(13);
    const content = await body(third);
    clock.advance(5_000);
    const sent = await post(third, content);
    const { number } = (await sent.json()) as { number: string };
    expect(number).toMatch(/^E-[0-9A-HJKMNP-TV-Z]{6}$/);
    expect((await app.proposals.store.list()).filter((proposal) => proposal.number === number)).toHaveLength(1);
    expect(await app.proposals.store.list()).toHaveLength(14);
  }, 60_000);
});
