import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import webpack from 'webpack';
import { federatedConfig, scriptRule } from '@collectif/shared/build/webpack.mjs';

const dir = fileURLToPath(new URL('.', import.meta.url));

/** Files of embed/ that the server shows as they are, at /embed/<name> (the demo partner page). */
const EMBED_STATIC = ['demo.html', 'demo.css'];

class CopyEmbedStatic {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('CopyEmbedStatic', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'CopyEmbedStatic', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          for (const name of EMBED_STATIC) {
            const path = join(dir, 'embed', name);
            compilation.fileDependencies.add(path);
            compilation.emitAsset(name, new webpack.sources.RawSource(readFileSync(path)));
          }
        },
      );
    });
  }
}

const PREACT_FOR_REACT = {
  'react/jsx-runtime$': 'preact/jsx-runtime',
  'react/jsx-dev-runtime$': 'preact/jsx-runtime',
  'react-dom/client$': 'preact/compat/client',
  'react-dom/test-utils$': 'preact/test-utils',
  'react-dom$': 'preact/compat',
  react$: 'preact/compat',
};

/** A loader that makes any file an empty module. */
const EMPTY_LOADER = join(dir, 'scripts', 'empty-loader.cjs');

/**
 * The player for partner sites: an ordinary bundle of the same player code with its own React and
 * store, a stable entry name (/embed/collectif-player.js), hashed lazy chunks (hls.js), and its CSS
 * read as text and adopted by the player's shadow root.
 */
export function embedConfig(_env, argv) {
  const production = argv.mode !== 'development';
  return {
    name: 'player-embed',
    mode: production ? 'production' : 'development',
    context: dir,
    entry: { 'collectif-player': './src/embed/index.ts', demo: './src/embed/demo.ts' },
    devtool: production ? 'source-map' : 'cheap-module-source-map',
    output: {
      path: join(dir, 'dist-embed'),
      // Chunks are found beside the entry script, wherever a partner page loads it from.
      publicPath: 'auto',
      filename: '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
      uniqueName: 'collectif_player_embed',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.json'],
      // The player's React code runs on Preact's React layer here: a partner page downloads about
      // 4 KiB of it instead of React's 60 (docs/embed.md, « The partner script »).
      alias: PREACT_FOR_REACT,
    },
    module: {
      rules: [
        scriptRule(),
        {
          test: /\.css$/,
          oneOf: [
            // The player's view and its bar import their style sheets for the site's build; here the
            // first script carries the sheets as text, so their own imports are nothing.
            { issuer: /Player(View|Bar)\.tsx$/, type: 'javascript/auto', loader: EMPTY_LOADER },
            { type: 'asset/source' },
          ],
        },
      ],
    },
    plugins: [new CopyEmbedStatic()],
    optimization: { moduleIds: 'deterministic', chunkIds: production ? 'deterministic' : 'named' },
    performance: { hints: false },
    stats: production ? 'errors-warnings' : 'minimal',
  };
}

const federated = federatedConfig({
  name: 'player', // its exposed modules and dev port: shared/parts.mjs
  dir,
  html: true,
});

/**
 * The federated remote and the embeddable player (scripts/build.mjs builds both); the dev server
 * (`webpack serve`) serves the remote alone.
 */
export default (env = {}, argv = {}) =>
  env.WEBPACK_SERVE === true ? federated(env, argv) : [...federated(env, argv), embedConfig(env, argv)];
