// What the player part adds to every page's first visit (docs/player.md, « Weight » lines): its
// entry (remoteEntry.js), its manifest and the files of its exposed `Player` module that load at
// once (the manifest's sync assets), each compressed as the server sends it (brotli at its best),
// and its lazy chunks by name. Give two built `mf-player/dist` folders to compare a change:
//   node bench/player-weight.mjs [--dist=mf-player/dist] [--before=DIR]
// (after `npm run build -- player`; build the commit before into another folder for --before).
// Nothing is written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { arg } from './lib/cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The first visit's files of the player built in `dir`, with their sizes, and its lazy chunks. */
function measure(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'mf-manifest.json'), 'utf8'));
  const player = manifest.exposes.find((exposed) => exposed.name === 'Player');
  if (player === undefined) throw new Error(`pas de module Player exposé dans ${dir}`);
  const size = (name) => {
    const body = readFileSync(join(dir, name));
    return {
      name,
      raw: body.length,
      brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      gzip: gzipSync(body, { level: 9 }).length,
    };
  };
  const first = ['remoteEntry.js', 'mf-manifest.json', ...player.assets.js.sync, ...player.assets.css.sync].map(size);
  const lazy = [...player.assets.js.async, ...player.assets.css.async].map(size);
  const total = (files, key) => files.reduce((sum, file) => sum + file[key], 0);
  return { first, lazy, brotli: total(first, 'brotli'), gzip: total(first, 'gzip'), raw: total(first, 'raw') };
}

function print(label, result) {
  console.log(
    `${label} : première visite ${String(result.brotli)} o brotli, ${String(result.gzip)} o gzip, ${String(result.raw)} o`,
  );
  for (const file of result.first) console.log(`  ${String(file.brotli).padStart(6)} ${file.name}`);
  console.log('  à la demande :');
  for (const file of result.lazy) console.log(`  ${String(file.brotli).padStart(6)} ${file.name}`);
}

const after = measure(arg('dist', join(root, 'mf-player', 'dist')));
print('après', after);
const beforeDir = arg('before', '');
if (beforeDir !== '') {
  const before = measure(beforeDir);
  print('avant', before);
  console.log(
    `différence : ${String(after.brotli - before.brotli)} o brotli, ${String(after.gzip - before.gzip)} o gzip, ${String(after.raw - before.raw)} o`,
  );
}
