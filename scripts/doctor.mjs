// npm run doctor: what this machine lacks for `npm test` and `npm run dev`, and how to get it, in
// French (docs/testing.md, « A contributor's machine »). Exits 1 when something `npm test` needs
// is missing; a taken port only warns, since the tests choose free ones themselves.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PARTS } from '../shared/parts.mjs';
import { root } from './parts.mjs';
import { portIsFree } from './ports.mjs';

/** @typedef {{ ok: boolean, needed: boolean, label: string, fix?: string }} Check */

/**
 * The Node that npm scripts run: the one `npm ci` puts in node_modules/.bin (package.json,
 * « //pins »), first on their PATH; without it (a machine the pinned packages do not fit), the one
 * that runs this script. npm itself may run on an older Node of the machine.
 * @returns {Check}
 */
function nodeVersion() {
  const wanted = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
  const [, wantedMajor = 0, wantedMinor = 0, below = Infinity] = (
    /^>=(\d+)\.(\d+)(?:\s+<(\d+))?$/.exec(wanted) ?? []
  ).map(Number);
  const pinned = join(root, 'node_modules', '.bin', 'node');
  const found = existsSync(pinned) ? spawnSync(pinned, ['-p', 'process.versions.node'], { encoding: 'utf8' }) : null;
  const version = found === null ? process.versions.node : found.status === 0 ? found.stdout.trim() : '?';
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const ok = major < below && (major > wantedMajor || (major === wantedMajor && minor >= wantedMinor));
  return {
    ok,
    needed: true,
    label: `Node.js ${version} des scripts npm (${found === null ? process.execPath : 'node_modules/.bin/node'} ; ${wanted} attendu)`,
    fix:
      found === null
        ? `lancez « npm ci » à la racine : il installe Node.js ${String(wantedMajor)} dans node_modules/.bin (Linux x64 et arm64) ; ailleurs, installez Node.js ${String(wantedMajor)}`
        : 'lancez « npm ci » à la racine : il réinstalle le Node.js du projet dans node_modules/.bin',
  };
}

/** @returns {Check} */
function dependencies() {
  const ok = existsSync(join(root, 'node_modules', '.bin', 'webpack'));
  return { ok, needed: true, label: 'dépendances npm installées', fix: 'lancez « npm ci » à la racine du projet' };
}

/** @returns {Check} */
function chromium() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const run = existsSync(path) ? spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 }) : null;
  const version = run?.status === 0 ? run.stdout.trim() : null;
  return {
    ok: version !== null,
    needed: true,
    label: version === null ? `Chromium introuvable ou inutilisable (${path})` : `${version} (${path})`,
    fix: 'installez le Chromium de Debian : « sudo apt-get install -y chromium », ou indiquez un autre Chromium avec CHROMIUM_PATH',
  };
}

/**
 * The renderers' sandbox (docs/rendering.md, « The sandbox »): bubblewrap installed and allowed to make
 * its namespaces. The server's own check (server/src/site/render/sandbox.ts, `probeSandbox`) starts
 * Node inside; this one a plain command, which fails the same way.
 * @returns {Check}
 */
function sandbox() {
  const run = spawnSync('bwrap', ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', 'true'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  const missing = run.error !== undefined;
  return {
    ok: run.status === 0,
    needed: true,
    label:
      run.status === 0
        ? 'bubblewrap : les processus de rendu tournent isolés par le système'
        : missing
          ? 'bubblewrap (bwrap) introuvable : les processus de rendu ne peuvent pas être isolés'
          : `bubblewrap ne peut pas créer ses espaces de noms (${run.stderr.trim().split('\n').at(-1) ?? ''})`,
    fix: missing
      ? 'installez-le : « sudo apt-get install -y bubblewrap » ; sans lui, un serveur avec DEPLOY_TOKENS refuse de démarrer'
      : 'autorisez les espaces de noms utilisateur (sysctl kernel.unprivileged_userns_clone=1 ; sur Ubuntu 24.04, un profil AppArmor pour bwrap ou kernel.apparmor_restrict_unprivileged_userns=0)',
  };
}

/**
 * Debian's Icecast, which the timeline's tests start on a port of their own and feed with their source
 * client (docs/deploy.md, « The timeline's segments »).
 * @returns {Check}
 */
function icecast() {
  const path = process.env.ICECAST_PATH ?? '/usr/bin/icecast2';
  const run = existsSync(path) ? spawnSync(path, ['-v'], { encoding: 'utf8', timeout: 20_000 }) : null;
  const version = run?.status === 0 ? run.stdout.trim() : null;
  return {
    ok: version !== null,
    needed: true,
    label: version === null ? `Icecast introuvable ou inutilisable (${path})` : `${version} (${path})`,
    fix: 'installez celui de Debian : « sudo apt-get install -y icecast2 », puis « sudo service icecast2 stop » (les tests lancent le leur), ou indiquez un autre Icecast avec ICECAST_PATH',
  };
}

/** The tests' fonts: the npm package that e2e/fonts/fonts.conf names, read by fontconfig. */
function fonts() {
  /** @type {Check[]} */
  const checks = [];
  const ttf = join(root, 'node_modules', 'dejavu-fonts-ttf', 'ttf', 'DejaVuSans.ttf');
  checks.push({
    ok: existsSync(ttf),
    needed: true,
    label: 'polices des tests (paquet npm dejavu-fonts-ttf)',
    fix: 'lancez « npm ci » : les tests navigateur n’utilisent que les polices du projet',
  });
  const listed = spawnSync('fc-list', ['--format', '%{file}\n'], {
    encoding: 'utf8',
    env: { ...process.env, FONTCONFIG_FILE: join(root, 'e2e', 'fonts', 'fonts.conf') },
  });
  if (listed.error === undefined && listed.status === 0) {
    const files = listed.stdout.split('\n').filter((line) => line !== '');
    const foreign = files.filter((file) => !file.startsWith(join(root, 'node_modules')));
    checks.push({
      ok: files.length > 0 && foreign.length === 0,
      needed: true,
      label:
        foreign.length > 0
          ? `fontconfig voit des polices du système avec e2e/fonts/fonts.conf (${foreign[0] ?? ''})`
          : `fontconfig lit e2e/fonts/fonts.conf : ${String(files.length)} polices du projet, aucune du système`,
      fix: 'vérifiez que e2e/fonts/fonts.conf n’a pas été modifié (git diff e2e/fonts)',
    });
  }
  return checks;
}

/** The ports `npm start` and `npm run dev` listen on, with what moves them. */
async function ports() {
  const site = Number(process.env.PORT ?? 8080);
  const offset = Number(process.env.DEV_PORT_OFFSET ?? 0);
  /** @type {Check[]} */
  const checks = [];
  checks.push({
    ok: await portIsFree(site),
    needed: false,
    label: `port ${String(site)} (le site, npm start et npm run dev)`,
    fix: `un autre programme l'écoute : arrêtez-le, ou choisissez un autre port avec PORT=8081 npm start`,
  });
  const taken = [];
  for (const part of PARTS) if (!(await portIsFree(part.devPort + offset))) taken.push(part.devPort + offset);
  checks.push({
    ok: taken.length === 0,
    needed: false,
    label:
      taken.length === 0
        ? `ports ${String(PARTS[0].devPort + offset)}–${String(PARTS[PARTS.length - 1].devPort + offset)} (serveurs de développement)`
        : `ports de développement déjà pris : ${taken.join(', ')}`,
    fix: 'arrêtez le programme qui les écoute, ou décalez-les tous avec DEV_PORT_OFFSET=100 npm run dev',
  });
  return checks;
}

const checks = [nodeVersion(), dependencies(), chromium(), sandbox(), icecast(), ...fonts(), ...(await ports())];
console.log('Ce qu’il faut pour « npm test » et « npm run dev » :');
for (const check of checks) {
  const mark = check.ok ? '✔' : check.needed ? '✖' : '!';
  console.log(`${mark} ${check.label}${check.ok || check.fix === undefined ? '' : `\n    → ${check.fix}`}`);
}
const missing = checks.filter((check) => !check.ok && check.needed);
console.log(
  missing.length === 0
    ? 'Tout est prêt.'
    : `${String(missing.length)} élément(s) manquant(s) : « npm test » ne peut pas passer sur cette machine.`,
);
process.exit(missing.length === 0 ? 0 : 1);
