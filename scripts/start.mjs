// npm start: builds what is not built yet, then serves the whole site on one port (PORT, 8080).
import { spawnSync, spawn } from 'node:child_process';
import { serverArgs } from './server-command.mjs';
import { root } from './parts.mjs';

// `npm start -- --help`: the settings, with their defaults and an example (docs/settings.md).
if (process.argv.includes('--help')) {
  const help = spawnSync(process.execPath, ['--import', './server/tsx.mjs', 'server/src/settings-cli.ts'], {
    cwd: root,
    stdio: 'inherit',
  });
  process.exit(help.status ?? 1);
}

const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-missing'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn(process.execPath, serverArgs(), {
  cwd: root,
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
