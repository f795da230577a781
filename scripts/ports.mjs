// @ts-check
import { createServer } from 'node:net';

/**
 * A loopback port nobody listens on now, chosen by the system, for a server a test or a benchmark
 * starts. A fixed port would meet whatever was left listening on it (another run's server), and the
 * run would then fail to start, or talk to that server instead of its own.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (typeof address === 'object' && address !== null) resolve(address.port);
        else reject(new Error('aucun port TCP attribué'));
      });
    });
  });
}
