// Small helpers every benchmark script uses.

/** `--name=value` from the command line, or `fallback`. */
export function arg(name, fallback) {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : found.slice(name.length + 3);
}

/** A loopback port nobody listens on (for the server a benchmark starts). */
export { freePort } from '../../scripts/ports.mjs';
