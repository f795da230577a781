// Builds the site for production: checks the content files, generates the demo assets, then
// compiles the server (server/dist/) and every part (or only those named, `server` among them, or
// only those not built yet with --if-missing).
//   node scripts/build.mjs [--if-missing] [part ...]   (names: shared/parts.mjs, and server)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import webpack from 'webpack';
import { checkAllContent, writeContentSchemas } from '../shared/build/content.mjs';
import { parts, root } from './parts.mjs';
import { generateAssets } from './generate-assets.mjs';
import { precompress } from './precompress.mjs';
import { buildServer, SERVER_DIST } from '../server/scripts/build.mjs';

const args = process.argv.slice(2);
const ifMissing = args.includes('--if-missing');
const named = args.filter((a) => !a.startsWith('--'));

// The JSON Schemas editors read beside the content files, written from the site's schemas.
for (const file of writeContentSchemas(root)) console.log(`Schéma écrit : ${file}`);
const problems = checkAllContent(root);
if (problems.length > 0) {
  for (const p of problems) console.error(p);
  process.exit(1);
}

await generateAssets();

if ((named.length === 0 || named.includes('server')) && (!ifMissing || !existsSync(join(SERVER_DIST, 'main.js')))) {
  await buildServer();
}

const selected = parts.filter(
  (p) =>
    (named.length === 0 || named.includes(p.name)) &&
    (!ifMissing || !existsSync(join(p.dir, 'dist', 'mf-manifest.json'))),
);
if (selected.length === 0) process.exit(0);

const configs = [];
for (const part of selected) {
  const { default: factory } = await import(pathToFileURL(join(part.dir, 'webpack.config.mjs')).href);
  // A part may build more than one bundle (the player also builds its embeddable script).
  configs.push(...[factory({}, { mode: 'production' })].flat());
}

const started = Date.now();
webpack(configs, (error, stats) => {
  if (error) {
    console.error(error);
    process.exit(1);
  }
  const info = stats?.toString({ colors: false, preset: 'errors-warnings' }) ?? '';
  if (info.trim()) console.log(info);
  if (stats?.hasErrors()) process.exit(1);
  for (const part of selected) {
    for (const out of ['dist', 'dist-embed']) if (existsSync(join(part.dir, out))) precompress(join(part.dir, out));
  }
  console.log(
    `Construit : ${selected.map((p) => p.name).join(', ')} en ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
});
