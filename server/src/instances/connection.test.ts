import { Redis } from 'ioredis';
import { startRedis, type RedisServer } from '../../deploy/redis';
import { options, PREFIX } from './connection';

// The options of every connection to Redis (docs/deploy.md, « Redis away »), to Debian's
// redis-server on loopback, behind deploy/'s ACL user.

/** Holds this process's event loop for `ms`, as a long task or a loaded machine does. */
function holdLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // Nothing else runs meanwhile: no timer, no socket read.
  }
}

describe('a connection to Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.close();
  });

  it('takes the answer of a command sent before the event loop was held for 800 ms, not a timeout', async () => {
    // Once the loop is free, Node runs the timers that are due before it reads the sockets: a command's
    // timeout shorter than the hold failed a command whose answer was already there (« Command timed
    // out », in a fresh clone's whole run on a loaded machine), and the instance then did without Redis.
    const client = new Redis(redis.url, { ...options, lazyConnect: true });
    try {
      await client.connect();
      await redis.run('SET', `${PREFIX}essai`, 'là');
      const answer = client.get(`${PREFIX}essai`);
      holdLoop(800);
      await expect(answer).resolves.toBe('là');
    } finally {
      client.disconnect();
    }
  });
});
