// The reference build for the benchmarks: the same source pages as one ordinary single-page
// bundle (no federation, tree-shaken libraries, lazy page chunks). Served by a second instance of
// the real server with DIST_ROOT=bench/reference/root, so the API and images are the same.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import webpack from 'webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import { DocumentAssetsPlugin, fontRule, scriptRule } from '../../shared/build/webpack.mjs';

const require = createRequire(import.meta.url);
const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');

export default {
  mode: 'production',
  context: root,
  entry: { main: './shell/src/bootstrap.tsx' },
  output: {
    path: join(here, 'root', 'shell', 'dist'),
    publicPath: '/',
    filename: '[name].[contenthash:10].js',
    chunkFilename: '[name].[contenthash:10].js',
    clean: true,
  },
  resolve: { extensions: ['.tsx', '.ts', '.js', '.json'] },
  module: {
    // The stand-in for the remote loader must keep up with the shell's imports: a missing export fails the build.
    parser: { javascript: { exportsPresence: 'error' } },
    rules: [
      scriptRule(),
      fontRule(),
      { test: /\.css$/, use: [MiniCssExtractPlugin.loader, require.resolve('css-loader')] },
    ],
  },
  plugins: [
    // Matched on the resolved file, so that every import of the remote loader is replaced (the shell
    // imports it as './federation/remotes' and './remotes'): no federation runtime in this bundle.
    new webpack.NormalModuleReplacementPlugin(/shell[\\/]src[\\/]federation[\\/]remotes\.ts$/, (result) => {
      const data = result.createData;
      if (data === undefined || data.resource === undefined) return;
      const replacement = join(here, 'local-remotes.ts');
      for (const key of ['request', 'userRequest']) {
        if (typeof data[key] === 'string') data[key] = data[key].replace(data.resource, replacement);
      }
      data.resource = replacement;
      // Its own imports resolve from its own folder.
      data.context = here;
    }),
    new MiniCssExtractPlugin({ filename: '[name].[contenthash:10].css', chunkFilename: '[name].[contenthash:10].css' }),
    new HtmlWebpackPlugin({ template: './shell/src/index.html', scriptLoading: 'defer', minify: true }),
    // The server writes every page from document.json (docs/rendering.md, « The document »), the
    // reference's as the shell's.
    new DocumentAssetsPlugin(),
  ],
  optimization: { moduleIds: 'deterministic' },
  performance: { hints: false },
  stats: 'errors-warnings',
};
