// @ts-check
// Builds one part for production into another folder, as `node scripts/build.mjs <part>` builds it
// into its dist/ (the browser bundle there, the server bundle in its server/ folder), for the browser
// tests that serve a site from a copy of the built parts (e2e/tests/contract.spec.ts). The part's
// own dist/ is left alone. The environment is the build's: CONTRACT_VERSION, for one, makes the part
// claim another contract version (shared/build/contract.mjs).
//   node e2e/build-part.mjs <folder> <out>
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import webpack from 'webpack';

const [folder, out] = process.argv.slice(2);
if (folder === undefined || out === undefined) {
  console.error('Usage : node e2e/build-part.mjs <dossier de la partie> <dossier de sortie>');
  process.exit(2);
}
const root = join(import.meta.dirname, '..');
const { default: factory } = await import(pathToFileURL(join(root, folder, 'webpack.config.mjs')).href);
/** @type {import('webpack').Configuration[]} */
const configs = [factory({}, { mode: 'production' })].flat();
const [browser, server] = configs;
if (browser?.output === undefined || server?.output === undefined) {
  console.error(`${folder} : une configuration pour le navigateur et une pour le serveur attendues`);
  process.exit(1);
}
browser.output.path = resolve(out);
server.output.path = join(resolve(out), 'server');

webpack([browser, server], (error, stats) => {
  if (error) {
    console.error(error);
    process.exit(1);
  }
  if (stats?.hasErrors()) {
    console.error(stats.toString({ colors: false, preset: 'errors-only' }));
    process.exit(1);
  }
});
