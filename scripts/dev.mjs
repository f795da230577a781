// npm run dev                → every part's dev server (hot reload) behind the site server.
// npm run dev -- radio label → only those parts from source; the others from their built dist/.
// Open http://localhost:8080 (or http://localhost:3000 when the shell itself is in dev).
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parts, root } from './parts.mjs';

const named = process.argv.slice(2);
const unknown = named.filter((n) => !parts.some((p) => p.name === n));
if (unknown.length > 0) {
  console.error(`Partie inconnue : ${unknown.join(', ')} (attendu : ${parts.map((p) => p.name).join(', ')})`);
  process.exit(2);
}
const live = parts.filter((p) => named.length === 0 || named.includes(p.name));

// What is not in dev is served from its build: build what is missing.
const built = spawnSync(process.execPath, ['scripts/build.mjs', '--if-missing'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const remotes = Object.fromEntries(
  live.filter((p) => p.name !== 'shell').map((p) => [p.name, `http://localhost:${String(p.devPort)}/mf-manifest.json`]),
);

const children = [
  spawn(process.execPath, ['--import', './server/tsx.mjs', 'server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, REMOTES_CONFIG: JSON.stringify(remotes), LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  }),
  ...live.map((p) =>
    spawn(join(root, 'node_modules', '.bin', 'webpack'), ['serve', '--mode', 'development'], {
      cwd: p.dir,
      stdio: 'inherit',
    }),
  ),
];

console.log(
  `Développement : ${live.map((p) => `${p.name} (:${String(p.devPort)})`).join(', ')} ; site sur http://localhost:8080`,
);

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
