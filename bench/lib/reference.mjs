// The benchmarks' reference: the same source pages as one ordinary non-federated bundle
// (bench/reference/webpack.config.mjs), laid out as a DIST_ROOT for the real server.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from '../../scripts/precompress.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The DIST_ROOT the reference's server is started with. */
export const referenceRoot = join(root, 'bench', 'reference', 'root');

/** Builds the reference for production and writes its pre-compressed files. */
export function buildReference() {
  console.log('▶ construction de référence (sans fédération)');
  const r = spawnSync(join(root, 'node_modules', '.bin', 'webpack'), ['-c', 'bench/reference/webpack.config.mjs'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('construction de référence (sans fédération) a échoué');
  precompress(join(referenceRoot, 'shell', 'dist'));
}

/**
 * The reference has no remotes' builds: the pages they declare (written by their build beside their
 * manifest) are given to its server as they are.
 */
export function layOutReference() {
  for (const part of ['mf-radio', 'mf-label', 'mf-about']) {
    const dist = join(referenceRoot, part, 'dist');
    mkdirSync(dist, { recursive: true });
    copyFileSync(join(root, part, 'dist', 'pages.json'), join(dist, 'pages.json'));
  }
}
