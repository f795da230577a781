// Builds the site's server for production (docs/deploy.md, « The server, built »): its TypeScript and
// the shared package's, bundled by esbuild into server/dist/ (server.js, the renderer processes'
// entry, and the feed and schedule threads), the npm packages left as they are in node_modules. A
// deployment runs `node server/dist/main.js`, which sets NODE_ENV and loads server.js: no TypeScript
// loader at run time.
//   node server/scripts/build.mjs
import { copyFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const server = fileURLToPath(new URL('..', import.meta.url));
export const SERVER_DIST = join(server, 'dist');

/** npm packages stay in node_modules; the workspace's own (TypeScript) packages are compiled in. */
const packagesOutside = {
  name: 'packages-outside',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@collectif/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** What every bundle of the server is built with. */
const options = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // The shared package's components use React's automatic JSX runtime, as every part does.
  jsx: 'automatic',
  sourcemap: true,
  // A CommonJS module of the workspace compiled in (shared/build/safe-html.cjs) requires its npm
  // packages, which stay outside: an ES module has no `require` of its own.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  plugins: [packagesOutside],
  logLevel: 'warning',
};

/** `server/dist/main.js`: what `node server/dist/main.js` runs (see `buildServer`). */
export const MAIN_ENTRY = `// The built server's entry (server/scripts/build.mjs): React and the libraries read NODE_ENV when
// they load, so it is set before the bundle's first import.
process.env.NODE_ENV ??= 'production';
await import('./server.js');
`;

/** The renderer processes' entry (docs/rendering.md, « Renderers »). */
const RENDERER_ENTRY = join(server, 'src', 'site', 'render', 'renderer.ts');

/**
 * The renderer alone, for a server run from its TypeScript: a renderer runs under Node's permission
 * model, which allows no TypeScript loader (tsx needs a thread), so it always runs JavaScript.
 * Written to `outfile` whole or not at all.
 */
export async function buildRenderer(outfile) {
  const temporary = `${outfile}.${String(process.pid)}.mjs`;
  // Its source map beside it, unnamed in the code (the renderer reads no file but its code): the
  // page's way is measured through it (server/src/site/render/way.test.ts, docs/rendering.md).
  await build({ ...options, sourcemap: 'external', entryPoints: [RENDERER_ENTRY], outfile: temporary });
  renameSync(`${temporary}.map`, `${outfile}.map`);
  renameSync(temporary, outfile);
}

export async function buildServer() {
  const started = Date.now();
  rmSync(SERVER_DIST, { recursive: true, force: true });
  mkdirSync(SERVER_DIST, { recursive: true });
  await build({
    ...options,
    entryPoints: {
      server: join(server, 'src', 'main.ts'),
      renderer: RENDERER_ENTRY,
      'feed-worker': join(server, 'src', 'api', 'upstream', 'feed-worker.ts'),
      'schedule-worker': join(server, 'src', 'schedule', 'schedule-worker.ts'),
    },
    outdir: SERVER_DIST,
  });
  // ES modules, said so (Node would otherwise parse each file twice, and warn).
  writeFileSync(join(SERVER_DIST, 'package.json'), `${JSON.stringify({ type: 'module' }, null, 2)}\n`);
  // The entry sets NODE_ENV before any module loads, then loads the bundle. In one bundle, the npm
  // packages' imports are hoisted above main.ts's own first line (app/production.ts): React loaded
  // its development build, and the server wrote every page's document with it.
  writeFileSync(join(SERVER_DIST, 'main.js'), MAIN_ENTRY);
  // The threads' one entry, beside the bundle that starts them: it loads the built worker found there
  // (server/src/threads/threads.ts).
  copyFileSync(join(server, 'src', 'threads', 'thread.mjs'), join(SERVER_DIST, 'thread.mjs'));
  console.log(`Construit : server (server/dist/main.js) en ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `--renderer <file>`: the renderer alone (a server run from its TypeScript asks for it).
  const renderer = process.argv.indexOf('--renderer');
  if (renderer === -1) await buildServer();
  else await buildRenderer(process.argv[renderer + 1]);
}
