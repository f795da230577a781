import { sealer } from '../instances/seal';
import { EPHEMERAL_PREFIX, ephemeralKey, redisEphemeral, type EphemeralRedis } from './ephemeral';

const SECRET = 'secret-partage-des-instances-de-test';
const seals = sealer(SECRET);

/** Redis as whoever has its password sees it: keys and their values, written by anyone. */
function fakeRedis(): EphemeralRedis & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    set(key, value) {
      values.set(key, value);
      return Promise.resolve('OK');
    },
    get(key) {
      return Promise.resolve(values.get(key) ?? null);
    },
    getdel(key) {
      const value = values.get(key) ?? null;
      values.delete(key);
      return Promise.resolve(value);
    },
    del(key) {
      return Promise.resolve(values.delete(key) ? 1 : 0);
    },
  };
}

/** A registration's ceremony as a forger writes it: a challenge of theirs and an open invitation's digest. */
const forged = JSON.stringify({ challenge: 'defi-du-faussaire-0123', invitation: 'a'.repeat(64), name: 'intrus' });

let redis: ReturnType<typeof fakeRedis>;
let said: string[];
const store = () =>
  redisEphemeral(redis, { seals, what: 'cérémonie de clé d’accès', log: { warn: (message) => said.push(message) } });

beforeEach(() => {
  redis = fakeRedis();
  said = [];
});

describe('short-lived values in Redis', () => {
  it('keeps a value under its name’s keyed hash, sealed for that key, and gives it back once', async () => {
    const ceremonies = store();
    await ceremonies.set('ceremony:abc', '{"challenge":"defi-de-l-instance-01"}', 60_000);
    const key = ephemeralKey(seals, 'ceremony:abc');
    expect([...redis.values.keys()]).toEqual([key]);
    expect(key.startsWith(`${EPHEMERAL_PREFIX}ceremony:`)).toBe(true);
    expect(key).not.toContain('abc');
    expect(seals.open(key, redis.values.get(key) ?? '')).toBe('{"challenge":"defi-de-l-instance-01"}');
    expect(await ceremonies.take('ceremony:abc')).toBe('{"challenge":"defi-de-l-instance-01"}');
    expect(await ceremonies.take('ceremony:abc')).toBeNull();
    expect(said).toEqual([]);
  });

  it('takes no ceremony written unsigned under the key an instance reads, and says it once', async () => {
    redis.values.set(ephemeralKey(seals, 'ceremony:forgee'), forged);
    expect(await store().take('ceremony:forgee')).toBeNull();
    expect(await store().take('ceremony:forgee')).toBeNull();
    expect(said).toEqual([
      'valeur refusée dans Redis (cérémonie de clé d’accès) : signature absente ou fausse (SITE_SECRET), tenue pour absente',
    ]);
  });

  it('takes no ceremony signed with another secret, or signed for another key (copied from it)', async () => {
    const key = ephemeralKey(seals, 'ceremony:forgee');
    redis.values.set(key, sealer('une-autre-cle-de-vingt-quatre').seal(key, forged));
    expect(await store().take('ceremony:forgee')).toBeNull();

    // A ceremony an instance made, copied to the key of another one, and to the same key signed
    // for a session's.
    await store().set('ceremony:vraie', forged, 60_000);
    redis.values.set(key, redis.values.get(ephemeralKey(seals, 'ceremony:vraie')) ?? '');
    expect(await store().take('ceremony:forgee')).toBeNull();
    redis.values.set(key, seals.seal(ephemeralKey(seals, 'session:x'), forged));
    expect(await store().take('ceremony:forgee')).toBeNull();
    expect(said).toHaveLength(3);
  });

  it('takes no ceremony kept under a key that is not its id’s keyed hash, even signed for it', async () => {
    // Where the instances kept a ceremony before: its id in clear, which a forger can aim at.
    const clear = `${EPHEMERAL_PREFIX}ceremony:forgee`;
    redis.values.set(clear, forged);
    expect(await store().take('ceremony:forgee')).toBeNull();
    redis.values.set(clear, seals.seal(clear, forged));
    expect(await store().take('ceremony:forgee')).toBeNull();
    // The key's hash is made with the secret: another secret's is not where an instance reads.
    const elsewhere = ephemeralKey(sealer('une-autre-cle-de-vingt-quatre'), 'ceremony:forgee');
    redis.values.set(elsewhere, seals.seal(elsewhere, forged));
    expect(await store().take('ceremony:forgee')).toBeNull();
  });

  it('counts no wrong token written there: refused, said once, and deleted', async () => {
    const counters = redisEphemeral(redis, {
      seals,
      what: 'compte de jetons d’administration refusés',
      log: { warn: (message) => said.push(message) },
    });
    const key = ephemeralKey(seals, 'wrong-token:203.0.113.9');
    expect(key).not.toContain('203.0.113.9');
    redis.values.set(key, '999999');
    expect(await counters.get('wrong-token:203.0.113.9')).toBeNull();
    expect(await counters.get('wrong-token:203.0.113.9')).toBeNull();
    expect(said).toHaveLength(1);
    expect(redis.values.has(key)).toBe(false);
    // Its own count, as the store sealed it, is read back.
    await counters.set('wrong-token:203.0.113.9', '3', 60_000);
    expect(await counters.get('wrong-token:203.0.113.9')).toBe('3');
  });
});
