import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import CssMinimizerPlugin from 'css-minimizer-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import { InjectManifest } from 'workbox-webpack-plugin';
import {
  CONTENT_HASH,
  ContentHashPlugin,
  federatedConfig,
  HASHED_FILE,
  scriptRule,
} from '@collectif/shared/build/webpack.mjs';

const require = createRequire(import.meta.url);
const dir = fileURLToPath(new URL('.', import.meta.url));
const shell = federatedConfig({ name: 'shell', dir, html: true });

/** The page's colour (--color-bg of the tokens), as the manifest and the pages give it. */
function pageColour() {
  const css = readFileSync(require.resolve('@collectif/shared/styles/tokens.css'), 'utf8');
  return /--color-bg:\s*(#[\da-f]{3,8})\s*;/i.exec(css)?.[1] ?? '#000000';
}

/**
 * The shell's files every page loads (its entry's scripts and its fonts, as `document.json` names
 * them for the server), added to the worker's precache list. Their names carry their hash: fetched
 * through the HTTP cache, where the first visit has just put them, so precaching them costs no
 * download. The styles are left out: a page carries them in its HTML.
 * @param {{ url: string, revision: string | null, size: number }[]} entries
 */
function withShellFiles(entries) {
  /** @type {{ scripts: string[], fonts: string[] }} */
  const document = JSON.parse(readFileSync(join(dir, 'dist', 'document.json'), 'utf8'));
  const shellFiles = [...document.scripts, ...document.fonts].map((url) => ({ url, revision: null, size: 0 }));
  return { manifest: [...entries, ...shellFiles], warnings: [] };
}

/**
 * Each precached file's SHA-256, as a subresource integrity (`sha256-…`), written into the worker's
 * own script with its precache list (docs/published.md, « What a page's script cannot forge »): a
 * page's script can write the precache, never the worker's script, so the worker answers a precached
 * file only when its bytes have this digest, the offline page's included, whose name carries no hash.
 * Workbox also fetches each file with it. The offline page's files are this compilation's; the
 * shell's, written by its own compilation just before, are read from dist/.
 * @param {{ url: string, revision: string | null, size: number }[]} entries
 * @param {import('webpack').Compilation} [compilation]
 */
function withIntegrity(entries, compilation) {
  const manifest = entries.map((entry) => {
    const name = entry.url.replace(/^\//, '');
    const bytes = compilation?.getAsset(name)?.source.buffer() ?? readFileSync(join(dir, 'dist', name));
    return { ...entry, integrity: `sha256-${createHash('sha256').update(bytes).digest('base64')}` };
  });
  return { manifest, warnings: [] };
}

/**
 * The offline page and the service worker (docs/published.md, « Installable »), built after the
 * shell's browser bundle into the same dist/: `hors-ligne.html` with its script and style sheet, and
 * `sw.js`, compiled by Workbox's InjectManifest from src/offline/service-worker.ts with its precache
 * list. Not a federated bundle: the offline page runs alone, without the network.
 * @returns {import('webpack').Configuration}
 */
function offlineConfig() {
  const site = JSON.parse(readFileSync(join(dir, '..', 'shared', 'config', 'site.json'), 'utf8'));
  return {
    name: 'shell-offline',
    dependencies: ['shell'],
    mode: 'production',
    context: dir,
    entry: { offline: './src/offline/page/offline.ts' },
    devtool: 'source-map',
    output: {
      path: join(dir, 'dist'),
      publicPath: '/',
      filename: '[name].[contenthash].js',
      // The shell's bundle, just written, stays.
      clean: false,
      // Named as every part's files, which the worker checks (shared/build/webpack.mjs, CONTENT_HASH).
      ...CONTENT_HASH,
    },
    resolve: { extensions: ['.ts', '.js', '.json'] },
    module: {
      rules: [
        scriptRule(),
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, require.resolve('css-loader')] },
        // The page takes two helpers of the shared package; nothing else of it (its store, React).
        { include: join(dir, '..', 'shared', 'src'), exclude: /\.css$/, sideEffects: false },
        { test: /[\\/]node_modules[\\/]react[\\/]/, sideEffects: false },
      ],
    },
    plugins: [
      new MiniCssExtractPlugin({ filename: '[name].[contenthash].css' }),
      new HtmlWebpackPlugin({
        template: './src/offline/page/offline.html',
        filename: 'hors-ligne.html',
        chunks: ['offline'],
        scriptLoading: 'defer',
        minify: true,
        templateParameters: { siteName: site.name, themeColor: pageColour() },
      }),
      new InjectManifest({
        swSrc: './src/offline/service-worker.ts',
        swDest: 'sw.js',
        include: [/^hors-ligne\.html$/, /^offline\.[0-9a-f]{32}\.(?:js|css)$/],
        dontCacheBustURLsMatching: HASHED_FILE,
        manifestTransforms: [withShellFiles, withIntegrity],
      }),
      new ContentHashPlugin(),
    ],
    optimization: {
      minimizer: ['...', new CssMinimizerPlugin({ minify: CssMinimizerPlugin.esbuildMinify })],
      realContentHash: true,
    },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

/** The shell's bundles; in production, the offline page and the service worker after them. */
export default (env, argv) => {
  const configs = shell(env, argv);
  if (argv.mode === 'development' || env?.WEBPACK_SERVE === true) return configs;
  const [browser, ...rest] = configs;
  return [{ ...browser, name: 'shell' }, ...rest, offlineConfig()];
};
