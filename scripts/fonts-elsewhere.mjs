// npm run test:fonts: proves that the screenshot baselines do not depend on the machine's fonts
// (docs/testing.md, « Hermetic browser tests »). Runs the screenshot and fonts tests with Debian's
// Noto fonts installed (what many desktops have), then without them, against the built site; the
// baselines must pass both times, unchanged. Needs root and apt-get (a Debian machine or CI); the
// fonts package is removed again only if this script installed it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './parts.mjs';

const PACKAGE = 'fonts-noto-core';
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive', CI: process.env.CI ?? '1' };

function installed() {
  return spawnSync('dpkg-query', ['-W', '-f=${Status}', PACKAGE], { encoding: 'utf8' }).stdout.includes(
    'install ok installed',
  );
}

function apt(args) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} a échoué`);
}

function systemFonts() {
  const listed = spawnSync('fc-list', ['--format', '%{family[0]}\n'], { encoding: 'utf8' });
  return new Set(listed.stdout.split('\n').filter((line) => line !== '')).size;
}

function visualTests(label) {
  console.log(`\n▶ ${label} : ${String(systemFonts())} familles de polices sur le système`);
  const result = spawnSync(
    join(root, 'node_modules', '.bin', 'playwright'),
    ['test', '-c', 'e2e/playwright.config.ts', 'tests/visual.spec.ts', 'tests/hermetic.spec.ts'],
    { cwd: root, stdio: 'inherit', env },
  );
  return result.status === 0;
}

if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
  console.error('npm run test:fonts installe et retire un paquet de polices Debian : lancez-le en root sur Debian.');
  process.exit(2);
}
if (!existsSync(join(root, 'shell', 'dist', 'index.html'))) {
  console.error('Le site n’est pas construit : lancez « npm run build » d’abord.');
  process.exit(2);
}

const wasInstalled = installed();
const results = [];
try {
  if (!wasInstalled) {
    apt(['update', '-qq']);
    apt(['install', '-y', '-qq', PACKAGE]);
  }
  results.push(['avec les polices Noto du système', visualTests('Avec fonts-noto-core')]);
  apt(['remove', '-y', '-qq', PACKAGE]);
  results.push(['sans elles', visualTests('Sans fonts-noto-core')]);
} finally {
  if (wasInstalled && !installed()) apt(['install', '-y', '-qq', PACKAGE]);
  if (!wasInstalled && installed()) apt(['remove', '-y', '-qq', PACKAGE]);
}
for (const [label, ok] of results) console.log(`${ok ? '✔' : '✖'} captures d'écran ${label}`);
process.exit(results.every(([, ok]) => ok) ? 0 : 1);
