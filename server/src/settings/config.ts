import { availableParallelism } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import type { DeployTokens } from './deploy-tokens';
import { ConfigError } from './kinds';
import { setting, type Env } from './settings';
import {
  PARTS,
  REMOTE_NAMES,
  REMOTE_PARTS,
  readRemotesMap,
  urlPrefix,
  type PartName,
  type RemoteName,
  type RemotesConfig,
} from '@collectif/shared';

/**
 * The repository's root: the first folder up from this module that holds the registry of parts
 * (`shared/parts.mjs`), from the sources (server/src/settings/) as from the built server
 * (server/dist/).
 */
export const workspaceRoot = ((): string => {
  let at = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(at, 'shared', 'parts.mjs'))) {
    const up = dirname(at);
    if (up === at) throw new Error('dossier du dépôt introuvable (shared/parts.mjs)');
    at = up;
  }
  return `${at}/`;
})();

export { ConfigError } from './kinds';
export type { Env } from './settings';

export interface SiteServerConfig {
  host: string;
  port: number;
  /** Where each part's built dist/ lives. */
  distDirs: Record<PartName | 'embed', string>;
  assetsDir: string;
  remotes: RemotesConfig;
  logLevel: string;
  /** Fastify's `trustProxy`: which proxies may tell the client's address (README, « Deploying »). */
  trustProxy: TrustProxy;
  /** The site's public origin, for canonical and shared URLs; never taken from a request (SITE_ORIGIN). */
  siteOrigin: string;
  /** The editor's own origin (EDITOR_ORIGIN), or null: the editor on the public origin. */
  editorOrigin: string | null;
  /** Whether pages are rendered on the server (SSR=off renders them in the browser only, as before). */
  ssr: boolean;
  /** How long a rendered page is reused for the same URL, in ms (PAGE_CACHE_TTL_S); 0: never. */
  pageCacheTtlMs: number;
  /**
   * How many sandboxed renderer processes each lane may run (RENDERERS; default: the cores
   * available but one, at least 1). 0 renders in the server's process (for debugging a render step
   * by step), refused with DEPLOY_TOKENS.
   */
  renderers: number;
  /**
   * After how many redeployed server containers evaluated (by each renderer) the renderers are
   * replaced by fresh ones (RENDER_RECYCLE_AFTER, default 100), as a process keeps some of each old
   * bundle's code.
   */
  renderRecycleAfter: number;
  /** How long a new server container's trial may take, in ms (RENDER_TRIAL_S; docs/deploy.md, « The trial »). */
  renderTrialMs: number;
  /** How long a part's renderers are kept without a page of it, in ms (RENDER_IDLE_S; docs/rendering.md, « Renderers »). */
  renderIdleMs: number;
  /** Whether a lane keeps one renderer at rest (RENDER_KEEP_ONE; docs/rendering.md, « Renderers »). */
  renderKeepOne: boolean;
  /**
   * A renderer's whole environment: the variables of RENDERER_ENV set here (mode, time zone, the
   * browser tests' clock), none of them a secret (docs/rendering.md, « Renderers »).
   */
  rendererEnv: Record<string, string>;
  /**
   * Redis or Valkey shared by several instances (REDIS_URL, `redis://` or `rediss://`): rate
   * limits, upstream answers and the now-playing channel (docs/deploy.md). null: one process alone.
   */
  redisUrl: string | null;
  /**
   * `npm run dev` only (DEV_REMOTES): the remotes served by their webpack dev servers, each through
   * this server's own port under `devPrefix(part)` (docs/parts.md, « Development »).
   */
  devRemotes: DevRemote[];
  /**
   * Teams' deploys (docs/deploy.md, « A team's deploy »): on with DEPLOY_TOKENS, the parts then
   * served from their live versions under DEPLOY_ROOT; null: no deploy endpoint, each part served
   * from its dist/ as built or copied.
   */
  deploy: DeploySettings | null;
}

export interface DeploySettings {
  tokens: DeployTokens;
  /** DEPLOY_ROOT: each part's versions side by side, and its `live` link. */
  root: string;
  /** DEPLOY_KEEP: how many versions of a part are kept. */
  keep: number;
}

/** A remote in development: its dev server's origin, reached through `prefix` on the site's port. */
export interface DevRemote {
  name: RemoteName;
  prefix: string;
  upstream: string;
}

/** Where the site's port serves a remote's dev server: `/_dev/mf-radio/`. */
export const devPrefix = (part: { folder: string }): string => `/_dev/${part.folder}/`;

/**
 * DEV_REMOTES (set by `npm run dev`): `{ "radio": "http://127.0.0.1:3002" }`, the dev servers of
 * the remotes being worked on. Their files are served through the site's own port, so the page
 * loads them from its own origin whatever host name it was opened at (localhost, 127.0.0.1, the
 * machine's name on the network), and the dev servers keep listening on the loopback only.
 */
export function readDevRemotes(env: Env): DevRemote[] {
  const raw = setting(env, 'DEV_REMOTES');
  if (raw === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new ConfigError('DEV_REMOTES', `JSON illisible (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError('DEV_REMOTES', 'un objet { "radio": "http://127.0.0.1:3002", ... } est attendu');
  }
  return Object.entries(value).map(([name, upstream]) => {
    const part = REMOTE_PARTS.find((p) => p.name === name);
    if (part === undefined) {
      throw new ConfigError('DEV_REMOTES', `remote inconnu « ${name} » (attendus : ${REMOTE_NAMES.join(', ')})`);
    }
    let url: URL | null;
    try {
      url = typeof upstream === 'string' ? new URL(upstream) : null;
    } catch {
      url = null;
    }
    if (url?.protocol !== 'http:' || url.origin !== String(upstream).replace(/\/$/, '')) {
      throw new ConfigError('DEV_REMOTES', `origine de serveur de développement invalide pour « ${name} »`);
    }
    return { name: part.name, prefix: devPrefix(part), upstream: url.origin };
  });
}

/** SITE_ORIGIN, else this server's own address. */
export const readSiteOrigin = (env: Env): string =>
  setting(env, 'SITE_ORIGIN') ?? `http://localhost:${String(setting(env, 'PORT'))}`;

/**
 * EDITOR_ORIGIN, checked against the public origin: a passkey is bound to its relying party, the
 * public host, which the editor's host must be or end with (a sub-domain), so that every passkey
 * made so far keeps working there (docs/content.md, « The editor's origin »).
 */
export function readEditorOrigin(env: Env): string | null {
  const editor = setting(env, 'EDITOR_ORIGIN');
  if (editor === undefined) return null;
  const site = new URL(readSiteOrigin(env));
  const own = new URL(editor);
  if (own.origin === site.origin) {
    throw new ConfigError('EDITOR_ORIGIN', `${editor} est l'origine publique du site ; l'éditeur doit avoir la sienne`);
  }
  if (own.hostname !== site.hostname && !own.hostname.endsWith(`.${site.hostname}`)) {
    throw new ConfigError(
      'EDITOR_ORIGIN',
      `${own.hostname} n'est ni ${site.hostname} ni un de ses sous-domaines (par exemple edition.${site.hostname}) : les clés d'accès des bénévoles, liées à ${site.hostname}, n'y seraient pas proposées`,
    );
  }
  return own.origin;
}

/** What Fastify's `trustProxy` accepts: yes/no, a hop count, or the proxies' addresses and ranges. */
export type TrustProxy = boolean | number | string[];

/**
 * The value given to Fastify. A hop count becomes a function: Fastify 5.12 ignores a bare number
 * (it trusts nothing then), while a deployment behind one nginx means « the peer is my proxy ».
 */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/** proxy-addr's names for reserved ranges, accepted by Fastify beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  // A range is an address and a prefix length (10.0.0.0/8), or an address and a netmask.
  if (/^\d{1,3}$/.test(prefix)) return Number(prefix) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(prefix) === 4;
}

/**
 * TRUST_PROXY (docs/server.md, « Client address »): unset, no proxy is trusted and the client is
 * the socket's peer, whatever X-Forwarded-For says; a hop count; or the proxies' addresses.
 */
export function readTrustProxy(env: Env): TrustProxy {
  const raw = setting(env, 'TRUST_PROXY');
  if (raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 20) throw new ConfigError('TRUST_PROXY', `nombre de proxys entre 0 et 20 attendu, reçu « ${raw} »`);
    return hops === 0 ? false : hops;
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  const wrong = entries.find((entry) => !isProxyAddress(entry));
  if (wrong !== undefined) {
    throw new ConfigError(
      'TRUST_PROXY',
      `« ${wrong} » n’est ni une adresse IP ni une plage CIDR (attendu : un nombre de proxys, des adresses séparées par des virgules, true ou false)`,
    );
  }
  return entries;
}

/** Default remote map: every part served by this server under its own path (docs/parts.md). */
export const defaultRemotes = Object.fromEntries(
  REMOTE_PARTS.map((part) => [part.name, `${urlPrefix(part)}mf-manifest.json`]),
) as RemotesConfig;

/**
 * The runtime remote map: REMOTES_CONFIG (inline JSON) or REMOTES_CONFIG_FILE (a JSON file)
 * override some or all remotes; e.g. a new mf-label on a CDN is one line, nothing rebuilt.
 */
export function readRemotes(env: Env): RemotesConfig {
  let override: unknown = {};
  let variable = 'REMOTES_CONFIG';
  const inline = setting(env, 'REMOTES_CONFIG');
  const file = setting(env, 'REMOTES_CONFIG_FILE');
  try {
    if (inline !== undefined) override = JSON.parse(inline);
    else if (file !== undefined) {
      variable = 'REMOTES_CONFIG_FILE';
      override = JSON.parse(readFileSync(file, 'utf8'));
    }
  } catch (error) {
    throw new ConfigError(variable, `JSON illisible (${error instanceof Error ? error.message : String(error)})`);
  }
  let named: Partial<RemotesConfig>;
  try {
    named = readRemotesMap(override, true);
  } catch (error) {
    throw new ConfigError(variable, error instanceof Error ? error.message : String(error));
  }
  const result: RemotesConfig = { ...defaultRemotes, ...named };
  return result;
}

export function readSiteServerConfig(env: Env): SiteServerConfig {
  const distRoot = setting(env, 'DIST_ROOT') ?? workspaceRoot;
  const distDirs = {
    ...(Object.fromEntries(PARTS.map((part) => [part.name, join(distRoot, part.folder, 'dist')])) as Record<
      PartName,
      string
    >),
    // The player for partner sites: one script that brings its own React, store and runtime.
    embed: join(distRoot, 'mf-player', 'dist-embed'),
  };
  const port = setting(env, 'PORT');
  const devRemotes = readDevRemotes(env);
  // A remote in development is announced on the page's own origin, through its proxy.
  const remotes = readRemotes(env);
  for (const dev of devRemotes) remotes[dev.name] = `${dev.prefix}mf-manifest.json`;
  return {
    host: setting(env, 'HOST'),
    port,
    distDirs,
    assetsDir: setting(env, 'ASSETS_DIR') ?? join(workspaceRoot, 'shared', 'assets'),
    remotes,
    logLevel: setting(env, 'LOG_LEVEL'),
    trustProxy: readTrustProxy(env),
    siteOrigin: readSiteOrigin(env),
    editorOrigin: readEditorOrigin(env),
    ssr: setting(env, 'SSR'),
    pageCacheTtlMs: setting(env, 'PAGE_CACHE_TTL_S'),
    // One core is left to the server's process (HTTP, /api, the now-playing stream): measured on 2
    // cores, two renderers rendered fewer pages a second than one, each waiting for a core
    // (docs/rendering.md, « Renderers »).
    renderers: readRenderers(env),
    renderRecycleAfter: setting(env, 'RENDER_RECYCLE_AFTER'),
    renderTrialMs: setting(env, 'RENDER_TRIAL_S'),
    renderIdleMs: setting(env, 'RENDER_IDLE_S'),
    renderKeepOne: setting(env, 'RENDER_KEEP_ONE'),
    rendererEnv: rendererEnv(env),
    redisUrl: setting(env, 'REDIS_URL') ?? null,
    devRemotes,
    deploy: readDeploySettings(env, distRoot),
  };
}

/**
 * The only variables a renderer's environment has, none of them a secret: the mode and the time zone,
 * and the browser tests' clock (e2e/server-clock.mjs, docs/testing.md).
 */
export const RENDERER_ENV = ['NODE_ENV', 'TZ', 'E2E_CLOCK_START', 'E2E_CLOCK_EPOCH'] as const;

/** A renderer's environment: the allow-list's variables that are set in `env`, nothing else. */
export function rendererEnv(env: Env): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of RENDERER_ENV) {
    const value = env[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/**
 * RENDERERS (RENDER_WORKERS, its former name, when it is unset): 0 renders in the server's own
 * process, a debugging aid only: a part's code would then run beside every secret, so it is refused
 * when teams deploy (DEPLOY_TOKENS).
 */
function readRenderers(env: Env): number {
  const given = setting(env, 'RENDERERS') === undefined ? 'RENDER_WORKERS' : 'RENDERERS';
  const renderers = setting(env, given) ?? Math.max(1, availableParallelism() - 1);
  if (renderers === 0 && setting(env, 'DEPLOY_TOKENS') !== undefined) {
    throw new ConfigError(
      given,
      '0 (rendu dans le processus du serveur) est refusé avec DEPLOY_TOKENS : le code d’une équipe y verrait tous les secrets',
    );
  }
  return renderers;
}

function readDeploySettings(env: Env, distRoot: string): DeploySettings | null {
  const tokens = setting(env, 'DEPLOY_TOKENS');
  if (tokens === undefined) return null;
  // Where teams deploy, every team's script runs on the public origin: the editor must have its own,
  // or a public page's script acts as a volunteer signed in there (docs/content.md, « The editor's
  // origin »). Like the sandbox's walls, it is required, not hoped for.
  if (readEditorOrigin(env) === null) {
    const site = new URL(readSiteOrigin(env));
    throw new ConfigError(
      'EDITOR_ORIGIN',
      `les équipes déploient (DEPLOY_TOKENS) mais l'éditeur n'a pas d'origine à lui : donnez-lui la sienne, par exemple EDITOR_ORIGIN=${site.protocol}//edition.${site.host}`,
    );
  }
  return { tokens, root: setting(env, 'DEPLOY_ROOT') ?? join(distRoot, 'deploys'), keep: setting(env, 'DEPLOY_KEEP') };
}

/**
 * The remote map as the server reads it for itself (pages declared, server containers): the browser's
 * map, except that a remote in development is read straight from its dev server, not through the
 * site's own port.
 */
export function remotesForServer(config: Pick<SiteServerConfig, 'remotes' | 'devRemotes'>): RemotesConfig {
  const remotes = { ...config.remotes };
  for (const dev of config.devRemotes) remotes[dev.name] = `${dev.upstream}/mf-manifest.json`;
  return remotes;
}

export function missingDists(config: SiteServerConfig): string[] {
  return Object.entries(config.distDirs)
    .filter(([name]) => name !== 'embed')
    .filter(([, dir]) => !existsSync(dir))
    .map(([name]) => name);
}
