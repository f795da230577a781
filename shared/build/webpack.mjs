// @ts-check
// The one webpack configuration every part builds with: a part's webpack.config.mjs calls
// `federatedConfig` with its name; its port and exposes come from the registry of parts
// (shared/parts.mjs, docs/parts.md). Shared singletons are declared here, once.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import webpack from 'webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import CssMinimizerPlugin from 'css-minimizer-webpack-plugin';
import { PARTS, REMOTE_PARTS, exposedFile, federationName, urlPrefix } from '../parts.mjs';
import { declaredRoutes, routeFiles } from './pages.mjs';
import { buildLoader } from './loader.mjs';
import { CONTRACT_PACKAGE, PREVIOUS_SHELLS, contractVersion, partInfo, singletonShare } from './contract.mjs';

const require = createRequire(import.meta.url);
const sharedPkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** Versions come from the shared package's own dependencies, so no part can drift. */
function range(name) {
  const version = sharedPkg.dependencies[name];
  if (version === undefined) throw new Error(`shared/package.json does not list ${name}`);
  return version;
}

const singleton = (name) => ({ singleton: true, requiredVersion: range(name) });

/**
 * React Router 7 ships a production build (no development warnings, none of their checks), but its
 * package's exports name only the development one, in the browser and in Node alike (react-router
 * #12532, #14102): a production build (the parts' browser builds, the server containers, the editor
 * app) names the production files itself. `react-router-dom` re-exports these two entries.
 */
const reactRouterDist = join(require.resolve('react-router/package.json'), '..', 'dist', 'production');
export const REACT_ROUTER_PRODUCTION = {
  'react-router$': join(reactRouterDist, 'index.mjs'),
  'react-router/dom$': join(reactRouterDist, 'dom-export.mjs'),
};

/**
 * `experiments.provideExternalRuntime` adds to the shell a runtime plugin that puts the runtime core
 * on the page for the remotes, and names it by its CommonJS file (`require.resolve` in the plugin's
 * package, resolved here the same way). That file requires the CommonJS build of the runtime core
 * (and of its SDK and error codes), while the rest of the runtime imports their ESM builds: the
 * shell's entry carried both, 85 KiB minified of the same code twice (bench/results/federation.md).
 * The shell resolves the plugin to its ESM file instead, which imports the same runtime core as
 * everything else. `node bench/first-load.mjs` counts the copies.
 */
const injectRuntimePluginCjs = createRequire(require.resolve('@module-federation/enhanced/webpack')).resolve(
  '@module-federation/inject-external-runtime-core-plugin',
);
const injectRuntimePluginEsm = injectRuntimePluginCjs.replace(/\.cjs$/, '.js');
if (injectRuntimePluginEsm === injectRuntimePluginCjs || !existsSync(injectRuntimePluginEsm)) {
  throw new Error(`Pas de version ESM de ${injectRuntimePluginCjs} : voir shared/build/webpack.mjs`);
}

/**
 * Shared singletons: one copy each on a page, whichever part provides it first. The router and the
 * Redux libraries are not listed: every part reaches them through @collectif/shared (see
 * shared/src/libraries.ts), so that they are tree-shaken inside its one copy instead of shipped whole.
 * @collectif/shared is shared by its main entry alone, versioned by the contract (contract.mjs): there
 * is no `@collectif/shared/` key, so its other entries, the helpers, are bundled into each part that
 * imports them (docs/parts.md, « Singletons and helpers »).
 * @param {string} version the contract version the part is built against (`contractVersion()`)
 * @param {string} [alsoAccepts] the next major the part is ready for (contract.mjs, `contractRange`)
 */
export function sharedSingletons(version, alsoAccepts) {
  return {
    react: singleton('react'),
    'react/': singleton('react'),
    'react-dom': singleton('react-dom'),
    'react-dom/': singleton('react-dom'),
    [CONTRACT_PACKAGE]: singletonShare(version, alsoAccepts),
  };
}

/**
 * The shell is always the page's first part, so with 'loaded-first' its copies are the ones every
 * remote uses: they go in its entry chunk (eager), which saves a round trip and a dozen requests.
 * @param {ReturnType<typeof sharedSingletons>} shared
 */
const eagerSingletons = (shared) =>
  Object.fromEntries(Object.entries(shared).map(([key, value]) => [key, { ...value, eager: true }]));

/**
 * The commit a part is built from (`git rev-parse --short HEAD`), or null outside a git checkout.
 * @param {string} dir
 * @returns {string | null}
 */
function gitCommit(dir) {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return commit === '' ? null : commit;
  } catch {
    return null;
  }
}

/**
 * How every content-hashed file is named (docs/published.md, « What a page's script cannot forge »):
 * the first 32 hex digits (128 bits) of the SHA-256 of the file as it is emitted (`realContentHash`),
 * so that the service worker checks a file it kept against its name before it answers with it. Any
 * script of the site's origin can write the worker's caches; webpack's default names, 10 hex digits
 * of md4 (40 bits), let it find a forged file that matches a genuine name by brute force. Hex rather
 * than base64url (22 characters, 132 bits): compressed, the pages that name these files came out the
 * same size either way (brotli codes a hex digit in about 4 bits), and hex keeps the names of the
 * site's tests and tools (`[0-9a-f]+`) as they are.
 */
export const CONTENT_HASH = /** @type {const} */ ({ hashFunction: 'sha256', hashDigest: 'hex', hashDigestLength: 32 });

/** A content-hashed file's name (`main.<hash>.js`, `files/x.<hash>.woff2`), its hash captured. */
export const HASHED_FILE = /\.([0-9a-f]{32})\.(?!map$)[a-z0-9]+$/;

/**
 * The digest a content-hashed file's name must carry, by the rule the service worker checks
 * (shell/src/offline/integrity.ts, `matchesName`) and webpack's realContentHash computes: the
 * SHA-256 of its bytes with every occurrence of that very hash taken out (a file that names itself,
 * in the comments pointing at its source map or its licence file, is hashed without those names).
 * @param {Buffer} bytes
 * @param {string} hash
 */
export function contentHashOf(bytes, hash) {
  const own = Buffer.from(bytes.toString('latin1').replaceAll(hash, ''), 'latin1');
  return createHash('sha256').update(own).digest('hex').slice(0, hash.length);
}

/**
 * Makes every content-hashed file's name the digest of its own bytes (`contentHashOf`), and fails
 * the build when one is not: the service worker would never answer such a file from its caches.
 * Two chunks whose style sheets hold the same rules get one contenthash from mini-css-extract (it
 * hashes the rules alone), and realContentHash then names both files from the two together, so that
 * neither name is its own file's digest: each chunk's id is mixed into its hashes first, and every
 * file is named from itself.
 */
export class ContentHashPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { Compilation, WebpackError, util } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('ContentHashPlugin', (compilation) => {
      // After the plugins that make each chunk's content hashes (mini-css-extract, webpack's own).
      compilation.hooks.contentHash.tap({ name: 'ContentHashPlugin', stage: 100 }, (chunk) => {
        const { hashFunction, hashDigest, hashDigestLength } = compilation.outputOptions;
        for (const [type, value] of Object.entries(chunk.contentHash)) {
          const hash = util.createHash(hashFunction ?? CONTENT_HASH.hashFunction);
          hash.update(`${value}|${String(chunk.id)}`);
          chunk.contentHash[type] = /** @type {string} */ (hash.digest(hashDigest ?? 'hex')).slice(
            0,
            hashDigestLength ?? CONTENT_HASH.hashDigestLength,
          );
        }
      });
      compilation.hooks.processAssets.tap(
        { name: 'ContentHashPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          for (const { name, source } of compilation.getAssets()) {
            const hash = HASHED_FILE.exec(name)?.[1];
            if (hash === undefined || contentHashOf(source.buffer(), hash) === hash) continue;
            compilation.errors.push(
              new WebpackError(
                `${name} : son nom n'est pas l'empreinte (SHA-256) de son contenu, que le service worker vérifie avant de le servir depuis son cache : un plugin a-t-il modifié le fichier après que webpack l'a nommé ? (shared/build/webpack.mjs, ContentHashPlugin)`,
              ),
            );
          }
        },
      );
    });
  }
}

/**
 * V8's explicit compile hint, first in the shell's entry (docs/rendering.md, « Work after the
 * paint »): Chromium then compiles all of the file's functions while it streams in, on a background
 * thread, instead of one at a time on the main thread as the page first calls them. The entry's
 * functions are nearly all called at the start (the federation runtime, React DOM, the store, the
 * router), and their compilation was what made its start tasks long: Lighthouse's total blocking
 * time on the home page went from 123–134 ms to 18–77 ms. Written after minification (the minifier
 * would drop the comment) and before the source map.
 */
const compileHints = () =>
  new webpack.BannerPlugin({
    banner: '//# allFunctionsCalledOnLoad',
    raw: true,
    entryOnly: true,
    include: /^main\.[0-9a-f]+\.js$/,
    // After the minifier, before the source map is written (which then counts the line).
    stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1,
  });

/**
 * TypeScript and JSX through swc, for every bundle of the project (the parts, the embeddable player,
 * the reference build of the benchmarks). Always the production JSX runtime: a part in development
 * runs against the others' production React (npm run dev -- <part>), which has no jsx-dev-runtime.
 */
export function scriptRule() {
  return {
    test: /\.[jt]sx?$/,
    exclude: /node_modules/,
    use: {
      loader: require.resolve('swc-loader'),
      options: {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', development: false, refresh: false } },
          target: 'es2022',
        },
      },
    },
  };
}

/**
 * The display face, as every browser bundle emits it: without its hinting, half the bytes
 * (shared/build/unhinted-font.cjs; docs/interface.md, « Typography »).
 */
export function fontRule() {
  return { test: /\.woff2$/, use: require.resolve('./unhinted-font.cjs') };
}

/** Writes a JSON file beside the manifest: a remote's declared pages. */
class JsonAssetPlugin {
  /**
   * @param {string} fileName
   * @param {() => unknown} value read at each compilation, so that the dev server follows edits
   * @param {readonly string[]} [sources] the files it comes from, watched
   */
  constructor(fileName, value, sources = []) {
    this.fileName = fileName;
    this.value = value;
    this.sources = sources;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('JsonAssetPlugin', (compilation) => {
      for (const source of this.sources) compilation.fileDependencies.add(source);
      compilation.hooks.processAssets.tap(
        { name: 'JsonAssetPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          compilation.emitAsset(this.fileName, new sources.RawSource(`${JSON.stringify(this.value(), null, 2)}\n`));
        },
      );
    });
  }
}

/**
 * The pages a remote declares (the `route` its page modules export, docs/parts.md « Pages »),
 * written as `pages.json` beside its manifest, where the site's server reads them at run time. A
 * route that is not a literal fails the build; its fields are checked by the tests
 * (shared/src/pages.test.ts) and by the server.
 * @param {string} dir
 * @param {readonly string[]} exposes
 */
function declaredPagesPlugin(dir, exposes) {
  return [new JsonAssetPlugin('pages.json', () => declaredRoutes(dir, exposes), routeFiles(dir, exposes))];
}

/**
 * The site's fonts are preloaded from the shell's own page (`index.html`, a page the browser renders:
 * `<link rel="preload" as="font">`), so that the heading face downloads with the first scripts
 * instead of once the CSS has been applied. A page rendered on the server asks for it after its first
 * paint instead (docs/interface.md, « Typography »). Every WOFF2 file the shell emits is the display
 * face (see shared/src/styles/fonts.css).
 */
class FontPreloadPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.compilation.tap('FontPreloadPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('FontPreloadPlugin', (data) => {
        const publicPath = compilation.outputOptions.publicPath;
        const base = typeof publicPath === 'string' && publicPath !== 'auto' ? publicPath : '/';
        const fonts = Object.keys(compilation.assets).filter((file) => file.endsWith('.woff2'));
        data.headTags.unshift(
          ...fonts.sort().map((file) => ({
            tagName: 'link',
            voidTag: true,
            meta: { plugin: 'FontPreloadPlugin' },
            attributes: { rel: 'preload', href: `${base}${file}`, as: 'font', type: 'font/woff2', crossorigin: '' },
          })),
        );
        return data;
      });
    });
  }
}

/**
 * What the site's server needs to write a page (docs/rendering.md, « The document »): the entry's
 * scripts and style sheets and its fonts (preloaded by a page the browser renders, cached by the
 * service worker), as addresses, and, for the shell, the loader a page rendered on the server starts
 * with, with its CSP hash (`loader.mjs`). Written as `document.json`, so that the server makes the
 * page with React from data, never by reading built HTML: the shell's pages, and a standalone app's
 * (the editor's, with no loader: `loader: null`).
 */
export class DocumentAssetsPlugin {
  /** @param {{ loader: string | null }} options  the loader's source file, or null for a standalone app */
  constructor({ loader }) {
    this.loader = loader;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('DocumentAssetsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'DocumentAssetsPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          const publicPath = compilation.outputOptions.publicPath;
          const base = typeof publicPath === 'string' && publicPath !== 'auto' ? publicPath : '/';
          const files = [...(compilation.entrypoints.get('main')?.getFiles() ?? [])];
          const assets = {
            scripts: files.filter((file) => file.endsWith('.js')).map((file) => `${base}${file}`),
            styles: files.filter((file) => file.endsWith('.css')).map((file) => `${base}${file}`),
            fonts: Object.keys(compilation.assets)
              .filter((file) => file.endsWith('.woff2'))
              .sort()
              .map((file) => `${base}${file}`),
          };
          if (this.loader === null) {
            compilation.emitAsset('document.json', new sources.RawSource(`${JSON.stringify(assets, null, 2)}\n`));
            return;
          }
          // Built again when it changes, under `npm run dev` too.
          compilation.fileDependencies.add(this.loader);
          const document = {
            loader: buildLoader(this.loader),
            ...assets,
            // This shell reads the table of pages from its file when the page carries none: the
            // server then leaves it out of the documents (docs/rendering.md, « The document »).
            pageTable: 'file',
            // Its loader names the web app manifest once the first screen is shown: the server then
            // leaves its link out of the pages that start with the loader.
            manifest: 'loader',
          };
          compilation.emitAsset('document.json', new sources.RawSource(`${JSON.stringify(document, null, 2)}\n`));
        },
      );
    });
  }
}

/**
 * A part's entry in the registry, and what it exposes as webpack wants it (`./Module` → file).
 * @param {string} name
 */
function registered(name) {
  const part = PARTS.find((p) => p.name === name);
  if (part === undefined) throw new Error(`Partie inconnue « ${name} » : ajoutez-la à shared/parts.mjs`);
  const modules = /** @type {readonly string[]} */ (part.exposes);
  return {
    part,
    modules,
    exposes: Object.fromEntries(modules.map((module) => [`./${module}`, exposedFile(module)])),
  };
}

/** Where a part's server container is, inside its dist/ (`server/remoteEntry.js`). */
export const SERVER_CONTAINER_DIR = 'server';

/**
 * What a server container takes from the renderer instead of carrying its own copy, as the browser's
 * remotes take them from the shell: React, React DOM and the shared package (with its `config` and
 * `server` entries), singletons of the share scope (`import: false`: never bundled), one copy in a
 * renderer as in a page (docs/rendering.md, « Server containers »).
 * @param {string} version
 * @param {string | undefined} alsoAccepts
 */
function serverShared(version, alsoAccepts) {
  const browser = sharedSingletons(version, alsoAccepts);
  const contract = browser[CONTRACT_PACKAGE];
  return Object.fromEntries(
    Object.entries({
      ...browser,
      [`${CONTRACT_PACKAGE}/config`]: contract,
      [`${CONTRACT_PACKAGE}/server`]: contract,
    }).map(([key, value]) => [key, { ...value, import: false }]),
  );
}

/**
 * A part's server container (docs/rendering.md, « Server containers »): the same federation
 * container as the browser's, compiled for Node into one CommonJS file, `dist/server/remoteEntry.js`
 * (with its manifest), beside the browser's and deployed with it. A remote exposes its modules as in
 * the browser; the shell exposes `./server` (its `src/server.tsx`). The site's renderers load it with
 * the federation runtime, as the browser loads a remote, and again when it changes.
 * @param {{ name: string, dir: string, exposes: Record<string, string>, version: string, alsoAccepts?: string }} options
 * @returns {import('webpack').Configuration}
 */
function serverContainerConfig({ name, dir, exposes, version, alsoAccepts }) {
  return {
    name: `${name}-server`,
    mode: 'production',
    target: 'async-node',
    context: dir,
    entry: {},
    devtool: false,
    output: {
      path: join(dir, 'dist', SERVER_CONTAINER_DIR),
      filename: '[name].js',
      // Its modules are found by webpack's own names, never by the browser build's.
      uniqueName: `${federationName(name)}_server`,
      // Its manifest names the file; nothing is fetched from a public path (one file, read whole).
      publicPath: '',
      clean: true,
    },
    resolve: { extensions: ['.tsx', '.ts', '.js', '.json'], alias: REACT_ROUTER_PRODUCTION },
    module: {
      rules: [scriptRule(), { test: /\.css$/, loader: require.resolve('./ignore-style.cjs') }],
    },
    plugins: [
      new ModuleFederationPlugin({
        name: federationName(name),
        filename: 'remoteEntry.js',
        library: { type: 'commonjs-module' },
        exposes,
        shared: serverShared(version, alsoAccepts),
        dts: false,
        manifest: { fileName: 'mf-manifest.json' },
      }),
      // One file: a renderer reads and evaluates it whole, from disk or over HTTP.
      new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
    ],
    // Readable stack traces in the server's log; the file is never sent to a visitor's browser to run.
    optimization: { minimize: false, moduleIds: 'deterministic' },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

/**
 * A part's webpack dev server (`npm run dev`, docs/parts.md, « Development »). It listens on the
 * loopback only, with its host and origin checks on. The site's server serves it through its own
 * port under `/_dev/<folder>/` (server/src/site/dev.ts), so that a page opened at any host name
 * (localhost, 127.0.0.1, the machine's name for a phone on the network) loads every part from its
 * own origin: this server answers at that prefix as at its root, and its hot-reload socket is
 * announced on the page's own host and port, at the same path whichever way the page was opened.
 * `npm run dev` chooses the ports: DEV_SERVER_PORT for this server, SITE_PORT for the site's.
 * @param {{ name: string, folder: string, devPort: number }} part
 * @returns {import('webpack-dev-server').Configuration}
 */
function devServer(part) {
  const prefix = `/_dev/${part.folder}`;
  const sitePort = Number(process.env.SITE_PORT ?? 8080);
  return {
    host: '127.0.0.1',
    port: Number(process.env.DEV_SERVER_PORT ?? part.devPort),
    historyApiFallback: true,
    hot: true,
    headers: { 'Access-Control-Allow-Origin': '*' },
    client: { webSocketURL: { hostname: '0.0.0.0', port: 0, pathname: `${prefix}/ws` } },
    webSocketServer: { type: 'ws', options: { path: `${prefix}/ws` } },
    setupMiddlewares: (middlewares) => [
      {
        name: 'site-prefix',
        middleware: (
          /** @type {{ url?: string }} */ request,
          /** @type {unknown} */ _response,
          /** @type {() => void} */ next,
        ) => {
          if (request.url?.startsWith(`${prefix}/`) === true) request.url = request.url.slice(prefix.length);
          next();
        },
      },
      ...middlewares,
    ],
    // Everything that is not this part comes from the site server (API, images, built remotes, the
    // remotes in development).
    proxy: [
      {
        context: [
          '/api',
          '/assets',
          '/remotes.json',
          ...REMOTE_PARTS.map((p) => urlPrefix(p).slice(0, -1)),
          ...REMOTE_PARTS.filter((p) => p.name !== part.name).map((p) => `/_dev/${p.folder}`),
          '/embed',
        ],
        target: `http://127.0.0.1:${String(sitePort)}`,
      },
    ],
  };
}

/**
 * A part's pages as an app of their own, with no federation: `folder` of the part's `dist/`, where
 * the site's server serves it (`/<part folder>/<folder>/`), and `entry` in its source. Its document is
 * written by the server from the build's `document.json` (docs/content.md, « The editor app »).
 * @typedef {{ folder: string, entry: string }} StandaloneApp
 */

/**
 * A part's pages as an app of their own (docs/content.md, « The editor app »: mf-admin's editor, on
 * the editor's origin): one HTML document and its files, from the part's own source, with React and
 * the shared package bundled in, and no federation (no remote entry, no shell, no other part's code).
 * Built into `dist/<folder>/` beside the remote and deployed with it. Its files are named, compiled,
 * minified and split as the part's browser build's are: its output's names and hashing, its rules,
 * its optimization and its style sheets' names are read from that build, so that a change there
 * applies here too; its entry is named as the build's chunks are (content-hashed: the document,
 * always revalidated, names it). The build lists them in `document.json`, from
 * `/<part folder>/<folder>/` where the server serves that folder; the server writes the document
 * from that list, as every page (no inline script or style: a CSP of `'self'` alone), with what the
 * app needs of the site as data.
 * @param {import('webpack').Configuration} browser  the part's browser build
 * @param {{ part: { name: string, folder: string }, dir: string, app: StandaloneApp }} options
 * @returns {import('webpack').Configuration}
 */
export function standaloneAppConfig(browser, { part, dir, app }) {
  const output = browser.output ?? {};
  const hashing = Object.fromEntries(
    /** @type {const} */ (['hashFunction', 'hashDigest', 'hashDigestLength', 'hashSalt'])
      .filter((key) => output[key] !== undefined)
      .map((key) => [key, output[key]]),
  );
  const sheets = browser.plugins?.find((plugin) => plugin instanceof MiniCssExtractPlugin);
  if (!(sheets instanceof MiniCssExtractPlugin)) throw new Error(`${part.name} : pas de MiniCssExtractPlugin à imiter`);
  return {
    name: `${part.name}-${app.folder}`,
    mode: browser.mode,
    context: dir,
    entry: { main: app.entry },
    devtool: browser.devtool,
    output: {
      path: join(dir, 'dist', app.folder),
      // The document is served at the app's own addresses (`/admin`, `/admin/invitation`): its files
      // are named from the root.
      publicPath: `${urlPrefix(part)}${app.folder}/`,
      filename: output.chunkFilename,
      chunkFilename: output.chunkFilename,
      assetModuleFilename: output.assetModuleFilename,
      ...hashing,
      uniqueName: `${federationName(part.name)}_${app.folder}`,
      clean: true,
    },
    resolve: browser.resolve,
    module: browser.module,
    plugins: [
      new MiniCssExtractPlugin({ filename: sheets.options.filename, chunkFilename: sheets.options.chunkFilename }),
      new DocumentAssetsPlugin({ loader: null }),
    ],
    optimization: browser.optimization,
    performance: { hints: false },
    stats: browser.stats,
  };
}

/**
 * @param {{
 *   name: import('../src/remotes').PartName,
 *   dir: string,
 *   html?: boolean,
 *   alsoAccepts?: string,
 *   app?: StandaloneApp,
 * }} options `alsoAccepts`: another major's shells a remote runs under; by default the previous
 *   major's (PREVIOUS_SHELLS) for a remote of the current contract. A remote whose code is ready for
 *   the contract's next major says so (`'^3.0.0'`) before the shell moves to it (docs/parts.md, « The contract's versions »). `app`:
 *   its pages also built as an app of their own, in production (`standaloneAppConfig`).
 */
export function federatedConfig({ name, dir, html = false, alsoAccepts, app }) {
  const { part, modules, exposes } = registered(name);
  if (alsoAccepts !== undefined && part.name === 'shell') {
    throw new Error('Le shell fournit une version exacte du contrat : alsoAccepts ne vaut que pour un remote');
  }
  const serverExposes = part.name === 'shell' ? { './server': './src/server.tsx' } : exposes;
  const version = contractVersion();
  // A remote of the current contract also accepts the previous major's shells (PREVIOUS_SHELLS); a
  // build told another version by CONTRACT_VERSION claims that version's range alone.
  const claimsAnother = (process.env.CONTRACT_VERSION ?? '') !== '';
  const accepted = alsoAccepts ?? (part.name === 'shell' || claimsAnother ? undefined : PREVIOUS_SHELLS);
  const commit = gitCommit(dir);
  /** @returns {import('webpack').Configuration[]} */
  return (env, argv) => {
    const production = argv.mode !== 'development';
    const isHost = part.name === 'shell';
    // The dev server serves the browser bundle only; pages render in the browser there.
    const withServer = production && Object.keys(serverExposes).length > 0 && env?.WEBPACK_SERVE !== true;
    const withApp = production && app !== undefined && env?.WEBPACK_SERVE !== true;
    // The folders of dist/ that other builds of the part write, beside this one: not this build's to remove.
    const kept = [...(withServer ? [SERVER_CONTAINER_DIR] : []), ...(withApp && app !== undefined ? [app.folder] : [])];
    const configs = [
      {
        mode: production ? 'production' : 'development',
        context: dir,
        entry: { main: './src/index.ts' },
        // No eval in development either: the site's CSP forbids it.
        devtool: production ? 'source-map' : 'cheap-module-source-map',
        output: {
          path: join(dir, 'dist'),
          // The shell's index.html is served at every route, so its assets are addressed from the root;
          // a remote finds its own chunks beside its remoteEntry.js wherever it is hosted.
          publicPath: isHost ? '/' : 'auto',
          // A remote's entry keeps a stable name (the remote map and the federation runtime find it by that
          // name) and is revalidated; every other file is content-hashed and immutable, the shell's entry
          // included (index.html, always revalidated, names it).
          filename: isHost && production ? '[name].[contenthash].js' : '[name].js',
          chunkFilename: production ? '[name].[contenthash].js' : '[name].js',
          // Not assets/: on the site that path is the generated images' (served from shared/assets).
          assetModuleFilename: 'files/[name].[contenthash][ext]',
          // 32 hex digits of SHA-256, the worker's check (CONTENT_HASH).
          ...CONTENT_HASH,
          uniqueName: federationName(name),
          // The server container, built beside this one into dist/server/, is not this build's to remove.
          clean:
            kept.length > 0
              ? { keep: (/** @type {string} */ file) => kept.some((folder) => file.startsWith(`${folder}/`)) }
              : true,
        },
        resolve: {
          extensions: ['.tsx', '.ts', '.js', '.json'],
          // One copy of the federation runtime in the shell (see injectRuntimePluginCjs).
          alias: {
            ...(isHost ? { [`${injectRuntimePluginCjs}$`]: injectRuntimePluginEsm } : {}),
            ...(production ? REACT_ROUTER_PRODUCTION : {}),
          },
        },
        module: {
          rules: [
            scriptRule(),
            fontRule(),
            { test: /\.css$/, use: [MiniCssExtractPlugin.loader, require.resolve('css-loader')] },
          ],
        },
        plugins: [
          new ModuleFederationPlugin({
            name: federationName(name),
            filename: 'remoteEntry.js',
            ...(isHost ? {} : { exposes }),
            shared: isHost ? eagerSingletons(sharedSingletons(version)) : sharedSingletons(version, accepted),
            shareStrategy: 'loaded-first',
            dts: false,
            manifest: { fileName: 'mf-manifest.json' },
            // The host ships the federation runtime once; built remotes use the host's copy. A remote's
            // dev server keeps its own, so that its pages can be shown alone.
            // `target: 'web'` leaves out the runtime's Node.js code.
            experiments: isHost
              ? { provideExternalRuntime: true, optimization: { target: 'web' } }
              : production
                ? { externalRuntime: true, optimization: { target: 'web', disableRemote: true } }
                : {},
          }),
          ...(isHost ? [] : declaredPagesPlugin(dir, modules)),
          // What the deploy reads of the built part (contract.mjs, `partInfo`).
          new JsonAssetPlugin('part.json', () =>
            partInfo({ name: part.name, isHost, version, alsoAccepts: accepted, builtAt: new Date(), commit }),
          ),
          new MiniCssExtractPlugin({
            filename: production ? '[name].[contenthash].css' : '[name].css',
            chunkFilename: production ? '[name].[contenthash].css' : '[name].css',
          }),
          ...(html && (isHost || !production)
            ? [
                new HtmlWebpackPlugin({
                  template: './src/index.html',
                  chunks: ['main'],
                  scriptLoading: 'defer',
                  minify: production,
                }),
                new FontPreloadPlugin(),
              ]
            : []),
          ...(isHost ? [new DocumentAssetsPlugin({ loader: join(dir, 'src', 'boot', 'loader.ts') })] : []),
          ...(isHost && production ? [compileHints()] : []),
          ...(production ? [new ContentHashPlugin()] : []),
        ],
        optimization: {
          moduleIds: 'deterministic',
          chunkIds: production ? 'deterministic' : 'named',
          // Names made from the files as emitted (CONTENT_HASH); webpack's default in production, said
          // here because the service worker's check depends on it.
          realContentHash: production,
          // Style sheets minified too ('...' keeps webpack's own script minifier): a rendered page
          // carries its sheets in its HTML (docs/first-screen.md, « Styles in the page »), and the home
          // page's HTML was 16 KB compressed, over the first round trip's 14 KB.
          ...(production
            ? { minimizer: ['...', new CssMinimizerPlugin({ minify: CssMinimizerPlugin.esbuildMinify })] }
            : {}),
        },
        performance: { hints: false },
        stats: production ? 'errors-warnings' : 'minimal',
        devServer: devServer(part),
      },
      ...(withServer
        ? [serverContainerConfig({ name, dir, exposes: serverExposes, version, alsoAccepts: accepted })]
        : []),
    ];
    const [browser, ...others] = configs;
    if (!withApp || app === undefined || browser === undefined) return configs;
    return [browser, standaloneAppConfig(browser, { part, dir, app }), ...others];
  };
}
