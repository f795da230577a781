// npm start: builds what is not built yet and the server, then serves the whole site on one port
// (PORT, 8080) with the built server (no TypeScript loader at run time).
import { spawnSync, spawn } from 'node:child_process';
import { builtServerArgs, localEditorEnv, SERVER_ENV } from './server-command.mjs';
import { root } from './parts.mjs';

// `npm start -- --help`: the settings, with their defaults and an example (docs/settings.md).
if (process.argv.includes('--help')) {
  const help = spawnSync(process.execPath, ['--import', './server/tsx.mjs', 'server/src/settings/cli.ts'], {
    cwd: root,
    stdio: 'inherit',
  });
  process.exit(help.status ?? 1);
}

const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-missing'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
// The server is built every time (a fraction of a second): never an older build than its sources.
const serverBuild = spawnSync(process.execPath, ['server/scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
if (serverBuild.status !== 0) process.exit(serverBuild.status ?? 1);

const server = spawn(process.execPath, builtServerArgs(), {
  cwd: root,
  env: { ...process.env, ...SERVER_ENV, ...localEditorEnv(process.env, process.env.PORT ?? 8080) },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.kill(signal);
  });
}
server.on('exit', (code) => {
  process.exit(code ?? 0);
});
