// How the site's server is started, wherever it is (npm start, npm run dev, the browser tests, the
// benches): one command, so that all of them run it with the same limits.
//
// The main thread's heap is capped (docs/rendering.md, « Memory »). Left to itself on a machine with
// memory to spare, V8 lets the heap grow to several hundred MB of garbage before collecting it:
// measured, a crawler's 4,000 distinct searches took the server from 191 to 516 MB, with about 100 MB
// actually in use. Capped, V8 collects sooner; the server's own bounds (page cache, upstream caches)
// keep what is in use far below the cap.

/** The main thread's heap, in MB (`--max-old-space-size`). */
export const SERVER_HEAP_MB = 256;

/** Node's arguments that start the server, from the repository's root (or `root`, a relative path). */
export function serverArgs(root = '.') {
  return [
    `--max-old-space-size=${String(SERVER_HEAP_MB)}`,
    '--import',
    `${root}/server/tsx.mjs`,
    `${root}/server/src/main.ts`,
  ];
}
