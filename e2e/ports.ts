import { createServer } from 'node:net';

/**
 * A port nobody listens on now, chosen by the system. A fixed port would meet whatever was left
 * listening on it (another run's server), and a test would then talk to that server instead.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}
