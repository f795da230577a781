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

/**
 * Whether nothing listens on a loopback port now.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
export function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * An offset that moves every given port onto free ones (`npm run dev`'s DEV_PORT_OFFSET), tried
 * from `first` upwards by steps of 100.
 * @param {readonly number[]} ports
 * @param {number} [first]
 * @returns {Promise<number>}
 */
export async function freeOffset(ports, first = 100) {
  for (let offset = first; offset < 30_000; offset += 100) {
    const free = await Promise.all(ports.map((port) => portIsFree(port + offset)));
    if (free.every(Boolean)) return offset;
  }
  throw new Error(`aucun décalage ne libère les ports ${ports.join(', ')}`);
}
