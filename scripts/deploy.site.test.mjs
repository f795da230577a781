// npm run deploy against the real site: the server's app (buildApp) with teams' deploys on
// (DEPLOY_TOKENS, DEPLOY_ROOT), listening on a loopback port, and a small part that passes its
// checks. What a team sees: live, refused, rolled back, listed; and the exit statuses.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pagesJson, serverContainer } from '@collectif/shared/testing';
import { REMOTE_PARTS } from '../shared/parts.mjs';
import { buildApp } from '../server/src/app/app';
import { readSiteServerConfig } from '../server/src/settings/config';
import { testConfig } from '../server/src/api/testing/fixtures';
import { SHELL, documentJson, writeUnder } from '../server/src/site/render/fixtures';
import { EXIT, runDeploy } from './deploy.mjs';

const TOKEN = 'jeton-equipe-label-0123456789abcdef';
const OTHER_TEAM = 'jeton-equipe-radio-0123456789abcdef';
const CONTRACT = '2.5.0';
const script = fileURLToPath(new URL('./deploy.mjs', import.meta.url));

/** @type {string[]} */
const temporary = [];
/** @param {string} prefix */
const tempDir = (prefix) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};

/** The built parts the server starts with: a shell and a player that render, the remotes' pages. */
function siteDist() {
  const dir = tempDir('deploy-site-dist-');
  writeUnder(dir, 'shell/dist/document.json', documentJson());
  writeUnder(dir, 'shell/dist/server/remoteEntry.js', serverContainer(SHELL));
  writeUnder(dir, 'shell/dist/mf-manifest.json', JSON.stringify({ name: 'collectif_shell' }));
  writeUnder(
    dir,
    'shell/dist/part.json',
    JSON.stringify({ name: 'shell', contract: CONTRACT, builtAt: '2025-06-01T08:00:00.000Z', commit: null }),
  );
  writeUnder(
    dir,
    'mf-player/dist/server/remoteEntry.js',
    serverContainer(
      "exports.modules = { Player: () => require('react').createElement('button', { type: 'button' }, 'Écouter le direct') };",
    ),
  );
  for (const { folder } of REMOTE_PARTS) {
    writeUnder(dir, `${folder}/dist/mf-manifest.json`, '{}');
  }
  // Every remote's pages but the player's (it has none).
  for (const { folder } of REMOTE_PARTS.filter((part) => part.name !== 'player'))
    writeUnder(dir, `${folder}/dist/pages.json`, pagesJson(folder));
  return dir;
}

/**
 * A team's repository with mf-label built: what its build writes, small (its record, manifest,
 * remote entry, pages and a server bundle whose page renders `title`).
 * @param {string} title
 * @param {string} [contract]
 */
function labelBuild(title, contract = `^${CONTRACT}`) {
  const root = tempDir('deploy-team-');
  const dist = 'mf-label/dist';
  writeUnder(
    root,
    `${dist}/part.json`,
    JSON.stringify({ name: 'label', contract, builtAt: '2025-06-02T09:00:00.000Z', commit: 'abc1234' }),
  );
  writeUnder(
    root,
    `${dist}/mf-manifest.json`,
    JSON.stringify({ name: 'collectif_label', metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' } } }),
  );
  writeUnder(root, `${dist}/remoteEntry.js`, 'var collectif_label;');
  writeUnder(root, `${dist}/pages.json`, pagesJson('mf-label'));
  writeUnder(
    root,
    `${dist}/server/remoteEntry.js`,
    serverContainer(`const h = require('react').createElement;
exports.modules = { LabelPage: () => h('section', null, h('h1', null, ${JSON.stringify(title)})) };`),
  );
  return root;
}

/** @type {import('fastify').FastifyInstance} */
let app;
let site = '';

beforeAll(async () => {
  const settings = readSiteServerConfig({
    DIST_ROOT: siteDist(),
    ASSETS_DIR: tempDir('deploy-site-assets-'),
    SITE_ORIGIN: 'https://radio.example.org',
    RENDERERS: '1',
    DEPLOY_TOKENS: `label:${TOKEN},radio:${OTHER_TEAM}`,
    EDITOR_ORIGIN: 'https://edition.radio.example.org',
    DEPLOY_ROOT: tempDir('deploy-site-root-'),
  });
  app = await buildApp({ site: settings, api: testConfig() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  site = `http://127.0.0.1:${String(typeof address === 'object' && address !== null ? address.port : 0)}`;
}, 60_000);

afterAll(async () => {
  await app.close();
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * The command as a team runs it, its lines kept.
 * @param {string[]} args
 * @param {{ token?: string, distRoot?: string }} [options]
 */
async function deploy(args, { token = TOKEN, distRoot } = {}) {
  /** @type {string[]} */
  const out = [];
  /** @type {string[]} */
  const err = [];
  const status = await runDeploy([...args, '--site', site], {
    env: { DEPLOY_TOKEN: token },
    output: { out: (line) => out.push(line), err: (line) => err.push(line) },
    build: () => {
      throw new Error('--no-build: nothing is built');
    },
    distRoot,
  });
  const said = [...out, ...err].join('\n');
  if (token !== '') expect(said).not.toContain(token);
  return { status, out, err, said };
}

/** The page a visitor gets from the label's address. */
async function labelPage() {
  const response = await fetch(`${site}/label`);
  return response.text();
}

/**
 * The script itself, as `npm run deploy` starts it (in a process of its own: this one serves the site).
 * @param {string[]} args
 * @param {string} token
 * @returns {Promise<{ status: number | null, said: string }>}
 */
function runScript(args, token) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args, '--site', site],
      { encoding: 'utf8', env: { ...process.env, DEPLOY_TOKEN: token } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ status: code, said: `${stdout}${stderr}` });
      },
    );
  });
}

describe('npm run deploy against the site', () => {
  let first = '';

  it('puts a part live: exit 0, the site’s message, the version and the address', async () => {
    const { status, out, err } = await deploy(['label', '--no-build'], {
      distRoot: labelBuild('Sorties du label, v1'),
    });
    expect(err).toEqual([]);
    expect(status).toBe(EXIT.ok);
    expect(out[0]).toMatch(new RegExp(`^Envoi de label à ${site}/ : 5 fichiers, `));
    expect(out[1]).toMatch(/^✔ « label » est en ligne : version /);
    first = /Version : (\S+)/.exec(out.join('\n'))?.[1] ?? '';
    expect(first).not.toBe('');
    expect(out[3]).toBe(`  Adresse : ${site}/mf-label/mf-manifest.json`);
    expect(await labelPage()).toContain('Sorties du label, v1');
  });

  it('refuses a wrong token and another team’s: exit 1, the reason and what to do', async () => {
    const wrong = await deploy(['mf-label', '--no-build'], {
      token: 'pas-le-bon-jeton-0123456789abcdef',
      distRoot: labelBuild('Jamais en ligne'),
    });
    expect(wrong.status).toBe(EXIT.refused);
    expect(wrong.err).toEqual([
      '✖ Refusé (HTTP 401, unknown_token) : Jeton de déploiement inconnu',
      '  → vérifiez DEPLOY_TOKEN, ou demandez le jeton de votre équipe aux admins',
    ]);
    const other = await deploy(['label', '--no-build'], { token: OTHER_TEAM, distRoot: labelBuild('Jamais en ligne') });
    expect(other.status).toBe(EXIT.refused);
    expect(other.err[0]).toBe('✖ Refusé (HTTP 403, other_part) : Ce jeton déploie radio, pas « label »');
    expect(await labelPage()).toContain('Sorties du label, v1');
  });

  it('refuses a part built for a contract the live shell does not provide, saying what to deploy first', async () => {
    const { status, err } = await deploy(['label', '--no-build'], {
      distRoot: labelBuild('Jamais en ligne', '^2.6.0'),
    });
    expect(status).toBe(EXIT.refused);
    expect(err).toEqual([
      '✖ Refusé (HTTP 422, refused) : construit pour le contrat 2.6, le shell en ligne fournit 2.5',
      "  → déployez d'abord le shell",
    ]);
    expect(await labelPage()).toContain('Sorties du label, v1');
  });

  it('rolls back to the version live before', async () => {
    const second = await deploy(['label', '--no-build'], { distRoot: labelBuild('Sorties du label, v2') });
    expect(second.status).toBe(EXIT.ok);
    expect(await labelPage()).toContain('Sorties du label, v2');
    const { status, out } = await deploy(['label', '--rollback']);
    expect(status).toBe(EXIT.ok);
    expect(out).toEqual([
      `Retour à la version précédente de label sur ${site}/…`,
      `✔ « label » est revenu à la version ${first}`,
      `  Version : ${first}`,
      `  Adresse : ${site}/mf-label/mf-manifest.json`,
    ]);
    expect(await labelPage()).toContain('Sorties du label, v1');
  });

  it('lists every part’s live version, with no token', async () => {
    const { status, out } = await deploy(['--status'], { token: '' });
    expect(status).toBe(EXIT.ok);
    expect(out[0]).toBe(`Parties en ligne sur ${site}/ :`);
    const label = out.find((line) => line.startsWith('  label '));
    expect(label).toMatch(
      new RegExp(`^  label   ${first} — en ligne depuis le .*, par équipe label, commit abc1234, contrat \\^2\\.5\\.0`),
    );
    expect(out.find((line) => line.startsWith('  shell '))).toMatch(
      /livrée avec le serveur, pas déployée.*contrat 2\.5\.0/,
    );
    expect(out.some((line) => line.includes('dernier refus') && line.includes('construit pour le contrat 2.6'))).toBe(
      true,
    );
  });

  it('run as a script: exit statuses, and the token never printed', async () => {
    const status = await runScript(['--status'], '');
    expect(status.status).toBe(EXIT.ok);
    expect(status.said).toContain(`Parties en ligne sur ${site}/ :`);
    const wrong = await runScript(['label', '--rollback'], 'pas-le-bon-jeton-0123456789abcdef');
    expect(wrong.status).toBe(EXIT.refused);
    expect(wrong.said).toContain('✖ Refusé (HTTP 401, unknown_token) : Jeton de déploiement inconnu');
    expect(wrong.said).not.toContain('pas-le-bon-jeton');
    const missing = await runScript(['label', '--rollback'], '');
    expect(missing.status).toBe(EXIT.local);
    expect(missing.said).toContain("DEPLOY_TOKEN n'est pas défini");
  });
});
