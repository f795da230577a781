// @ts-check
// The browser tests' server (playwright.config.ts, `webServer`) with folders of its own: its content
// (CONTENT_DIR: the versions the editor saves, proposals, « Me prévenir »'s subscriptions, the
// audience's figures) and the live's timeline (LIVE_TIMESHIFT_DIR), in one folder made under the
// system's temporary folder when it starts and removed once the server has exited. `npm start` keeps
// its content in server/.content, on a contributor's machine: a test run never writes there
// (docs/testing.md, « Hermetic browser tests »).
//   node web-server.mjs <the server's Node arguments…>
// Playwright stops it with SIGTERM to its process group (`gracefulShutdown`): the server closes,
// then this removes its folder.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';

const repository = realpathSync(join(import.meta.dirname, '..'));
// The folder the run gave (playwright.config.ts, E2E_SERVER_FOLDER: the specs that add to the
// server's content, an invitation by `npm run admin`, write there too), else one of its own.
const folder = process.env.E2E_SERVER_FOLDER ?? mkdtempSync(join(tmpdir(), 'collectif-e2e-serveur-'));
mkdirSync(folder, { recursive: true });
const env = { ...process.env, CONTENT_DIR: join(folder, 'contenu'), LIVE_TIMESHIFT_DIR: join(folder, 'direct') };

// A temporary folder inside the checkout (TMPDIR pointed there) would be the repository's tree again.
const inside = relative(repository, realpathSync(folder));
if (inside === '' || !(inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside))) {
  rmSync(folder, { recursive: true, force: true });
  console.error(
    `Le serveur des tests navigateur écrirait son contenu dans le dépôt (${inside}) : le dossier temporaire (TMPDIR) doit être hors du dépôt.`,
  );
  process.exit(1);
}
for (const dir of [env.CONTENT_DIR, env.LIVE_TIMESHIFT_DIR]) mkdirSync(dir);

const server = spawn(process.execPath, process.argv.slice(2), { stdio: 'inherit', env });
// Passed on to the server (which may have had it already, with the group: it closes once).
for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT', 'SIGHUP'])) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code) => {
  rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  process.exit(code ?? 1);
});
