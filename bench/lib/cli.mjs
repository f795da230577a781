// Small helpers every benchmark script uses.
import { createServer } from 'node:net';

/** `--name=value` from the command line, or `fallback`. */
export function arg(name, fallback) {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : found.slice(name.length + 3);
}

/** A loopback port nobody listens on (for the server a benchmark starts). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
