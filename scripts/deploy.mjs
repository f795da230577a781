// @ts-check
// A team's deploy (docs/deploy.md, « A team's deploy, step by step »): builds one part, packs its
// dist/ as a gzipped tar and sends it to the site with the team's token; or makes the previous
// version live again; or lists what is live. Says in French what happened; exits non-zero when the
// site refuses or anything goes wrong.
//   npm run deploy -- <part> --site <url> [--no-build]
//   npm run deploy -- <part> --site <url> --rollback
//   npm run deploy -- --status --site <url>
// The token is read from DEPLOY_TOKEN, never from the command line, and never printed.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as tar from 'tar';
import { PARTS, urlPrefix } from '../shared/parts.mjs';

/** @typedef {(typeof PARTS)[number]} Part */
/** @typedef {{ action: 'deploy', part: Part, site: URL, build: boolean }} DeployCommand */
/** @typedef {{ action: 'rollback', part: Part, site: URL }} RollbackCommand */
/** @typedef {{ action: 'status', part: Part | null, site: URL }} StatusCommand */
/** @typedef {DeployCommand | RollbackCommand | StatusCommand} Command */
/** @typedef {{ out: (line: string) => void, err: (line: string) => void }} Output */

const root = fileURLToPath(new URL('..', import.meta.url));

/** The exit statuses (docs/deploy.md). */
export const EXIT = /** @type {const} */ ({
  /** Live (or rolled back, or listed). */
  ok: 0,
  /** The site answered and refused (a check, the token, nothing to roll back to, too many attempts…). */
  refused: 1,
  /** Nothing was sent: the command's arguments, DEPLOY_TOKEN, the build or the part's dist/. */
  local: 2,
  /** The site could not be reached, failed (5xx), or answered something that is not its JSON. */
  unreachable: 3,
});

/** How long the site may take to check and switch a part before the command gives up. */
const TIMEOUT_MS = 5 * 60 * 1000;

export const USAGE = [
  'Usage :',
  '  npm run deploy -- <partie> --site <adresse>              construit la partie, puis la déploie',
  '  npm run deploy -- <partie> --site <adresse> --no-build   déploie son dist/ tel quel',
  '  npm run deploy -- <partie> --site <adresse> --rollback   remet en ligne la version précédente',
  '  npm run deploy -- --status --site <adresse>              les versions en ligne de chaque partie',
  `Parties : ${PARTS.map((part) => part.name).join(', ')} (ou leur dossier : ${PARTS.map((part) => part.folder).join(', ')}).`,
  "Le jeton de l'équipe est lu dans la variable d'environnement DEPLOY_TOKEN.",
];

/** A problem the command explains in French, with what to do, and the exit status it ends with. */
export class DeployError extends Error {
  /**
   * @param {string} message
   * @param {{ advice?: string, exit?: number }} [more]
   */
  constructor(message, { advice, exit = EXIT.local } = {}) {
    super(message);
    this.name = 'DeployError';
    /** @type {string | undefined} */
    this.advice = advice;
    this.exit = exit;
  }
}

/**
 * A part by its name or its folder (`label` or `mf-label`), or null.
 * @param {string} name
 * @returns {Part | null}
 */
export function findPart(name) {
  return PARTS.find((part) => part.name === name || part.folder === name) ?? null;
}

/**
 * Whether a host name is this machine: `localhost`, 127.0.0.0/8 or ::1.
 * @param {string} hostname
 */
function isLoopback(hostname) {
  return hostname === 'localhost' || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]';
}

/**
 * The site's address, checked (http or https), ending with `/` so that the API's paths resolve
 * under it even when the site lives under a path.
 * @param {string | undefined} text
 * @returns {URL}
 */
export function siteAddress(text) {
  if (text === undefined || text.trim() === '') {
    throw new DeployError("--site manque : donnez l'adresse du site, par exemple --site https://collectif.example.org");
  }
  /** @type {URL} */
  let url;
  try {
    url = new URL(text.trim());
  } catch {
    throw new DeployError(`--site : « ${text} » n'est pas une adresse (attendu : https://…)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new DeployError(`--site : « ${text} » n'est pas une adresse http ou https`);
  }
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/**
 * An error's name, message, code and cause, read without instanceof (the errors of Node's own
 * modules come from another realm under jest).
 * @param {unknown} error
 * @returns {{ name: string, message: string, code: string | null, cause: unknown }}
 */
function errorFacts(error) {
  const facts = typeof error === 'object' && error !== null ? /** @type {Record<string, unknown>} */ (error) : {};
  return {
    name: typeof facts.name === 'string' ? facts.name : '',
    message: typeof facts.message === 'string' ? facts.message : String(error),
    code: typeof facts.code === 'string' ? facts.code : null,
    cause: facts.cause,
  };
}

/** What parseArgs says in English, said in French. @param {unknown} error */
function argumentProblem(error) {
  const { code, message } = errorFacts(error);
  const option = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Option inconnue : ${option}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return option === '--site' ? "--site attend l'adresse du site" : `${option} ne prend pas de valeur`;
  }
  return `Arguments non compris (${message})`;
}

const OPTIONS = /** @type {const} */ ({
  site: { type: 'string' },
  'no-build': { type: 'boolean' },
  rollback: { type: 'boolean' },
  status: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
});

/**
 * The command the arguments ask for; a DeployError (exit 2) saying what is wrong otherwise, or
 * `help` when the usage was asked for.
 * @param {readonly string[]} args the arguments after `npm run deploy --`
 * @returns {Command | 'help'}
 */
export function parseDeployArgs(args) {
  const { values, positionals } = (() => {
    try {
      return parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      throw new DeployError(argumentProblem(error), { advice: USAGE.join('\n') });
    }
  })();
  if (values.help === true) return 'help';
  if (values.rollback === true && values.status === true) {
    throw new DeployError('--rollback et --status ne vont pas ensemble : une chose à la fois');
  }
  if (values['no-build'] === true && (values.rollback === true || values.status === true)) {
    throw new DeployError("--no-build ne sert qu'à un déploiement (rien n'est construit pour --rollback ou --status)");
  }
  if (positionals.length > 1) {
    throw new DeployError(`Une seule partie à la fois (reçu : ${positionals.join(', ')})`);
  }
  const name = positionals[0];
  const part = name === undefined ? null : findPart(name);
  if (name !== undefined && part === null) {
    throw new DeployError(`Partie inconnue : « ${name} »`, {
      advice: `Les parties : ${PARTS.map((known) => known.name).join(', ')}.`,
    });
  }
  if (part === null && values.status !== true) {
    throw new DeployError('Quelle partie déployer ?', { advice: USAGE.join('\n') });
  }
  const site = siteAddress(values.site);
  if (values.status === true) return { action: 'status', part, site };
  // A deploy and a rollback send the team's token: never in clear over the network, only to this
  // machine (a test, or a tunnel to the site).
  if (site.protocol === 'http:' && !isLoopback(site.hostname)) {
    throw new DeployError(
      `--site : « ${site.origin} » est en http, votre jeton y passerait en clair ; donnez l'adresse en https://`,
    );
  }
  if (part === null) throw new DeployError('Quelle partie déployer ?');
  if (values.rollback === true) return { action: 'rollback', part, site };
  return { action: 'deploy', part, site, build: values['no-build'] !== true };
}

/**
 * The team's token, from DEPLOY_TOKEN; a DeployError when it is missing or could not be sent.
 * @param {Record<string, string | undefined>} env
 */
export function readToken(env) {
  const token = env.DEPLOY_TOKEN?.trim() ?? '';
  if (token === '') {
    throw new DeployError("DEPLOY_TOKEN n'est pas défini : rien n'a été envoyé", {
      advice:
        "Donnez le jeton de votre équipe dans l'environnement, par exemple : DEPLOY_TOKEN=… npm run deploy -- label --site https://…",
    });
  }
  // Said without the token: a header that cannot carry it would make fetch quote it in its error.
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new DeployError(
      'DEPLOY_TOKEN contient des espaces ou des caractères non ASCII : ce ne peut pas être un jeton',
      {
        advice: "Recopiez le jeton que l'admin vous a donné, sans guillemets ni retour à la ligne.",
      },
    );
  }
  return token;
}

/**
 * Builds one part for production as `npm run build -- <name>` does (content checks, assets,
 * webpack, pre-compressed files); a DeployError when the build fails.
 * @param {Part} part
 * @param {Output} output
 */
export function buildPart(part, output) {
  output.out(`Construction de ${part.name} (npm run build -- ${part.name})…`);
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), part.name], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    throw new DeployError(`La construction de ${part.name} a échoué : rien n'a été envoyé`, {
      advice: 'Corrigez les erreurs ci-dessus, puis relancez.',
    });
  }
}

/**
 * Every entry of a part's `dist/`, relative to it (`/` between folders), folders before what they
 * hold; a DeployError for anything but files and folders (the site refuses links and devices).
 * @param {string} dist
 * @returns {{ entries: string[], files: number, bytes: number }}
 */
export function listDist(dist) {
  /** @type {string[]} */
  const entries = [];
  let files = 0;
  let bytes = 0;
  /** @param {string} relative */
  const walk = (relative) => {
    const names = readdirSync(relative === '' ? dist : join(dist, relative)).sort();
    for (const name of names) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const stat = lstatSync(join(dist, path));
      if (stat.isDirectory()) {
        entries.push(path);
        walk(path);
      } else if (stat.isFile()) {
        entries.push(path);
        files += 1;
        bytes += stat.size;
      } else {
        const what = stat.isSymbolicLink() ? 'un lien symbolique' : 'ni un fichier ni un dossier';
        throw new DeployError(`${path} dans dist/ est ${what} : le site refuserait l'archive`, {
          advice: 'Remplacez-le par une copie du fichier, ou reconstruisez la partie.',
        });
      }
    }
  };
  walk('');
  return { entries, files, bytes };
}

/**
 * Remembers no file: each hard-linked file is stored whole, where node-tar would write a link
 * (which the site refuses).
 * @extends {Map<`${number}:${number}`, string>}
 */
class NoLinks extends Map {
  /** @returns {this} */
  set() {
    return this;
  }
}

/**
 * A part's `dist/` as the site takes it: a gzipped tar of its files and folders, paths relative
 * to `dist/` (`mf-manifest.json`, `server/remoteEntry.js`), without owners.
 * @param {string} dist
 * @returns {Promise<{ archive: Buffer, files: number, bytes: number }>}
 */
export async function packDist(dist) {
  const { entries, files, bytes } = listDist(dist);
  if (entries.length === 0) throw new DeployError(`${dist} est vide : rien à envoyer`);
  /** @type {Buffer[]} */
  const chunks = [];
  const stream = tar.c(
    { cwd: dist, gzip: true, portable: true, noDirRecurse: true, follow: false, linkCache: new NoLinks() },
    entries,
  );
  for await (const chunk of stream) chunks.push(/** @type {Buffer} */ (chunk));
  return { archive: Buffer.concat(chunks), files, bytes };
}

/**
 * A size as a team reads it.
 * @param {number} bytes
 */
export function formatSize(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1).replace('.', ',')} Mo`;
  return `${String(Math.max(1, Math.round(bytes / 1024)))} Ko`;
}

/**
 * Where a live part is seen: the site for the shell, the remote's folder (and manifest) otherwise.
 * @param {Part} part
 * @param {URL} site
 */
export function partAddress(part, site) {
  if (part.name === 'shell') return site.href;
  return new URL(`${urlPrefix(part).slice(1)}mf-manifest.json`, site).href;
}

/**
 * @typedef {object} Answer what the site said
 * @property {number} status
 * @property {Record<string, unknown> | null} body its JSON object, or null when it sent none
 * @property {string | null} retryAfter
 * @property {string} url
 */

/**
 * One request to the site's deploy API. A DeployError (exit 3) when the site cannot be reached;
 * the answer otherwise, whatever its status.
 * @param {URL} url
 * @param {RequestInit} init
 * @param {typeof fetch} [fetchImpl]
 * @returns {Promise<Answer>}
 */
export async function ask(url, init, fetchImpl = fetch) {
  /** @type {Response} */
  let response;
  try {
    response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new DeployError(`Le site ne répond pas à ${url.href} (${networkReason(error)})`, {
      advice: "Vérifiez l'adresse donnée à --site, votre connexion, et que le site est en marche.",
      exit: EXIT.unreachable,
    });
  }
  const text = await response.text().catch(() => '');
  /** @type {unknown} */
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return {
    status: response.status,
    body: typeof body === 'object' && body !== null && !Array.isArray(body) ? /** @type {any} */ (body) : null,
    retryAfter: response.headers.get('retry-after'),
    url: url.href,
  };
}

/** Why a request failed, in French and without the request's headers. @param {unknown} error */
function networkReason(error) {
  const { name, cause } = errorFacts(error);
  if (name === 'TimeoutError' || name === 'AbortError') {
    return `pas de réponse en ${String(TIMEOUT_MS / 60_000)} minutes`;
  }
  const { code, message } = errorFacts(cause);
  if (message === 'bad port') return 'port que fetch refuse, choisissez-en un autre';
  switch (code) {
    case 'ECONNREFUSED':
      return 'connexion refusée';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'nom de domaine introuvable';
    case 'ECONNRESET':
      return 'connexion coupée';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'délai de connexion dépassé';
    default:
      return code ?? (cause === undefined ? 'erreur réseau' : message);
  }
}

/**
 * What to do when the site refused without saying it.
 * @param {number} status
 * @param {Part | null} part
 * @param {string | null} retryAfter
 */
function defaultAdvice(status, part, retryAfter) {
  switch (status) {
    case 401:
      return "Vérifiez DEPLOY_TOKEN : le site ne connaît pas ce jeton. Demandez le vôtre à l'admin.";
    case 403:
      return `Ce jeton ne déploie pas ${part?.name ?? 'cette partie'} : utilisez le jeton de l'équipe de cette partie.`;
    case 404:
      return "Les déploiements ne sont pas activés sur ce site (DEPLOY_TOKENS et DEPLOY_ROOT), ou l'adresse n'est pas la bonne : vérifiez --site, ou demandez à l'admin.";
    case 413:
      return 'Allégez dist/ (les cartes de code, les fichiers inutiles), puis relancez.';
    case 429:
      return retryAfter === null ? 'Attendez un peu avant de réessayer.' : `Réessayez dans ${retryAfter} s.`;
    default:
      return status >= 500 ? "Erreur du site : réessayez plus tard, et prévenez l'admin si elle revient." : undefined;
  }
}

/**
 * A string field of the site's answer, or null.
 * @param {Record<string, unknown> | null} body
 * @param {string} key
 */
const field = (body, key) => {
  const value = body?.[key];
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;
};

/**
 * What the command prints for the site's answer to a deploy or a rollback, and its exit status:
 * the site's own French message and advice as they come, and on success the live version and its
 * address.
 * @param {Answer} answer
 * @param {Part} part
 * @param {URL} site
 * @returns {{ exit: number, out: string[], err: string[] }}
 */
export function describeAnswer(answer, part, site) {
  const { status, body, retryAfter, url } = answer;
  if (body === null) {
    return {
      exit: EXIT.unreachable,
      out: [],
      err: [
        `✖ Réponse inattendue de ${url} (HTTP ${String(status)}, pas du JSON) : est-ce bien l'adresse du site ?`,
        "  → Vérifiez --site (l'adresse du site lui-même, sans /api), et qu'aucun proxy ne répond à sa place.",
      ],
    };
  }
  const message = field(body, 'message');
  if (status >= 200 && status < 300) {
    const version = field(body, 'version') ?? 'inconnue';
    return {
      exit: EXIT.ok,
      out: [
        `✔ ${message ?? `${part.name} est en ligne.`}`,
        `  Version : ${version}`,
        `  Adresse : ${partAddress(part, site)}`,
      ],
      err: [],
    };
  }
  const code = field(body, 'error');
  const advice = field(body, 'advice') ?? defaultAdvice(status, part, retryAfter);
  const err = [
    `✖ Refusé (HTTP ${String(status)}${code === null ? '' : `, ${code}`}) : ${message ?? 'sans raison donnée'}`,
  ];
  if (advice !== undefined) err.push(`  → ${advice}`);
  if (status === 429 && retryAfter !== null && field(body, 'advice') !== null)
    err.push(`  Réessayez dans ${retryAfter} s.`);
  return { exit: status >= 500 ? EXIT.unreachable : EXIT.refused, out: [], err };
}

/**
 * A date as a team reads it (in the machine's zone), or the text as it came.
 * @param {unknown} value
 */
function formatDate(value) {
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short' }).format(date);
}

/**
 * The lines of `--status`: for each part, its live version (when it went live, by whom, from which
 * commit, for which contract) or that there is none, and its last refusal.
 * @param {Answer} answer
 * @param {URL} site
 * @param {Part | null} only
 * @returns {{ exit: number, out: string[], err: string[] }}
 */
export function describeStatus(answer, site, only) {
  const list = answer.body?.parts;
  if (answer.status !== 200 || !Array.isArray(list)) {
    if (answer.body !== null && answer.status !== 200) return describeAnswer(answer, only ?? PARTS[0], site);
    return {
      exit: EXIT.unreachable,
      out: [],
      err: [
        `✖ Réponse inattendue de ${answer.url} (HTTP ${String(answer.status)}) : pas la liste des parties.`,
        "  → Vérifiez --site (l'adresse du site lui-même), ou que ce site sait lister ses parties (GET /api/parts).",
      ],
    };
  }
  const width = Math.max(...PARTS.map((part) => part.name.length));
  const out = [`Parties en ligne sur ${site.href} :`];
  for (const item of /** @type {unknown[]} */ (list)) {
    if (typeof item !== 'object' || item === null) continue;
    const entry = /** @type {Record<string, any>} */ (item);
    const name = typeof entry.name === 'string' ? entry.name : '?';
    if (only !== null && name !== only.name) continue;
    const live = typeof entry.live === 'object' && entry.live !== null ? entry.live : null;
    if (live === null) {
      out.push(`  ${name.padEnd(width)}  aucune version en ligne`);
    } else {
      const facts = [];
      const since = formatDate(live.liveSince);
      if (since !== null) facts.push(`en ligne depuis le ${since}`);
      if (entry.source !== 'build' && typeof live.by === 'string' && live.by !== '') facts.push(`par ${live.by}`);
      if (typeof live.commit === 'string' && live.commit !== '') facts.push(`commit ${live.commit}`);
      if (typeof live.contract === 'string' && live.contract !== '') facts.push(`contrat ${live.contract}`);
      const built = formatDate(live.builtAt);
      if (built !== null) facts.push(`construite le ${built}`);
      const source = entry.source === 'build' ? ' (livrée avec le serveur, pas déployée)' : '';
      const version = typeof live.version === 'string' ? live.version : '?';
      out.push(`  ${name.padEnd(width)}  ${version}${source}${facts.length > 0 ? ` — ${facts.join(', ')}` : ''}`);
    }
    const refusal = typeof entry.lastRefusal === 'object' && entry.lastRefusal !== null ? entry.lastRefusal : null;
    if (refusal !== null) {
      const at = formatDate(refusal.at);
      const reason = typeof refusal.reason === 'string' ? refusal.reason : 'raison non donnée';
      const by = typeof refusal.by === 'string' && refusal.by !== '' ? ` (${refusal.by})` : '';
      out.push(`  ${' '.repeat(width)}  dernier refus${at === null ? '' : ` le ${at}`}${by} : ${reason}`);
    }
  }
  return { exit: EXIT.ok, out, err: [] };
}

/**
 * The API's address for a part (or for the list of parts).
 * @param {URL} site
 * @param {Part | null} part
 * @param {string} [rest]
 */
export const apiUrl = (site, part, rest = '') =>
  new URL(`api/parts${part === null ? '' : `/${encodeURIComponent(part.name)}`}${rest}`, site);

/**
 * @typedef {object} RunOptions
 * @property {Record<string, string | undefined>} [env] where DEPLOY_TOKEN is read (process.env)
 * @property {Output} [output] where the lines go (the console)
 * @property {typeof fetch} [fetch]
 * @property {(part: Part, output: Output) => void} [build] builds a part (buildPart)
 * @property {string} [distRoot] the folder holding every part's folder (the repository)
 */

/**
 * The whole command: its arguments in, its exit status out; everything it says goes to `output`.
 * @param {readonly string[]} args
 * @param {RunOptions} [options]
 * @returns {Promise<number>}
 */
export async function runDeploy(args, options = {}) {
  const {
    env = process.env,
    output = { out: (line) => console.log(line), err: (line) => console.error(line) },
    fetch: fetchImpl = fetch,
    build = buildPart,
    distRoot = root,
  } = options;
  /** The token never leaves in a line, whatever a library puts in its error. */
  let token = '';
  /** @param {string} line */
  const hide = (line) => (token === '' ? line : line.split(token).join('***'));
  const print = {
    /** @param {string} line */
    out: (line) => output.out(hide(line)),
    /** @param {string} line */
    err: (line) => output.err(hide(line)),
  };
  /** @param {{ exit: number, out: string[], err: string[] }} said */
  const say = (said) => {
    for (const line of said.out) print.out(line);
    for (const line of said.err) print.err(line);
    return said.exit;
  };
  try {
    const command = parseDeployArgs(args);
    if (command === 'help') {
      for (const line of USAGE) print.out(line);
      return EXIT.ok;
    }
    if (command.action === 'status') {
      const answer = await ask(apiUrl(command.site, null), { method: 'GET' }, fetchImpl);
      return say(describeStatus(answer, command.site, command.part));
    }
    token = readToken(env);
    const authorization = { authorization: `Bearer ${token}` };
    const { part, site } = command;
    if (command.action === 'rollback') {
      print.out(`Retour à la version précédente de ${part.name} sur ${site.href}…`);
      const answer = await ask(apiUrl(site, part, '/rollback'), { method: 'POST', headers: authorization }, fetchImpl);
      return say(describeAnswer(answer, part, site));
    }
    if (command.build) build(part, print);
    const dist = join(distRoot, part.folder, 'dist');
    if (!existsSync(join(dist, 'mf-manifest.json'))) {
      throw new DeployError(`${part.folder}/dist/mf-manifest.json n'existe pas : la partie n'est pas construite`, {
        advice: command.build
          ? 'La construction a réussi sans écrire de manifeste : vérifiez la configuration webpack de la partie.'
          : `Relancez sans --no-build, ou construisez-la d'abord : npm run build -- ${part.name}`,
      });
    }
    const { archive, files, bytes } = await packDist(dist);
    print.out(
      `Envoi de ${part.name} à ${site.href} : ${String(files)} fichiers, ${formatSize(bytes)} (${formatSize(archive.length)} compressés)…`,
    );
    const answer = await ask(
      apiUrl(site, part),
      {
        method: 'PUT',
        headers: { ...authorization, 'content-type': 'application/gzip' },
        body: new Uint8Array(archive),
      },
      fetchImpl,
    );
    return say(describeAnswer(answer, part, site));
  } catch (error) {
    if (error instanceof DeployError) {
      print.err(`✖ ${error.message}`);
      if (error.advice !== undefined) for (const line of error.advice.split('\n')) print.err(`  ${line}`);
      return error.exit;
    }
    print.err(`✖ Erreur inattendue : ${errorFacts(error).message}`);
    return EXIT.local;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void runDeploy(process.argv.slice(2)).then((status) => {
    process.exitCode = status;
  });
}
