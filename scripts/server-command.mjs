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

/**
 * The main thread's young generation: each of its semi-spaces, in MB (`--max-semi-space-size`). Left
 * to itself, Node 24's V8 kept 128 MB for the young generation of a 256 MB heap, most of it empty
 * between collections. Measured on one 2-core machine (`node bench/memory.mjs`, PSS): the server
 * started 110 MB lighter with 8, and rendered pages as fast (bench/results/memory-69.md: uncached
 * 1.00×, cached 0.97×, within the runs' own spread).
 */
export const SERVER_SEMI_SPACE_MB = 8;

/**
 * The server's environment beyond the site's settings, wherever it is started (npm start, the
 * systemd unit, the deployment tests, the benches). glibc's malloc in two arenas rather than eight per
 * core: each thread of the process (its worker threads, V8's) may take an arena of its own and keep
 * what it freed there. Measured on one 2-core machine, three runs each of `node bench/memory.mjs`:
 * the server 184 to 186 MB at rest rather than 197 to 202, and 195 to 206 at most rather than 221
 * to 226 during 100 redeploys (docs/rendering.md, « Memory »). The renderers are not given it: their environment is an
 * allow-list, and their memory does not grow.
 */
export const SERVER_ENV = Object.freeze({ MALLOC_ARENA_MAX: '2' });

/**
 * Node's flags of every start of the server, sources or built (npm start, npm run dev, the browser
 * tests, the deployment tests, the benches, the systemd unit): the heap's cap, its young generation,
 * `--expose-gc`, with which the server gives its garbage back once quiet (server/src/app/rest.ts,
 * docs/rendering.md « Memory »), and `--disable-sigusr1`. Without it a SIGUSR1 sent to the process, by
 * anyone allowed to signal it, opens Node's inspector on 127.0.0.1:9229, from which any code runs
 * inside the server, with every secret of its environment (docs/deploy.md, « The server, built »). Node 20 refuses the flag: the
 * server runs on the project's Node 24 (package.json, « //pins »).
 */
export const SERVER_FLAGS = Object.freeze([
  `--max-old-space-size=${String(SERVER_HEAP_MB)}`,
  `--max-semi-space-size=${String(SERVER_SEMI_SPACE_MB)}`,
  '--disable-sigusr1',
  '--expose-gc',
]);

/**
 * Node's arguments that start the server from its sources, through the TypeScript loader, from the
 * repository's root (or `root`, a relative path): `npm run dev` and the browser tests.
 */
export function serverArgs(root = '.') {
  return [...SERVER_FLAGS, '--import', `${root}/server/tsx.mjs`, `${root}/server/src/main.ts`];
}

/**
 * Node's arguments that start the built server (`server/dist/main.js`, made by
 * `node server/scripts/build.mjs` in a fraction of a second): `npm start`, a deployment, the benches.
 * No TypeScript loader at run time: measured at rest on one machine, the server's process took 193 MB
 * built and 316 MB through tsx, which also ran three esbuild processes (56 MB more).
 */
export function builtServerArgs(root = '.') {
  return [...SERVER_FLAGS, `${root}/server/dist/main.js`];
}

/**
 * The editor's own origin for a site on this machine (docs/content.md, « The editor's origin »):
 * `http://edition.localhost:<port>`, which Chromium resolves to the loopback and whose cookies are
 * not the public host's, unless EDITOR_ORIGIN or SITE_ORIGIN says otherwise (a real deployment
 * sets both).
 * @param {NodeJS.ProcessEnv} env
 * @param {number | string} port
 * @returns {Record<string, string>}
 */
export function localEditorEnv(env, port) {
  if (env.EDITOR_ORIGIN !== undefined || env.SITE_ORIGIN !== undefined) return {};
  return { EDITOR_ORIGIN: `http://edition.localhost:${String(port)}` };
}
