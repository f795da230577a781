// npm run dev                → every part's dev server (hot reload) behind the site server.
// npm run dev -- radio label → only those parts from source; the others from their built dist/.
// Open http://localhost:8080, http://127.0.0.1:8080 or the machine's address on the network (a
// phone): the remotes in development are served through the site's own port (docs/parts.md,
// « Development »). The shell in development is at http://localhost:3000.
// PORT moves the site (8080); DEV_PORT_OFFSET moves every dev server (3000 + offset, …).
import { spawn, spawnSync } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { localEditorEnv, serverArgs } from './server-command.mjs';
import { parts, root } from './parts.mjs';

const named = process.argv.slice(2);
const unknown = named.filter((n) => !parts.some((p) => p.name === n));
if (unknown.length > 0) {
  console.error(`Partie inconnue : ${unknown.join(', ')} (attendu : ${parts.map((p) => p.name).join(', ')})`);
  process.exit(2);
}
const live = parts.filter((p) => named.length === 0 || named.includes(p.name));
const sitePort = Number(process.env.PORT ?? 8080);
const offset = Number(process.env.DEV_PORT_OFFSET ?? 0);
if (!Number.isInteger(sitePort) || !Number.isInteger(offset)) {
  console.error('PORT et DEV_PORT_OFFSET doivent être des nombres entiers.');
  process.exit(2);
}
const devPort = (part) => part.devPort + offset;

// What is not in dev is served from its build: build what is missing.
const built = spawnSync(process.execPath, ['scripts/build.mjs', '--if-missing'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

// The remotes' dev servers, reached by the site's server on the loopback (server/src/site/dev.ts).
const devRemotes = Object.fromEntries(
  live.filter((p) => p.name !== 'shell').map((p) => [p.name, `http://127.0.0.1:${String(devPort(p))}`]),
);

const children = [
  spawn(process.execPath, serverArgs(), {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PORT: String(sitePort),
      ...localEditorEnv(process.env, sitePort),
      DEV_REMOTES: JSON.stringify(devRemotes),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    },
  }),
  ...live.map((p) =>
    spawn(join(root, 'node_modules', '.bin', 'webpack'), ['serve', '--mode', 'development'], {
      cwd: p.dir,
      stdio: 'inherit',
      env: { ...process.env, DEV_SERVER_PORT: String(devPort(p)), SITE_PORT: String(sitePort) },
    }),
  ),
];

const network = Object.values(networkInterfaces())
  .flat()
  .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
console.log(
  [
    `Développement : ${live.map((p) => `${p.name} (:${String(devPort(p))})`).join(', ')}`,
    `Site : http://localhost:${String(sitePort)}/${network === undefined ? '' : ` ou, depuis un téléphone du même réseau, http://${network}:${String(sitePort)}/`}`,
    `Éditeur : ${localEditorEnv(process.env, sitePort).EDITOR_ORIGIN ?? process.env.EDITOR_ORIGIN ?? `http://localhost:${String(sitePort)}`}/admin`,
  ].join('\n'),
);

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// One of them stopping (a port already taken, a build that cannot start) stops the others.
for (const child of children) {
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) {
      console.error(`Un processus de développement s'est arrêté (code ${String(code)}) : arrêt de tous.`);
      for (const other of children) other.kill('SIGTERM');
      process.exit(code);
    }
  });
}
