import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createPlayedRecorder } from '../src/content/played';
import { sealer } from '../src/instances/seal';
import { connectShared, type SharedState } from '../src/instances/shared-state';
import { startRedis, type RedisServer } from './redis';

// What the radio played, shared by the instances through a real Redis behind the site's ACL user
// (docs/content.md, « What the radio played »): rows one instance recorded are taken by an instance
// that starts afterwards; a row written to Redis without the instances' key is ignored. Redis's
// close fails the test if it refused the site's user a command (deploy/redis-collectif.acl).

const SECRET = 'secret-partage-des-instances-joues';
const T0 = Date.UTC(2026, 10, 24, 19);
const iso = (ms: number) => new Date(ms).toISOString();

let redis: RedisServer;
const states: SharedState[] = [];

beforeAll(async () => {
  redis = await startRedis();
}, 30_000);

afterAll(async () => {
  await Promise.all(states.map((state) => state.close()));
  await redis.close();
});

async function instance(warnings: string[] = []) {
  const state = await connectShared(redis.url, { warn: (message) => warnings.push(message) }, { secret: SECRET });
  states.push(state);
  return state;
}

const fileIn = () => join(mkdtempSync(join(tmpdir(), 'joues-')), 'played.json');

describe('what the radio played, through Redis', () => {
  it('is taken by an instance that starts afterwards, and a forged row is ignored', async () => {
    const now = () => T0 + 3600_000;
    const first = await createPlayedRecorder({ file: fileIn(), shared: (await instance()).played, now });
    first.observe({ artist: 'Axonberg', title: 'Synapse 7' }, T0);
    first.observe(
      {
        artist: 'Verglas',
        title: 'Froid Sec',
        history: [
          { artist: 'Axonberg', title: 'Synapse 7', playedAt: iso(T0 - 20_000) },
          { artist: 'La Brume', title: 'Matin sur la Garonne', playedAt: iso(T0 - 4 * 60_000) },
        ],
      },
      T0 + 5 * 60_000,
    );
    await first.close();

    // Whoever has Redis's password, without the instances' key: rows unsigned, signed with another
    // key, or signed for another place.
    const intruder = new Redis(redis.url);
    const row = (artist: string, at: number) => JSON.stringify({ at: iso(at), artist, title: 'Faux' });
    await intruder.zadd(
      'collectif:played',
      T0 + 60_000,
      `signature.${row('Sans clé', T0 + 60_000)}`,
      T0 + 61_000,
      sealer('une-autre-cle-que-celle-des-instances').seal('collectif:played', row('Autre clé', T0 + 61_000)),
      T0 + 62_000,
      sealer(SECRET).seal('collectif:nowplaying:events', row('Autre place', T0 + 62_000)),
    );
    intruder.disconnect();

    const warnings: string[] = [];
    const second = await createPlayedRecorder({
      file: fileIn(),
      shared: (await instance(warnings)).played,
      now,
      log: { warn: (message) => warnings.push(message) },
    });
    expect(second.rows()).toEqual([
      { at: iso(T0 - 4 * 60_000), artist: 'La Brume', title: 'Matin sur la Garonne' },
      { at: iso(T0 - 20_000), artist: 'Axonberg', title: 'Synapse 7' },
      { at: iso(T0 + 5 * 60_000), artist: 'Verglas', title: 'Froid Sec' },
    ]);
    expect(warnings).toContain(
      'titres joués : 3 valeur(s) de Redis ignorée(s) : signature absente ou fausse (SITE_SECRET), ou forme invalide',
    );
    await second.close();
    expect(await redis.denials()).toEqual([]);
  });
});
