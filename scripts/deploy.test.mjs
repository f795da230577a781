// npm run deploy: its arguments, what it says for each answer of the site, and the archive it packs.
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import * as tar from 'tar';
import {
  DeployError,
  EXIT,
  describeAnswer,
  describeStatus,
  findPart,
  packDist,
  parseDeployArgs,
  readToken,
  runDeploy,
} from './deploy.mjs';
import { unpackArchive } from '../server/src/deploy/archive';

const TOKEN = 'jeton-de-test-label-0123456789';
const SITE = new URL('https://collectif.example.org/');
const label = /** @type {NonNullable<ReturnType<typeof findPart>>} */ (findPart('label'));

/** @type {string[]} */
const temporary = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A part's dist/ as a build leaves it, in a repository-like folder of its own. */
function fixtureRoot() {
  const root = mkdtempSync(join(tmpdir(), 'deploy-command-'));
  temporary.push(root);
  const dist = join(root, 'mf-label', 'dist');
  mkdirSync(join(dist, 'server'), { recursive: true });
  mkdirSync(join(dist, 'static', 'js'), { recursive: true });
  writeFileSync(join(dist, 'mf-manifest.json'), '{"id":"collectif_label"}');
  writeFileSync(join(dist, 'remoteEntry.js'), 'var collectif_label;');
  writeFileSync(join(dist, 'pages.json'), '[]');
  writeFileSync(join(dist, 'part.json'), '{"part":"label"}');
  writeFileSync(join(dist, 'server', 'remoteEntry.js'), 'module.exports = {};');
  writeFileSync(join(dist, 'static', 'js', 'main.0123abcd.js'), 'console.log(1);'.repeat(500));
  return { root, dist };
}

/**
 * Every entry of a gzipped tar: path, type and content.
 * @param {Buffer} archive
 */
async function entriesOf(archive) {
  /** @type {{ path: string, type: string, text: string }[]} */
  const entries = [];
  const parser = new tar.Parser({
    onReadEntry: (entry) => {
      /** @type {Buffer[]} */
      const chunks = [];
      entry.on('data', (chunk) => chunks.push(chunk));
      entry.on('end', () =>
        entries.push({ path: entry.path, type: entry.type, text: Buffer.concat(chunks).toString() }),
      );
    },
  });
  await new Promise((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
    parser.end(archive);
  });
  return entries;
}

/** What the command printed, line by line. */
function capture() {
  /** @type {string[]} */
  const out = [];
  /** @type {string[]} */
  const err = [];
  return { out, err, output: { out: (/** @type {string} */ line) => out.push(line), err: (line) => err.push(line) } };
}

/**
 * A fetch that answers as the site would, and keeps what it was asked.
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
function siteAnswering(status, body, headers = {}) {
  /** @type {{ url: string, init: RequestInit }[]} */
  const calls = [];
  /** @type {typeof fetch} */
  const fetchImpl = async (url, init = {}) => {
    calls.push({ url: String(url), init });
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(text, { status, headers: { 'content-type': 'application/json', ...headers } });
  };
  return { calls, fetch: fetchImpl };
}

describe('the arguments', () => {
  it('deploys a part named by its name or its folder, built unless --no-build', () => {
    expect(parseDeployArgs(['label', '--site', 'https://collectif.example.org'])).toEqual({
      action: 'deploy',
      part: label,
      site: SITE,
      build: true,
    });
    const command = parseDeployArgs(['mf-label', '--no-build', '--site', 'https://collectif.example.org/']);
    expect(command).toMatchObject({ action: 'deploy', part: { name: 'label' }, build: false });
  });

  it('rolls back, or lists the parts without naming one', () => {
    expect(parseDeployArgs(['radio', '--rollback', '--site', 'http://127.0.0.1:8080'])).toMatchObject({
      action: 'rollback',
      part: { name: 'radio' },
      site: new URL('http://127.0.0.1:8080/'),
    });
    expect(parseDeployArgs(['--status', '--site', 'https://collectif.example.org'])).toEqual({
      action: 'status',
      part: null,
      site: SITE,
    });
    expect(parseDeployArgs(['--help'])).toBe('help');
  });

  it('keeps a site under a path, and calls the API under it', async () => {
    const command = parseDeployArgs(['--status', '--site', 'https://example.org/collectif']);
    expect(command !== 'help' && command.site.href).toBe('https://example.org/collectif/');
    const site = siteAnswering(200, { parts: [] });
    await runDeploy(['--status', '--site', 'https://example.org/collectif'], {
      fetch: site.fetch,
      output: capture().output,
    });
    expect(site.calls[0]?.url).toBe('https://example.org/collectif/api/parts');
  });

  it.each([
    [['radios', '--site', 'https://x.org'], 'Partie inconnue : « radios »'],
    [['label'], '--site manque'],
    [['label', '--site', 'ftp://x.org'], "n'est pas une adresse http ou https"],
    [['label', '--site', 'http://collectif.example.org'], 'votre jeton y passerait en clair'],
    [['label', '--rollback', '--site', 'http://192.168.1.20:8080'], 'votre jeton y passerait en clair'],
    [['label', '--site', 'x'], "« x » n'est pas une adresse"],
    [['label', '--site'], "--site attend l'adresse du site"],
    [['label', '--site', 'https://x.org', '--force'], 'Option inconnue : --force'],
    [['label', 'radio', '--site', 'https://x.org'], 'Une seule partie à la fois'],
    [['--site', 'https://x.org'], 'Quelle partie déployer ?'],
    [['label', '--rollback', '--status', '--site', 'https://x.org'], 'ne vont pas ensemble'],
    [['label', '--rollback', '--no-build', '--site', 'https://x.org'], "--no-build ne sert qu'à un déploiement"],
  ])('refuses %j in French: %s', (args, message) => {
    expect(() => parseDeployArgs(args)).toThrow(DeployError);
    expect(() => parseDeployArgs(args)).toThrow(message);
  });

  it('sends a token over http to this machine only; the status, which sends none, anywhere', () => {
    for (const site of ['http://127.0.0.1:8080', 'http://localhost:8080', 'http://[::1]:8080']) {
      expect(parseDeployArgs(['label', '--site', site])).toMatchObject({ action: 'deploy' });
    }
    expect(parseDeployArgs(['--status', '--site', 'http://collectif.example.org'])).toMatchObject({
      action: 'status',
    });
  });

  it('needs DEPLOY_TOKEN, and never repeats it', () => {
    expect(() => readToken({})).toThrow("DEPLOY_TOKEN n'est pas défini");
    expect(() => readToken({ DEPLOY_TOKEN: '  ' })).toThrow("DEPLOY_TOKEN n'est pas défini");
    const bad = 'secret avec espace-0123456789';
    expect(() => readToken({ DEPLOY_TOKEN: bad })).toThrow('DEPLOY_TOKEN contient des espaces');
    try {
      readToken({ DEPLOY_TOKEN: bad });
    } catch (error) {
      expect(String(error)).not.toContain('secret');
    }
    expect(readToken({ DEPLOY_TOKEN: ` ${TOKEN}\n` })).toBe(TOKEN);
  });
});

describe('what the command says', () => {
  /**
   * @param {number} status
   * @param {Record<string, unknown> | null} body
   * @param {string | null} [retryAfter]
   */
  const answer = (status, body, retryAfter = null) => ({
    status,
    body,
    retryAfter,
    url: 'https://collectif.example.org/api/parts/label',
  });

  it('live: the site’s message, the version and where the part is', () => {
    const said = describeAnswer(
      answer(200, { part: 'label', version: '2025-06-01T10-00-00-000Z-a1b2c3', message: 'label est en ligne.' }),
      label,
      SITE,
    );
    expect(said).toEqual({
      exit: EXIT.ok,
      out: [
        '✔ label est en ligne.',
        '  Version : 2025-06-01T10-00-00-000Z-a1b2c3',
        '  Adresse : https://collectif.example.org/mf-label/mf-manifest.json',
      ],
      err: [],
    });
    const shell = /** @type {NonNullable<ReturnType<typeof findPart>>} */ (findPart('shell'));
    expect(describeAnswer(answer(200, { version: 'v2', message: 'ok' }), shell, SITE).out[2]).toBe(
      '  Adresse : https://collectif.example.org/',
    );
  });

  it('refused by the checks: the reason and the advice as the site wrote them', () => {
    const said = describeAnswer(
      answer(422, {
        error: 'contract',
        message: 'construit pour le contrat 2.4, le shell en ligne fournit 2.3',
        advice: "déployez d'abord le shell",
      }),
      label,
      SITE,
    );
    expect(said.exit).toBe(EXIT.refused);
    expect(said.err).toEqual([
      '✖ Refusé (HTTP 422, contract) : construit pour le contrat 2.4, le shell en ligne fournit 2.3',
      "  → déployez d'abord le shell",
    ]);
  });

  it.each([
    [401, 'Vérifiez DEPLOY_TOKEN'],
    [403, 'Ce jeton ne déploie pas label'],
    [404, 'Les déploiements ne sont pas activés sur ce site'],
    [413, 'Allégez dist/'],
    [503, 'Erreur du site'],
  ])('refused with %i and no advice: says what to do', (status, advice) => {
    const said = describeAnswer(answer(status, { error: 'x', message: 'Refusé.' }), label, SITE);
    expect(said.exit).toBe(status >= 500 ? EXIT.unreachable : EXIT.refused);
    expect(said.err[0]).toBe(`✖ Refusé (HTTP ${String(status)}, x) : Refusé.`);
    expect(said.err[1]).toContain(advice);
  });

  it('too many attempts: when to try again', () => {
    const said = describeAnswer(
      answer(429, { error: 'rate_limited', message: 'Trop de tentatives.' }, '60'),
      label,
      SITE,
    );
    expect(said.err).toEqual(['✖ Refusé (HTTP 429, rate_limited) : Trop de tentatives.', '  → Réessayez dans 60 s.']);
  });

  it('an answer that is not the site’s JSON: says so, with the address', () => {
    const said = describeAnswer(answer(502, null), label, SITE);
    expect(said.exit).toBe(EXIT.unreachable);
    expect(said.err[0]).toBe(
      "✖ Réponse inattendue de https://collectif.example.org/api/parts/label (HTTP 502, pas du JSON) : est-ce bien l'adresse du site ?",
    );
  });

  it('--status: each part’s live version, or none, and its last refusal', () => {
    const said = describeStatus(
      {
        status: 200,
        retryAfter: null,
        url: 'https://collectif.example.org/api/parts',
        body: {
          parts: [
            {
              name: 'shell',
              live: { version: 'build', builtAt: null, commit: null, contract: '2.3', liveSince: null, by: null },
              source: 'build',
              lastRefusal: null,
            },
            {
              name: 'label',
              live: {
                version: 'v7',
                builtAt: '2025-06-01T09:00:00.000Z',
                commit: 'abc1234',
                contract: '2.3',
                liveSince: '2025-06-01T10:00:00.000Z',
                by: 'label',
              },
              source: 'deploy',
              lastRefusal: { at: '2025-06-02T08:30:00.000Z', reason: 'remoteEntry.js manque', by: 'équipe label' },
            },
            { name: 'about', live: null, source: 'deploy', lastRefusal: null },
          ],
        },
      },
      SITE,
      null,
    );
    expect(said.exit).toBe(EXIT.ok);
    expect(said.out).toEqual([
      'Parties en ligne sur https://collectif.example.org/ :',
      '  shell   build (livrée avec le serveur, pas déployée) — contrat 2.3',
      '  label   v7 — en ligne depuis le 01/06/2025 10:00, par label, commit abc1234, contrat 2.3, construite le 01/06/2025 09:00',
      '          dernier refus le 02/06/2025 08:30 (équipe label) : remoteEntry.js manque',
      '  about   aucune version en ligne',
    ]);
  });

  it('deploys with no build: the token in the header only, the archive as application/gzip', async () => {
    const { root } = fixtureRoot();
    const site = siteAnswering(200, { part: 'label', version: 'v8', message: 'label est en ligne.' });
    const printed = capture();
    const build = jest.fn();
    const status = await runDeploy(['label', '--no-build', '--site', 'https://collectif.example.org'], {
      env: { DEPLOY_TOKEN: TOKEN },
      fetch: site.fetch,
      output: printed.output,
      build,
      distRoot: root,
    });
    expect(status).toBe(EXIT.ok);
    expect(build).not.toHaveBeenCalled();
    expect(site.calls).toHaveLength(1);
    const [call] = site.calls;
    expect(call?.url).toBe('https://collectif.example.org/api/parts/label');
    expect(call?.init.method).toBe('PUT');
    expect(call?.init.headers).toEqual({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/gzip' });
    const body = Buffer.from(/** @type {Uint8Array} */ (call?.init.body));
    expect(body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect((await entriesOf(body)).map((entry) => entry.path)).toContain('server/remoteEntry.js');
    expect(printed.out[0]).toMatch(/^Envoi de label à https:\/\/collectif\.example\.org\/ : 6 fichiers, /);
    expect(printed.out.slice(1)).toEqual([
      '✔ label est en ligne.',
      '  Version : v8',
      '  Adresse : https://collectif.example.org/mf-label/mf-manifest.json',
    ]);
    expect([...printed.out, ...printed.err].join('\n')).not.toContain(TOKEN);
  });

  it('builds the part first unless told not to; a failed build sends nothing', async () => {
    const { root } = fixtureRoot();
    const site = siteAnswering(200, { version: 'v9', message: 'ok' });
    const build = jest.fn(() => {
      throw new DeployError("La construction de label a échoué : rien n'a été envoyé");
    });
    const printed = capture();
    const status = await runDeploy(['mf-label', '--site', 'https://collectif.example.org'], {
      env: { DEPLOY_TOKEN: TOKEN },
      fetch: site.fetch,
      output: printed.output,
      build,
      distRoot: root,
    });
    expect(build).toHaveBeenCalledWith(label, expect.anything());
    expect(status).toBe(EXIT.local);
    expect(site.calls).toHaveLength(0);
    expect(printed.err).toEqual(["✖ La construction de label a échoué : rien n'a été envoyé"]);
  });

  it('no dist/: says how to build it, and sends nothing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'deploy-command-'));
    temporary.push(root);
    const site = siteAnswering(200, {});
    const printed = capture();
    const status = await runDeploy(['about', '--no-build', '--site', 'https://collectif.example.org'], {
      env: { DEPLOY_TOKEN: TOKEN },
      fetch: site.fetch,
      output: printed.output,
      distRoot: root,
    });
    expect(status).toBe(EXIT.local);
    expect(site.calls).toHaveLength(0);
    expect(printed.err).toEqual([
      "✖ mf-about/dist/mf-manifest.json n'existe pas : la partie n'est pas construite",
      "  Relancez sans --no-build, ou construisez-la d'abord : npm run build -- about",
    ]);
  });

  it('no token: says so, and sends nothing', async () => {
    const site = siteAnswering(200, {});
    const printed = capture();
    const status = await runDeploy(['label', '--rollback', '--site', 'https://collectif.example.org'], {
      env: {},
      fetch: site.fetch,
      output: printed.output,
    });
    expect(status).toBe(EXIT.local);
    expect(site.calls).toHaveLength(0);
    expect(printed.err[0]).toBe("✖ DEPLOY_TOKEN n'est pas défini : rien n'a été envoyé");
  });

  it('rollback: POST with the token; nothing to go back to is a refusal', async () => {
    const site = siteAnswering(409, { error: 'no_previous', message: 'Aucune version précédente de label.' });
    const printed = capture();
    const status = await runDeploy(['label', '--rollback', '--site', 'https://collectif.example.org'], {
      env: { DEPLOY_TOKEN: TOKEN },
      fetch: site.fetch,
      output: printed.output,
    });
    expect(status).toBe(EXIT.refused);
    expect(site.calls[0]?.url).toBe('https://collectif.example.org/api/parts/label/rollback');
    expect(site.calls[0]?.init.method).toBe('POST');
    expect(printed.err).toEqual(['✖ Refusé (HTTP 409, no_previous) : Aucune version précédente de label.']);
  });

  it('a site that cannot be reached: says so with the address, never with the token', async () => {
    const printed = capture();
    /** @type {typeof fetch} */
    const failing = async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error(`connect ECONNREFUSED (Bearer ${TOKEN})`), { code: 'ECONNREFUSED' }),
      });
    };
    const status = await runDeploy(['--status', '--site', 'http://127.0.0.1:8080'], {
      fetch: failing,
      output: printed.output,
    });
    expect(status).toBe(EXIT.unreachable);
    expect(printed.err[0]).toBe('✖ Le site ne répond pas à http://127.0.0.1:8080/api/parts (connexion refusée)');
    const rollback = await runDeploy(['label', '--rollback', '--site', 'http://127.0.0.1:8080'], {
      env: { DEPLOY_TOKEN: TOKEN },
      fetch: async () => {
        throw new Error(`invalid header Bearer ${TOKEN}`);
      },
      output: printed.output,
    });
    expect(rollback).toBe(EXIT.unreachable);
    expect([...printed.out, ...printed.err].join('\n')).not.toContain(TOKEN);
  });

  it('an HTML page where the API should be: says it is not the site’s answer', async () => {
    const site = siteAnswering(200, '<!doctype html><title>Bienvenue</title>', { 'content-type': 'text/html' });
    const printed = capture();
    const status = await runDeploy(['--status', '--site', 'https://ailleurs.example.org'], {
      fetch: site.fetch,
      output: printed.output,
    });
    expect(status).toBe(EXIT.unreachable);
    expect(printed.err[0]).toBe(
      '✖ Réponse inattendue de https://ailleurs.example.org/api/parts (HTTP 200) : pas la liste des parties.',
    );
  });
});

describe('the archive', () => {
  it('holds dist/’s files and folders, paths relative to it, as they are', async () => {
    const { dist } = fixtureRoot();
    const { archive, files } = await packDist(dist);
    expect(files).toBe(6);
    const entries = await entriesOf(archive);
    expect(entries.map(({ path, type }) => [path, type])).toEqual([
      ['mf-manifest.json', 'File'],
      ['pages.json', 'File'],
      ['part.json', 'File'],
      ['remoteEntry.js', 'File'],
      ['server/', 'Directory'],
      ['server/remoteEntry.js', 'File'],
      ['static/', 'Directory'],
      ['static/js/', 'Directory'],
      ['static/js/main.0123abcd.js', 'File'],
    ]);
    for (const entry of entries.filter((one) => one.type === 'File')) {
      expect(entry.text).toBe(readFileSync(join(dist, entry.path), 'utf8'));
    }
  });

  it('is unpacked by the site’s own reader as the same files', async () => {
    const { dist } = fixtureRoot();
    const { archive } = await packDist(dist);
    const dest = join(mkdtempSync(join(tmpdir(), 'deploy-unpacked-')), 'version');
    temporary.push(join(dest, '..'));
    await unpackArchive(archive, dest);
    for (const file of ['mf-manifest.json', 'remoteEntry.js', 'pages.json', 'part.json', 'server/remoteEntry.js']) {
      expect(readFileSync(join(dest, file), 'utf8')).toBe(readFileSync(join(dist, file), 'utf8'));
    }
  });

  it('stores a hard-linked file whole, never as a link', async () => {
    const { dist } = fixtureRoot();
    linkSync(join(dist, 'remoteEntry.js'), join(dist, 'remoteEntry.copy.js'));
    const entries = await entriesOf((await packDist(dist)).archive);
    const copies = entries.filter((entry) => entry.path.startsWith('remoteEntry'));
    expect(copies).toEqual([
      { path: 'remoteEntry.copy.js', type: 'File', text: 'var collectif_label;' },
      { path: 'remoteEntry.js', type: 'File', text: 'var collectif_label;' },
    ]);
  });

  it('refuses a symbolic link in dist/, naming it', async () => {
    const { dist } = fixtureRoot();
    symlinkSync('/etc/passwd', join(dist, 'static', 'passwd'));
    await expect(packDist(dist)).rejects.toThrow(
      "static/passwd dans dist/ est un lien symbolique : le site refuserait l'archive",
    );
  });
});
